import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { billingClient, DAY, payingCustomer } from '../billing/helpers.js'

describe('usage becomes an invoice', () => {
  it('bills a month of streamed usage minus a cancelled event, once, at the price; billedUsage shows the line', async () => {
    const { sim, stripe, httpClient } = billingClient({ start: '2026-01-01T00:00:00.000Z' })
    const { customer } = await payingCustomer(stripe)
    const meter = await stripe.billing.meters.create({
      event_name: 'tokens',
      display_name: 'Tokens',
      default_aggregation: { formula: 'sum' },
    })
    const product = await stripe.products.create({ name: 'Tokens' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 3,
      recurring: { interval: 'month', usage_type: 'metered', meter: meter.id },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const session = await stripe.v2.billing.meterEventSession.create()
    const streamer = new Stripe(session.authentication_token, { httpClient, maxNetworkRetries: 0 })
    await streamer.v2.billing.meterEventStream.create({
      events: Array.from({ length: 10 }, (_, i) => ({
        event_name: 'tokens',
        identifier: `t${i}`,
        payload: { stripe_customer_id: customer.id, value: String(i + 1) },
      })),
    })
    // A duplicate and a cancellation: neither may change what is billed beyond removing t9 (value 10).
    await streamer.v2.billing.meterEventStream.create({
      events: [{ event_name: 'tokens', identifier: 't0', payload: { stripe_customer_id: customer.id, value: '1' } }],
    })
    await stripe.billing.meterEventAdjustments.create({ event_name: 'tokens', type: 'cancel', cancel: { identifier: 't9' } })
    await sim.clock.tickAsync(40 * DAY)
    const invoices = await stripe.invoices.list({ customer: customer.id, subscription: sub.id })
    const metered = invoices.data.find((i) => i.lines.data.some((l) => l.quantity === 45))
    expect(metered, JSON.stringify(invoices.data.map((i) => [i.status, i.lines.data.map((l) => l.quantity)]))).toBeDefined()
    expect(metered?.amount_due).toBe(135)
    const usage = sim.admin.billedUsage({ customer: customer.id })
    const period = usage.meters[0]?.periods.find((p) => p.invoices.length > 0)
    expect(period).toMatchObject({ value: 45, count: 9, cancelledEvents: 1, cancelledValue: 10, pendingEvents: 0 })
    expect(period?.invoices[0]).toMatchObject({ invoice: metered?.id, quantity: 45, amount: 135, price: price.id })
    expect(new Date(period?.start ?? 0).toISOString()).toBe('2026-01-01T00:00:00.000Z')
  })
})
