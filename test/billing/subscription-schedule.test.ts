import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { billingClient, caught, DAY, payingCustomer } from './helpers.js'

/** A paying customer (on a new test clock frozen at the simulator's start with `onClock`) and a $10 monthly price. */
async function setUp(onClock = false) {
  const b = billingClient()
  const clock = onClock
    ? await b.stripe.testHelpers.testClocks.create({ frozen_time: Math.floor(b.sim.clock.now / 1000) })
    : undefined
  const { customer } = await payingCustomer(b.stripe, 'pm_card_visa', clock === undefined ? {} : { test_clock: clock.id })
  const product = await b.stripe.products.create({ name: 'Seat' })
  const price = await b.stripe.prices.create({
    product: product.id,
    currency: 'usd',
    unit_amount: 1000,
    recurring: { interval: 'month' },
  })
  return { ...b, customer, price, clock: clock?.id ?? '', frozen: clock?.frozen_time ?? 0 }
}

const nowSec = (sim: { clock: { now: number } }) => Math.floor(sim.clock.now / 1000)

describe('cancel_at', () => {
  it('cancels at cancel_at with customer.subscription.deleted, also after a snapshot (JSON and fork), with the same trace', async () => {
    const { sim, stripe, customer, price } = await setUp()
    const at = nowSec(sim) + 3 * 86_400
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], cancel_at: at })
    await sim.settle()
    const loaded = createSimulator({ from: JSON.parse(JSON.stringify(sim.snapshot())) })
    const forked = sim.fork()
    for (const s of [sim, loaded, forked]) {
      await s.clock.tickAsync(3 * DAY - 1000)
      const client = new Stripe(s.platform.secretKey.test, {
        httpClient: Stripe.createFetchHttpClient(s.fetch),
        maxNetworkRetries: 0,
      })
      expect((await client.subscriptions.retrieve(sub.id)).status).toBe('active')
      await s.clock.tickAsync(1000)
      expect(await client.subscriptions.retrieve(sub.id)).toMatchObject({ status: 'canceled', ended_at: at })
      const deleted = s.admin.events({ type: 'customer.subscription.deleted' })
      expect(deleted.map((e) => (e.body.data as { object: { id: string } }).object.id)).toEqual([sub.id])
    }
    expect(loaded.trace.hash()).toBe(sim.trace.hash())
    expect(forked.trace.hash()).toBe(sim.trace.hash())
  })

  it("cancels at cancel_at on the customer's test clock when the clock is advanced past it", async () => {
    const { stripe, customer, price, clock, frozen: start } = await setUp(true)
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const at = start + 2 * 86_400
    await stripe.subscriptions.update(sub.id, { cancel_at: at })
    const advance = async (to: number) => {
      await stripe.testHelpers.testClocks.advance(clock, { frozen_time: to })
      let status = 'advancing'
      while (status !== 'ready') status = (await stripe.testHelpers.testClocks.retrieve(clock)).status
    }
    await advance(start + 86_400)
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
    await advance(start + 3 * 86_400)
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({ status: 'canceled', ended_at: at })
  })

  it("keeps the subscription when cancel_at is cleared with ''", async () => {
    const { sim, stripe, customer, price } = await setUp()
    const at = nowSec(sim) + 86_400
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], cancel_at: at })
    expect((await stripe.subscriptions.update(sub.id, { cancel_at: '' })).cancel_at).toBeNull()
    await sim.clock.tickAsync(2 * DAY)
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
  })

  it('refuses a cancel_at in the past on create with 400, creating nothing', async () => {
    const { sim, stripe, customer, price } = await setUp()
    const refused = await caught(
      stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], cancel_at: nowSec(sim) - 10 }),
    )
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'cancel_at' })
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).toHaveLength(0)
  })
})

describe('trial_end on update', () => {
  it('ends a trial at once with trial_end=now: active, a new period from now, invoiced', async () => {
    const { sim, stripe, customer, price } = await setUp()
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      trial_period_days: 7,
    })
    expect(sub.status).toBe('trialing')
    await sim.clock.tickAsync(DAY)
    const now = nowSec(sim)
    const ended = await stripe.subscriptions.update(sub.id, { trial_end: 'now' })
    expect(ended).toMatchObject({ status: 'active', trial_end: now, billing_cycle_anchor: sub.billing_cycle_anchor })
    expect(ended.items.data[0]?.current_period_start).toBe(now)
    expect(ended.items.data[0]?.current_period_end).toBe(Date.UTC(2026, 2, 1) / 1000) // a month from Feb 1
    const [invoice] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(invoice).toMatchObject({ billing_reason: 'subscription_cycle', amount_due: 1000 })
  })

  it('refuses a trial_end in the past with 400 and keeps the subscription as it was', async () => {
    const { sim, stripe, customer, price } = await setUp()
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const refused = await caught(stripe.subscriptions.update(sub.id, { trial_end: nowSec(sim) - 5 }))
    expect(refused).toMatchObject({ statusCode: 400, param: 'trial_end' })
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({ status: 'active', trial_end: null })
  })
})

describe('subscriptions.list status', () => {
  it('lists canceled and incomplete_expired subscriptions with status=ended', async () => {
    const { stripe, customer, price } = await setUp()
    const live = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const gone = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    await stripe.subscriptions.cancel(gone.id)
    expect((await stripe.subscriptions.list({ status: 'ended' })).data.map((s) => s.id)).toEqual([gone.id])
    expect((await stripe.subscriptions.list({ status: 'active' })).data.map((s) => s.id)).toEqual([live.id])
  })
})

describe('items of subscriptions', () => {
  it('refuses an update that would put the same price on two items with 400, changing nothing', async () => {
    const { stripe, customer, price } = await setUp()
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const refused = await caught(stripe.subscriptions.update(sub.id, { items: [{ price: price.id }] }))
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'items[0][price]' })
    expect((await stripe.subscriptions.retrieve(sub.id)).items.data).toHaveLength(1)
  })

  it('refuses subscriptionItems.create with a price the subscription already has with 400, adding nothing', async () => {
    const { stripe, customer, price } = await setUp()
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const refused = await caught(stripe.subscriptionItems.create({ subscription: sub.id, price: price.id }))
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'price' })
    expect((await stripe.subscriptionItems.list({ subscription: sub.id })).data).toHaveLength(1)
  })

  it('refuses deleting an item of a canceled subscription with 400', async () => {
    const { stripe, customer, price } = await setUp()
    const other = await stripe.prices.create({
      product: price.product as string,
      currency: 'usd',
      unit_amount: 300,
      recurring: { interval: 'month' },
    })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }, { price: other.id }],
    })
    await stripe.subscriptions.cancel(sub.id)
    const item = sub.items.data[0]?.id as string
    expect(await caught(stripe.subscriptionItems.del(item))).toMatchObject({ statusCode: 400 })
    expect((await stripe.subscriptionItems.retrieve(item)).id).toBe(item)
  })
})
