import { describe, expect, it } from 'vitest'
import { stateOf } from '../accounts/helpers.js'
import { billingClient, caught, DAY, HOUR, monthlyPrice, payingCustomer } from './helpers.js'

async function activeSubscription(stripe: ReturnType<typeof billingClient>['stripe']) {
  const { customer } = await payingCustomer(stripe)
  const { price } = await monthlyPrice(stripe, 1000)
  const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
  return { customer, price, sub }
}

describe('subscriptions.pause and resume', () => {
  it('pauses billing, then resumes with a new period invoiced and paid from now', async () => {
    const { sim, stripe } = billingClient({ seed: 421 })
    const { customer, sub } = await activeSubscription(stripe)
    expect(sub.status).toBe('active')
    // Nothing billed for the pause itself (the defaults credit the unused time: see pause-billing tests).
    const paused = await stripe.subscriptions.pause(sub.id, {
      bill_for: { outstanding_usage_through: { type: 'none' }, unused_time_from: { type: 'none' } },
    })
    expect(paused.status).toBe('paused')
    expect(paused.status_details?.paused).toMatchObject({ type: 'subscription', subscription: { type: 'pause_requested' } })
    expect(sim.admin.events({ type: 'customer.subscription.paused' })).toHaveLength(1)
    // Paused: the period end passes without a new invoice.
    await sim.clock.tickAsync(40 * DAY)
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1)
    const resumed = await stripe.subscriptions.resume(sub.id)
    expect(resumed.status).toBe('active')
    expect(resumed.billing_cycle_anchor).toBe(Math.floor(sim.clock.now / 1000))
    expect(resumed.status_details?.paused).toBeUndefined()
    expect(sim.admin.events({ type: 'customer.subscription.resumed' })).toHaveLength(1)
    await sim.clock.tickAsync(2 * HOUR)
    const invoices = (await stripe.invoices.list({ customer: customer.id })).data
    expect(invoices).toHaveLength(2)
    expect(invoices[0]).toMatchObject({ status: 'paid', amount_paid: 1000, billing_reason: 'subscription_cycle' })
    expect(resumed.items.data[0]?.current_period_start).toBe(Math.floor((sim.clock.now - 2 * HOUR) / 1000))
  })

  it('resumes on the unchanged anchor without billing the periods passed while paused', async () => {
    const { sim, stripe } = billingClient({ seed: 422 })
    const { customer, sub } = await activeSubscription(stripe)
    await stripe.subscriptions.pause(sub.id)
    await sim.clock.tickAsync(45 * DAY)
    const resumed = await stripe.subscriptions.resume(sub.id, { billing_cycle_anchor: { type: 'unchanged' } })
    expect(resumed.status).toBe('active')
    expect(resumed.billing_cycle_anchor).toBe(sub.billing_cycle_anchor)
    const item = resumed.items.data[0]
    expect(item?.current_period_start).toBeLessThanOrEqual(Math.floor(sim.clock.now / 1000))
    expect(item?.current_period_end).toBeGreaterThan(Math.floor(sim.clock.now / 1000))
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1)
    // The cycle goes on: the next period end invoices again.
    await sim.clock.tickAsync((item?.current_period_end ?? 0) * 1000 - sim.clock.now + 2 * HOUR)
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(2)
  })

  it('refuses to resume an active subscription or pause a canceled one, changing nothing', async () => {
    const { sim, stripe } = billingClient({ seed: 423 })
    const { sub } = await activeSubscription(stripe)
    const before = stateOf(sim)
    const resume = await caught(stripe.subscriptions.resume(sub.id))
    expect([resume.statusCode, resume.code]).toEqual([400, 'subscription_unexpected_state'])
    expect(resume.message).toContain('not paused')
    expect(stateOf(sim)).toBe(before)
    await stripe.subscriptions.cancel(sub.id)
    const after = stateOf(sim)
    const pause = await caught(stripe.subscriptions.pause(sub.id))
    expect([pause.statusCode, pause.code]).toEqual([400, 'subscription_unexpected_state'])
    expect(stateOf(sim)).toBe(after)
    const missing = await caught(stripe.subscriptions.pause('sub_missing'))
    expect([missing.statusCode, missing.code]).toEqual([404, 'resource_missing'])
  })
})

describe('subscriptions.migrate', () => {
  it('moves a subscription to the flexible billing mode once', async () => {
    const { sim, stripe } = billingClient({ seed: 424 })
    const { sub } = await activeSubscription(stripe)
    expect(sub.billing_mode).toEqual({ type: 'classic', flexible: null })
    const migrated = await stripe.subscriptions.migrate(sub.id, {
      billing_mode: { type: 'flexible', flexible: { proration_discounts: 'itemized' } },
    })
    expect(migrated.billing_mode).toEqual({
      type: 'flexible',
      flexible: { proration_discounts: 'itemized' },
      updated_at: Math.floor(sim.clock.now / 1000),
    })
    const before = stateOf(sim)
    const again = await caught(stripe.subscriptions.migrate(sub.id, { billing_mode: { type: 'flexible' } }))
    expect([again.statusCode, again.code]).toEqual([400, 'subscription_unexpected_state'])
    expect(again.message).toContain('already uses the flexible billing mode')
    expect(stateOf(sim)).toBe(before)
  })
})

describe('deleteDiscount', () => {
  it("removes a subscription's discount: the deleted discount, customer.discount.deleted, no discount on the next invoice", async () => {
    const { sim, stripe } = billingClient({ seed: 425 })
    const { customer } = await payingCustomer(stripe)
    const { price } = await monthlyPrice(stripe, 1000)
    const coupon = await stripe.coupons.create({ percent_off: 20, duration: 'forever' })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      discounts: [{ coupon: coupon.id }],
    })
    const deleted = await stripe.subscriptions.deleteDiscount(sub.id)
    expect(deleted).toMatchObject({ object: 'discount', deleted: true, subscription: sub.id, customer: customer.id })
    expect(deleted.source.coupon).toMatchObject({ id: coupon.id })
    expect(sim.admin.events({ type: 'customer.discount.deleted' })).toHaveLength(1)
    expect((await stripe.subscriptions.retrieve(sub.id)).discounts).toEqual([])
    await sim.clock.tickAsync(32 * DAY)
    const [next] = (await stripe.invoices.list({ customer: customer.id })).data
    expect(next?.amount_due).toBe(1000)
    const before = stateOf(sim)
    const again = await caught(stripe.subscriptions.deleteDiscount(sub.id))
    expect([again.statusCode, again.code]).toEqual([404, 'resource_missing'])
    expect(stateOf(sim)).toBe(before)
  })

  it('refuses to remove the discount of a customer that has none, changing nothing', async () => {
    const { sim, stripe } = billingClient({ seed: 426 })
    const customer = await stripe.customers.create({ email: 'a@example.com' })
    const before = stateOf(sim)
    const e = await caught(stripe.customers.deleteDiscount(customer.id))
    expect([e.statusCode, e.code]).toEqual([404, 'resource_missing'])
    expect(e.message).toContain('has no discount')
    expect(stateOf(sim)).toBe(before)
  })
})
