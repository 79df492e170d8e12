import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { METER_PROCESSING_DELAY } from '../../src/index.js'
import { billingClient, caught, DAY, HOUR, payingCustomer } from './helpers.js'

const T0 = Date.UTC(2026, 0, 31) / 1000
const FEB28 = Date.UTC(2026, 1, 28) / 1000
const MAR31 = Date.UTC(2026, 2, 31) / 1000

async function meteredSetup() {
  const b = billingClient()
  const { stripe } = b
  const { customer } = await payingCustomer(stripe)
  const product = await stripe.products.create({ name: 'API' })
  const calls = await stripe.billing.meters.create({
    display_name: 'Calls',
    event_name: 'api_call',
    default_aggregation: { formula: 'sum' },
  })
  const tokens = await stripe.billing.meters.create({
    display_name: 'Tokens',
    event_name: 'tokens',
    default_aggregation: { formula: 'sum' },
  })
  const perUnit = await stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 2,
    recurring: { interval: 'month', usage_type: 'metered', meter: calls.id },
  })
  const tiered = await stripe.prices.create({
    product: product.id,
    currency: 'usd',
    billing_scheme: 'tiered',
    tiers_mode: 'graduated',
    tiers: [
      { up_to: 100, unit_amount: 0, flat_amount: 500 },
      { up_to: 'inf', unit_amount: 1 },
    ],
    recurring: { interval: 'month', usage_type: 'metered', meter: tokens.id },
  })
  const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: perUnit.id }, { price: tiered.id }] })
  return { ...b, customer, perUnit, tiered, sub }
}

describe('usage becomes an invoice (official client, prefix Stripe)', () => {
  it('meters usage from the stream and the sync endpoint, previews it once processed, and bills it exactly at period end', async () => {
    const { sim, stripe, httpClient, customer, perUnit, tiered, sub } = await meteredSetup()
    expect(sub.status).toBe('active')
    expect(sub.items.data[0]?.current_period_start).toBe(T0)
    expect(sub.items.data[0]?.current_period_end).toBe(FEB28) // Jan 31 + 1 month, clamped to February
    expect(sub.items.data[0]?.quantity).toBeUndefined()
    const first = await stripe.invoices.retrieve(sub.latest_invoice as string)
    expect(first).toMatchObject({ billing_reason: 'subscription_create', status: 'paid', amount_due: 0 })

    // Webhooks: a snapshot destination that records invoice.paid.
    const d = await stripe.v2.core.eventDestinations.create({
      name: 'billing',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['invoice.paid'],
      webhook_endpoint: { url: 'https://hooks.example.test/billing' },
      include: ['webhook_endpoint.signing_secret'],
    })
    const deliveries: { raw: string; signature: string }[] = []
    sim.receivers.mount('https://hooks.example.test/billing', async (req) => {
      deliveries.push({ raw: await req.text(), signature: req.headers.get('Stripe-Signature') ?? '' })
      return new Response('{}')
    })

    // Stream: 10 + 15 calls, and a duplicate identifier (dropped on processing).
    const session = await stripe.v2.billing.meterEventSession.create()
    const streamer = new Stripe(session.authentication_token, { httpClient, maxNetworkRetries: 0 })
    await streamer.v2.billing.meterEventStream.create({
      events: [
        { event_name: 'api_call', identifier: 's1', payload: { stripe_customer_id: customer.id, value: '10' } },
        { event_name: 'api_call', identifier: 's2', payload: { stripe_customer_id: customer.id, value: '15' } },
        { event_name: 'api_call', identifier: 's1', payload: { stripe_customer_id: customer.id, value: '10' } },
      ],
    })
    // Sync: 120 + 30 tokens, a duplicate refused, an event out of the window refused, one cancelled.
    const tokens = (identifier: string, value: string, timestamp?: string) =>
      stripe.v2.billing.meterEvents.create({
        event_name: 'tokens',
        identifier,
        payload: { stripe_customer_id: customer.id, value },
        ...(timestamp === undefined ? {} : { timestamp }),
      })
    await tokens('t1', '120')
    await tokens('t2', '30')
    expect((await caught(tokens('t1', '120'))).code).toBe('duplicate_meter_event')
    const old = new Date((T0 - 40 * 86400) * 1000).toISOString()
    expect((await caught(tokens('t-old', '999', old))).code).toBe('timestamp_too_far_in_past')
    await tokens('t3', '50')
    await stripe.billing.meterEventAdjustments.create({ event_name: 'tokens', type: 'cancel', cancel: { identifier: 't3' } })

    // Not processed yet: the preview lags the stream.
    const lagging = await stripe.invoices.createPreview({ subscription: sub.id })
    expect(lagging.lines.data.map((l) => l.quantity)).toEqual([0, 0])
    expect(lagging.amount_due).toBe(0)

    await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    await sim.settle()
    const preview = await stripe.invoices.createPreview({ subscription: sub.id })
    expect(preview.lines.data.map((l) => [l.pricing?.price_details?.price, l.quantity, l.amount])).toEqual([
      [perUnit.id, 25, 50], // 25 calls at 2 cents
      [tiered.id, 150, 550], // first 100: $5 flat; 50 more at 1 cent
    ])
    expect(preview.amount_due).toBe(600)

    // Period end: the invoice is a draft for the grace hour, then finalized and paid.
    await sim.clock.tickAsync((FEB28 - T0) * 1000 - METER_PROCESSING_DELAY.max)
    const [cycle] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(cycle).toMatchObject({ billing_reason: 'subscription_cycle', status: 'draft', period_start: T0, period_end: FEB28 })
    const lines = await stripe.invoices.listLineItems(cycle?.id as string)
    expect(lines.data.map((l) => [l.quantity, l.amount, l.period])).toEqual([
      [25, 50, { start: T0, end: FEB28 }],
      [150, 550, { start: T0, end: FEB28 }],
    ])
    await sim.clock.tickAsync(HOUR)
    const paid = await stripe.invoices.retrieve(cycle?.id as string)
    expect(paid).toMatchObject({ status: 'paid', total: 600, amount_paid: 600, amount_remaining: 0 })
    expect(paid.number).toMatch(/-0002$/)
    const types = sim.admin.events().map((e) => e.type)
    const mine = types.filter((t) => t.startsWith('invoice.'))
    expect(mine.slice(-4)).toEqual(['invoice.created', 'invoice.finalized', 'invoice.paid', 'invoice.payment_succeeded'])

    // invoice.paid reached the destination and verifies.
    await sim.settle()
    const paidDelivery = deliveries
      .map((x) => ({ ...x, event: JSON.parse(x.raw) }))
      .find((x) => x.event.type === 'invoice.paid' && x.event.data.object.id === cycle?.id)
    expect(paidDelivery).toBeDefined()
    const verified = stripe.webhooks.constructEvent(
      paidDelivery?.raw as string,
      paidDelivery?.signature as string,
      d.webhook_endpoint?.signing_secret as string,
      300,
      undefined,
      Math.floor(sim.clock.now / 1000),
    )
    expect(verified.type).toBe('invoice.paid')

    // The next period started on time: Feb 28 → Mar 31 (the anchor's day).
    const after = await stripe.subscriptions.retrieve(sub.id)
    expect(after.items.data.map((i) => [i.current_period_start, i.current_period_end])).toEqual([
      [FEB28, MAR31],
      [FEB28, MAR31],
    ])
    expect(after.latest_invoice).toBe(cycle?.id)
    // The payment went through the payment path and the ledger.
    expect(sim.admin.balance(sim.platform.id).find((b) => b.currency === 'usd')?.pending).toBeGreaterThan(0)
  })

  it('a declining card leaves the invoice open and the subscription past_due, then the automatic retry pays it', async () => {
    const { sim, stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const product = await stripe.products.create({ name: 'Seat' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 1000,
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id, quantity: 3 }] })
    expect(sub.status).toBe('active')
    const declining = await stripe.paymentMethods.attach('pm_card_chargeDeclined', { customer: customer.id })
    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: declining.id } })

    await sim.clock.tickAsync((FEB28 - T0) * 1000 + HOUR)
    const [inv] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(inv).toMatchObject({ status: 'open', amount_due: 3000, attempt_count: 1 })
    expect(inv?.next_payment_attempt).toBe(FEB28 + 3600 + 3 * 86400)
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('past_due')
    expect(sim.admin.events({ type: 'invoice.payment_failed' })).toHaveLength(1)

    const visa = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id })
    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: visa.id } })
    await sim.clock.tickAsync(3 * DAY)
    expect(await stripe.invoices.retrieve(inv?.id as string)).toMatchObject({ status: 'paid', attempt_count: 2 })
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
  })

  it('bills a yearly price a year later, on the anchor day', async () => {
    const { sim, stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const product = await stripe.products.create({ name: 'Annual' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 12000,
      recurring: { interval: 'year' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const Y1 = Date.UTC(2027, 0, 31) / 1000
    expect(sub.items.data[0]?.current_period_end).toBe(Y1)
    await sim.clock.tickAsync((Y1 - T0) * 1000 - 1)
    expect((await stripe.invoices.list({ subscription: sub.id })).data).toHaveLength(1)
    await sim.clock.tickAsync(1 + HOUR)
    const [renewal] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_paid: 12000 })
    expect(renewal?.lines.data[0]?.period).toEqual({ start: Y1, end: Date.UTC(2028, 0, 31) / 1000 })
  })

  it('trials, cancel at period end and cancel now emit the subscription events', async () => {
    const { sim, stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const product = await stripe.products.create({ name: 'Pro' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 2000,
      recurring: { interval: 'month' },
    })
    const trial = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      trial_period_days: 14,
    })
    expect(trial).toMatchObject({ status: 'trialing', trial_start: T0, trial_end: T0 + 14 * 86400 })
    expect((await stripe.invoices.retrieve(trial.latest_invoice as string)).amount_due).toBe(0)
    await sim.clock.tickAsync(14 * DAY + HOUR)
    const after = await stripe.subscriptions.retrieve(trial.id)
    expect(after.status).toBe('active')
    expect(after.items.data[0]?.current_period_start).toBe(T0 + 14 * 86400)
    const [charged] = (await stripe.invoices.list({ subscription: trial.id, limit: 1 })).data
    expect(charged).toMatchObject({ status: 'paid', amount_paid: 2000 })

    const updated = await stripe.subscriptions.update(trial.id, { cancel_at_period_end: true })
    expect(updated.cancel_at_period_end).toBe(true)
    const [event] = sim.admin.events({ type: 'customer.subscription.updated' }).slice(-1)
    expect((event?.body.data as { previous_attributes: Record<string, unknown> } | undefined)?.previous_attributes).toMatchObject(
      {
        cancel_at_period_end: false,
      },
    )
    await sim.clock.tickAsync(31 * DAY)
    expect((await stripe.subscriptions.retrieve(trial.id)).status).toBe('canceled')
    expect(sim.admin.events({ type: 'customer.subscription.deleted' })).toHaveLength(1)

    const other = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const canceled = await stripe.subscriptions.cancel(other.id)
    expect(canceled.status).toBe('canceled')
    expect(sim.admin.events({ type: 'customer.subscription.deleted' })).toHaveLength(2)
  })

  it('counts quantity updates per subscription against the limit row', async () => {
    const { stripe } = billingClient({ limits: { rows: [{ id: 'subscription.updates', max: 2 }] } })
    const { customer } = await payingCustomer(stripe)
    const product = await stripe.products.create({ name: 'Seat' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 1000,
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const item = sub.items.data[0]?.id as string
    await stripe.subscriptionItems.update(item, { quantity: 2 })
    await stripe.subscriptions.update(sub.id, { items: [{ id: item, quantity: 3 }] })
    const refused = await caught(stripe.subscriptionItems.update(item, { quantity: 4 }))
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['stripe-rate-limited-reason']).toBe('resource-specific')
    expect((await stripe.subscriptionItems.retrieve(item)).quantity).toBe(3)
  })
})
