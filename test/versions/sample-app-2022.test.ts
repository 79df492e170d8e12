import { describe, expect, it } from 'vitest'
import { collect } from '../delivery/helpers.js'
import { pinned } from './helpers.js'

describe('a subscription sample app written for 2022-08-01', () => {
  it('gets the payment intent through latest_invoice.payment_intent and reads invoice.payment_intent in its webhook handler', async () => {
    const { sim, stripe } = pinned('2022-08-01')
    await stripe.v2.core.eventDestinations.create({
      name: 'app',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['invoice.payment_succeeded'],
      webhook_endpoint: { url: 'https://app.test/webhook' },
    })
    const got = collect(sim, 'https://app.test/webhook')
    const customer = await stripe.customers.create({
      email: 'jenny@example.test',
      payment_method: 'pm_card_visa',
      invoice_settings: { default_payment_method: 'pm_card_visa' },
    })
    const product = await stripe.products.create({ name: 'Basic' })
    const price = await stripe.prices.create({
      product: product.id,
      unit_amount: 500,
      currency: 'usd',
      recurring: { interval: 'month' },
    })
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      expand: ['latest_invoice.payment_intent'],
    })
    const invoice = subscription.latest_invoice as unknown as {
      id: string
      payment_intent: { id: string; status: string; client_secret: string }
    }
    expect(invoice.payment_intent.client_secret).toMatch(/^pi_.+_secret_/)
    expect(invoice.payment_intent.status).toBe('succeeded')
    await sim.settle()
    expect(got.length).toBe(1)
    const event = JSON.parse(got[0]!.raw)
    expect(event.api_version).toBe('2022-08-01')
    const paid = event.data.object
    // The handler of the sample: `stripe.paymentIntents.retrieve(invoice.payment_intent)`.
    const intent = await stripe.paymentIntents.retrieve(paid.payment_intent)
    expect(intent.status).toBe('succeeded')
    expect(paid.subscription).toBe(subscription.id)
    expect(paid.paid).toBe(true)
    expect(paid.charge).toMatch(/^ch_/)
    expect(paid.lines.data[0].price.id).toBe(price.id)
    expect(paid.lines.data[0].type).toBe('subscription')
    expect(paid).not.toHaveProperty('parent')
    const again = await stripe.subscriptions.retrieve(subscription.id)
    expect(again.status).toBe('active')
    const periods = again as unknown as { current_period_start: number; current_period_end: number }
    expect(periods.current_period_end - periods.current_period_start).toBe(31 * 24 * 3600)
    // The period lived on the subscription then, not on its items.
    expect(again.items.data[0]).not.toHaveProperty('current_period_end')
  })
})
