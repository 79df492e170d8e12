import { describe, expect, it } from 'vitest'
import { billingClient, caught, DAY, monthlyPrice, payingCustomer } from './helpers.js'

const T0 = Date.UTC(2026, 0, 31) / 1000
const FEB28 = Date.UTC(2026, 1, 28) / 1000
const MAR31 = Date.UTC(2026, 2, 31) / 1000
const APR28 = Date.UTC(2026, 3, 28) / 1000 // two months from Feb 28 keep its day

const scheduleEvents = (sim: { admin: { events(): { type: string }[] } }) =>
  sim.admin
    .events()
    .map((e) => e.type)
    .filter((t) => t.startsWith('subscription_schedule.'))

describe('subscription schedules (official client, prefix Stripe)', () => {
  it('starts now with its subscription, moves it to the next phase at the boundary, and releases it at the end', async () => {
    const { sim, stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const { price: basic } = await monthlyPrice(stripe, 1000, 'Basic')
    const { price: pro } = await monthlyPrice(stripe, 3000, 'Pro')
    const schedule = await stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: 'now',
      end_behavior: 'release',
      phases: [
        { items: [{ price: basic.id, quantity: 1 }], duration: { interval: 'month', interval_count: 1 } },
        { items: [{ price: pro.id, quantity: 2 }], end_date: MAR31 },
      ],
    })
    expect(schedule).toMatchObject({
      object: 'subscription_schedule',
      status: 'active',
      current_phase: { start_date: T0, end_date: FEB28 },
    })
    expect(schedule.phases.map((p) => [p.start_date, p.end_date])).toEqual([
      [T0, FEB28],
      [FEB28, MAR31],
    ])
    const subId = schedule.subscription as string
    const sub = await stripe.subscriptions.retrieve(subId)
    expect(sub).toMatchObject({ status: 'active', schedule: schedule.id })
    expect(sub.items.data.map((i) => i.price.id)).toEqual([basic.id])

    // Phase 2 at Feb 28: the subscription's next period is billed at the new terms.
    await sim.clock.tickAsync((FEB28 - T0) * 1000 + 2 * 3_600_000)
    const moved = await stripe.subscriptions.retrieve(subId)
    expect(moved.items.data.map((i) => [i.price.id, i.quantity])).toEqual([[pro.id, 2]])
    const [cycle] = (await stripe.invoices.list({ subscription: subId, limit: 1 })).data
    expect(cycle).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_paid: 6000 })
    expect((await stripe.subscriptionSchedules.retrieve(schedule.id)).current_phase).toEqual({
      start_date: FEB28,
      end_date: MAR31,
    })

    // The last phase ends: released, the subscription runs on.
    await sim.clock.tickAsync((MAR31 - FEB28) * 1000)
    const released = await stripe.subscriptionSchedules.retrieve(schedule.id)
    expect(released).toMatchObject({ status: 'released', subscription: null, released_subscription: subId, current_phase: null })
    expect(await stripe.subscriptions.retrieve(subId)).toMatchObject({ status: 'active', schedule: null })
    expect(scheduleEvents(sim)).toEqual([
      'subscription_schedule.created',
      'subscription_schedule.updated',
      'subscription_schedule.released',
    ])
  })

  it('starts later on a test clock, creating the subscription then, and cancels it at the end with end_behavior cancel', async () => {
    const { sim, stripe } = billingClient()
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: T0 })
    const { customer } = await payingCustomer(stripe, 'pm_card_visa', { test_clock: clock.id })
    const { price } = await monthlyPrice(stripe, 1500)
    const start = T0 + 10 * 86_400
    const schedule = await stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: start,
      end_behavior: 'cancel',
      phases: [{ items: [{ price: price.id }], duration: { interval: 'month', interval_count: 1 } }],
    })
    expect(schedule).toMatchObject({ status: 'not_started', subscription: null, test_clock: clock.id })
    const advance = async (frozen_time: number) => {
      await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time })
      await sim.settle()
      let status = 'advancing'
      while (status !== 'ready') status = (await stripe.testHelpers.testClocks.retrieve(clock.id)).status
    }
    await advance(start + 3600)
    const started = await stripe.subscriptionSchedules.retrieve(schedule.id)
    expect(started.status).toBe('active')
    const sub = await stripe.subscriptions.retrieve(started.subscription as string)
    expect(sub).toMatchObject({ status: 'active', start_date: start, test_clock: clock.id })
    const end = started.phases[0]?.end_date as number
    await advance(end + 60)
    expect(await stripe.subscriptionSchedules.retrieve(schedule.id)).toMatchObject({ status: 'canceled' })
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('canceled')
    expect(scheduleEvents(sim)).toEqual([
      'subscription_schedule.created',
      'subscription_schedule.updated',
      'subscription_schedule.canceled',
    ])
  })

  it('adopts a running subscription, updates its phases, and releases or cancels on request', async () => {
    const { sim, stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const { price: basic } = await monthlyPrice(stripe, 1000, 'Basic')
    const { price: pro } = await monthlyPrice(stripe, 3000, 'Pro')
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: basic.id }] })
    const schedule = await stripe.subscriptionSchedules.create({ from_subscription: sub.id })
    expect(schedule).toMatchObject({ status: 'active', subscription: sub.id, current_phase: { start_date: T0, end_date: FEB28 } })
    expect((await stripe.subscriptions.retrieve(sub.id)).schedule).toBe(schedule.id)
    const again = await caught(stripe.subscriptionSchedules.create({ from_subscription: sub.id }))
    expect(again).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'from_subscription' })

    const updated = await stripe.subscriptionSchedules.update(schedule.id, {
      phases: [
        { items: [{ price: basic.id }], end_date: FEB28 },
        { items: [{ price: pro.id }], duration: { interval: 'month', interval_count: 2 } },
      ],
      metadata: { plan: 'upgrade' },
    })
    expect(updated.phases.map((p) => [p.start_date, p.end_date])).toEqual([
      [T0, FEB28],
      [FEB28, APR28],
    ])
    expect(updated.metadata).toEqual({ plan: 'upgrade' })
    await sim.clock.tickAsync((FEB28 - T0) * 1000 + DAY)
    expect((await stripe.subscriptions.retrieve(sub.id)).items.data.map((i) => i.price.id)).toEqual([pro.id])

    const released = await stripe.subscriptionSchedules.release(schedule.id)
    expect(released).toMatchObject({ status: 'released', released_subscription: sub.id })
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active')
    const late = await caught(stripe.subscriptionSchedules.cancel(schedule.id))
    expect(late).toMatchObject({ statusCode: 400, code: 'subscription_schedule_unexpected_state' })

    const second = await stripe.subscriptionSchedules.create({ from_subscription: sub.id })
    const canceled = await stripe.subscriptionSchedules.cancel(second.id)
    expect(canceled.status).toBe('canceled')
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('canceled')
    const list = await stripe.subscriptionSchedules.list({ customer: customer.id })
    expect(list.data.map((s) => s.id)).toEqual([second.id, schedule.id])
  })

  it('refuses bad schedules with the provider errors, making nothing', async () => {
    const { sim, stripe } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const { price } = await monthlyPrice(stripe, 1000)
    const oneTime = await stripe.prices.create({ product: price.product as string, currency: 'usd', unit_amount: 100 })
    const before = sim.admin.events().length
    const cases = [
      [{ phases: [{ items: [{ price: price.id }] }] }, 'parameter_missing', 'customer'],
      [{ customer: customer.id }, 'parameter_missing', 'phases'],
      [
        { customer: customer.id, phases: [{ items: [{ price: 'price_missing' }] }] },
        'resource_missing',
        'phases[0][items][0][price]',
      ],
      [
        { customer: customer.id, phases: [{ items: [{ price: oneTime.id }] }] },
        'parameter_invalid',
        'phases[0][items][0][price]',
      ],
      [
        { customer: customer.id, start_date: T0 - 86_400, phases: [{ items: [{ price: price.id }] }] },
        'parameter_invalid',
        'start_date',
      ],
      [
        { customer: customer.id, phases: [{ items: [{ price: price.id }], end_date: T0 - 1 }] },
        'parameter_invalid',
        'phases[0][end_date]',
      ],
      [{ from_subscription: 'sub_missing' }, 'resource_missing', 'from_subscription'],
    ] as const
    for (const [params, code, param] of cases) {
      const error = await caught(stripe.subscriptionSchedules.create(params as never))
      expect([error.statusCode, error.code, error.param]).toEqual([400, code, param])
    }
    expect(sim.admin.events().length).toBe(before)
    expect((await stripe.subscriptionSchedules.list()).data).toEqual([])
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([])
    expect((await caught(stripe.subscriptionSchedules.retrieve('sub_sched_missing'))).statusCode).toBe(404)
  })
})
