import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { billingClient, caught, HOUR, monthlyPrice, payingCustomer } from './helpers.js'

const SECOND = 1000

/** A $9 monthly price and a customer paying with `card`. */
async function setUp(card = 'pm_card_chargeDeclined') {
  const b = billingClient()
  const { stripe } = b
  const { customer, pm } = await payingCustomer(stripe, card)
  const { price } = await monthlyPrice(stripe, 900, 'Seat')
  return { ...b, customer, pm, price }
}

const statusChanges = (sim: ReturnType<typeof billingClient>['sim']) =>
  sim.admin
    .events({ type: 'customer.subscription.updated' })
    .map((e) => (e.body.data as { object: { status: string } }).object.status)

describe('subscription payment_behavior (official client)', () => {
  it('allow_incomplete (the default): a declined first payment leaves the subscription incomplete and its invoice open', async () => {
    const { stripe, customer, price } = await setUp()
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    expect(sub.status).toBe('incomplete')
    expect(await stripe.invoices.retrieve(sub.latest_invoice as string)).toMatchObject({ status: 'open', attempted: true })
  })

  it('an incomplete subscription becomes incomplete_expired 23 hours later, with customer.subscription.updated and its invoice voided', async () => {
    const { sim, stripe, customer, price } = await setUp()
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    await sim.clock.tickAsync(23 * HOUR - SECOND)
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('incomplete')
    await sim.clock.tickAsync(SECOND)
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({
      status: 'incomplete_expired',
      ended_at: sub.created + 23 * 3600,
    })
    const [updated] = sim.admin.events({ type: 'customer.subscription.updated' })
    expect((updated?.body.data as { previous_attributes?: unknown } | undefined)?.previous_attributes).toMatchObject({
      status: 'incomplete',
    })
    expect((await stripe.invoices.retrieve(sub.latest_invoice as string)).status).toBe('void')
    expect(sim.admin.events({ type: 'invoice.voided' })).toHaveLength(1)
  })

  it('an expired subscription is not renewed at its period end', async () => {
    const { sim, stripe, customer, price } = await setUp()
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    await sim.clock.tickAsync(40 * 24 * HOUR)
    expect((await stripe.invoices.list({ subscription: sub.id })).data).toHaveLength(1)
  })

  it('paying the first invoice within 23 hours makes the subscription active, and it does not expire', async () => {
    const { sim, stripe, customer, price } = await setUp()
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    await sim.clock.tickAsync(22 * HOUR)
    const visa = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id })
    const paid = await stripe.invoices.pay(sub.latest_invoice as string, { payment_method: visa.id })
    expect(paid.status).toBe('paid')
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
    await sim.clock.tickAsync(2 * HOUR)
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
    expect(statusChanges(sim)).toEqual(['active'])
  })

  it('default_incomplete finalizes the first invoice without charging it; paying it activates the subscription', async () => {
    const { stripe, customer, price } = await setUp('pm_card_visa')
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
    })
    expect(sub.status).toBe('incomplete')
    expect(await stripe.invoices.retrieve(sub.latest_invoice as string)).toMatchObject({ status: 'open', attempted: false })
    await stripe.invoices.pay(sub.latest_invoice as string)
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
  })

  it('default_incomplete left unpaid expires after 23 hours too', async () => {
    const { sim, stripe, customer, price } = await setUp('pm_card_visa')
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
    })
    await sim.clock.tickAsync(23 * HOUR)
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('incomplete_expired')
  })

  it('error_if_incomplete refuses a first payment the card declines with 402 and creates nothing', async () => {
    const { sim, stripe, customer, price } = await setUp()
    const refused = await caught(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        payment_behavior: 'error_if_incomplete',
      }),
    )
    expect(refused).toMatchObject({
      type: 'StripeCardError',
      statusCode: 402,
      code: 'card_declined',
      decline_code: 'generic_decline',
    })
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0)
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(0)
    expect(sim.admin.events().filter((e) => e.type.startsWith('invoice') || e.type.startsWith('customer.subscription'))).toEqual(
      [],
    )
  })

  it('error_if_incomplete refuses a customer without a payment method with 400', async () => {
    const { stripe, price } = await setUp()
    const customer = await stripe.customers.create({})
    const refused = await caught(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        payment_behavior: 'error_if_incomplete',
      }),
    )
    expect(refused).toMatchObject({ statusCode: 400, code: 'invoice_no_customer_payment_method' })
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0)
  })

  it('error_if_incomplete with a card that pays creates an active subscription', async () => {
    const { stripe, customer, price } = await setUp('pm_card_visa')
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'error_if_incomplete',
    })
    expect(sub.status).toBe('active')
  })

  it('expires on a test clock when the clock is advanced past 23 hours', async () => {
    const { stripe, price } = await setUp()
    const start = Date.UTC(2026, 0, 1) / 1000
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start })
    const { customer } = await payingCustomer(stripe, 'pm_card_chargeDeclined', { test_clock: clock.id })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 23 * 3600 })
    await stripe.testHelpers.testClocks.retrieve(clock.id)
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({
      status: 'incomplete_expired',
      ended_at: start + 23 * 3600,
    })
  })
})

describe('incomplete expiry across snapshots', () => {
  it('a snapshot (JSON and fork) taken while a subscription is incomplete expires it at the same instant, with the same trace', async () => {
    const { sim, stripe, customer, price } = await setUp()
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    await sim.clock.tickAsync(HOUR)
    await sim.settle()
    const loaded = createSimulator({ from: JSON.parse(JSON.stringify(sim.snapshot())) })
    const forked = sim.fork()
    const statuses: string[] = []
    for (const s of [sim, loaded, forked]) {
      await s.clock.tickAsync(22 * HOUR)
      const client = new Stripe(s.platform.secretKey.test, {
        httpClient: Stripe.createFetchHttpClient(s.fetch),
        maxNetworkRetries: 0,
      })
      statuses.push((await client.subscriptions.retrieve(sub.id)).status)
    }
    expect(statuses).toEqual(['incomplete_expired', 'incomplete_expired', 'incomplete_expired'])
    expect(loaded.trace.hash()).toBe(sim.trace.hash())
    expect(forked.trace.hash()).toBe(sim.trace.hash())
  })
})
