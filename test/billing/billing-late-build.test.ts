import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { billingClient, DAY, monthlyPrice, payingCustomer } from './helpers.js'

function clientOf(sim: Simulator): Stripe {
  return new Stripe(sim.platform.secretKey.test, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })
}

// Billing built on first use: a loaded snapshot or a fork whose first billing work is a schedule's
// step, a test clock's advance or a quote's expiry continues exactly as its original.
describe('billing first built by pending work', () => {
  it('runs a subscription schedule step in a loaded snapshot and a fork as the original does', async () => {
    const { sim, stripe } = billingClient({ seed: 901 })
    const { customer } = await payingCustomer(stripe)
    const { price } = await monthlyPrice(stripe, 1500)
    const start = Math.floor(sim.clock.now / 1000) + 86_400
    await stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: start,
      phases: [{ items: [{ price: price.id }], end_date: start + 20 * 86_400 }],
      end_behavior: 'cancel',
    })
    const loaded = createSimulator({ from: sim.snapshot() })
    const forked = sim.fork()
    for (const s of [sim, loaded, forked]) await s.clock.tickAsync(40 * DAY)
    const subs = await Promise.all(
      [sim, loaded, forked].map(async (s) =>
        (await clientOf(s).subscriptions.list({ customer: customer.id, status: 'all' })).data.map((x) => [x.id, x.status]),
      ),
    )
    expect(subs[0]?.length).toBeGreaterThan(0)
    expect(subs[1]).toEqual(subs[0])
    expect(subs[2]).toEqual(subs[0])
    expect(loaded.trace.hash()).toBe(sim.trace.hash())
    expect(forked.trace.hash()).toBe(sim.trace.hash())
  })

  it('advances a test clock in a loaded snapshot and a fork as the original does', async () => {
    const { sim, stripe } = billingClient({ seed: 902 })
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: Math.floor(sim.clock.now / 1000) })
    const { customer } = await payingCustomer(stripe, 'pm_card_visa', { test_clock: clock.id })
    const { price } = await monthlyPrice(stripe, 700)
    await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const loaded = createSimulator({ from: sim.snapshot() })
    const forked = sim.fork()
    for (const s of [sim, loaded, forked]) {
      await clientOf(s).testHelpers.testClocks.advance(clock.id, { frozen_time: clock.frozen_time + 35 * 86_400 })
      await s.clock.tickAsync(DAY)
    }
    const invoices = await Promise.all(
      [sim, loaded, forked].map(async (s) =>
        (await clientOf(s).invoices.list({ customer: customer.id })).data.map((i) => [i.id, i.status]),
      ),
    )
    expect(invoices[0]?.length).toBe(2)
    expect(invoices[1]).toEqual(invoices[0])
    expect(invoices[2]).toEqual(invoices[0])
    expect(loaded.trace.hash()).toBe(sim.trace.hash())
    expect(forked.trace.hash()).toBe(sim.trace.hash())
  })
})

describe('billing in forks of a kept capture', () => {
  it('keeps each fork of a kept simulator apart in its subscriptions and invoices', async () => {
    const { keepForForks } = await import('../../src/simulator/create-simulator.js')
    const { sim, stripe } = billingClient({ seed: 903 })
    const { customer } = await payingCustomer(stripe)
    const { price } = await monthlyPrice(stripe, 900)
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    const before = (await stripe.invoices.list({ customer: customer.id })).data.map((i) => [i.id, i.status])
    keepForForks(sim)
    const a = sim.fork()
    await a.clock.tickAsync(32 * DAY)
    await clientOf(a).subscriptions.update(sub.id, { cancel_at_period_end: true })
    const b = sim.fork()
    const bInvoices = (await clientOf(b).invoices.list({ customer: customer.id })).data.map((i) => [i.id, i.status])
    expect(bInvoices).toEqual(before)
    const bSub = await clientOf(b).subscriptions.retrieve(sub.id)
    expect(bSub.cancel_at_period_end).toBe(false)
    await b.clock.tickAsync(32 * DAY)
    const c = sim.fork()
    await clientOf(c).invoices.list({ customer: customer.id })
    await clientOf(c).subscriptions.retrieve(sub.id)
    await c.clock.tickAsync(32 * DAY)
    expect(b.trace.hash()).toBe(c.trace.hash())
    const aInvoices = (await clientOf(a).invoices.list({ customer: customer.id })).data
    expect(aInvoices).toHaveLength(2)
    const again = createSimulator({ from: sim.snapshot() })
    await clientOf(again).invoices.list({ customer: customer.id })
    await clientOf(again).subscriptions.retrieve(sub.id)
    await again.clock.tickAsync(32 * DAY)
    expect(again.trace.hash()).toBe(c.trace.hash())
  })
})

describe('test clocks in forks of a kept capture and forks of forks', () => {
  it('advances a test clock in one fork without moving it in the next fork or a fork of a fork', async () => {
    const { keepForForks } = await import('../../src/simulator/create-simulator.js')
    const { sim, stripe } = billingClient({ seed: 904 })
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: Math.floor(sim.clock.now / 1000) })
    const { customer } = await payingCustomer(stripe, 'pm_card_visa', { test_clock: clock.id })
    const { price } = await monthlyPrice(stripe, 700)
    await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    keepForForks(sim)
    const advance = async (s: Simulator) => {
      await clientOf(s).testHelpers.testClocks.advance(clock.id, { frozen_time: clock.frozen_time + 35 * 86_400 })
      await s.clock.tickAsync(DAY)
      return (await clientOf(s).invoices.list({ customer: customer.id })).data.map((i) => [i.id, i.status])
    }
    const a = sim.fork()
    const first = await advance(a)
    expect(first).toHaveLength(2)
    const b = sim.fork()
    const ab = a.fork()
    expect((await clientOf(ab).testHelpers.testClocks.retrieve(clock.id)).frozen_time).toBe(clock.frozen_time + 35 * 86_400)
    expect(await advance(b)).toEqual(first)
    expect(b.trace.hash()).toBe(a.trace.hash())
    const ba = b.fork()
    await ba.clock.tickAsync(40 * DAY)
    const abInvoices = (await clientOf(ab).invoices.list({ customer: customer.id })).data
    expect(abInvoices).toHaveLength(2)
  })
})

describe("an invoice's own payment intent succeeding first builds billing", () => {
  it('activates a default_incomplete subscription in a loaded snapshot and a fork as in the original', async () => {
    const { sim, stripe } = billingClient({ seed: 905 })
    const { price } = await monthlyPrice(stripe, 500)
    const customer = await stripe.customers.create({ email: 'jenny@example.test' })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      expand: ['latest_invoice.confirmation_secret'],
    })
    const secret = (sub.latest_invoice as Stripe.Invoice).confirmation_secret?.client_secret ?? ''
    const piId = secret.split('_secret_')[0] ?? ''
    const loaded = createSimulator({ from: sim.snapshot() })
    const forked = sim.fork()
    const states = []
    for (const s of [sim, loaded, forked]) {
      await clientOf(s).paymentIntents.confirm(piId, { payment_method: 'pm_card_visa' })
      await s.settle()
      const after = await clientOf(s).subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] })
      states.push([after.status, (after.latest_invoice as Stripe.Invoice).status])
    }
    expect(states[0]).toEqual(['active', 'paid'])
    expect(states[1]).toEqual(states[0])
    expect(states[2]).toEqual(states[0])
    expect(loaded.trace.hash()).toBe(sim.trace.hash())
    expect(forked.trace.hash()).toBe(sim.trace.hash())
  })
})
