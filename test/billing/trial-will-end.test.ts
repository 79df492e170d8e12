import { describe, expect, it } from 'vitest'
import { billingClient, DAY, monthlyPrice, payingCustomer } from './helpers.js'

/** The trial_will_end events of the run so far: subscription id, its trial end and when sent (ms). */
function notices(sim: ReturnType<typeof billingClient>['sim']) {
  return sim.admin
    .events()
    .filter((e) => e.type === 'customer.subscription.trial_will_end')
    .map((e) => {
      const sub = (e.body.data as { object: { id: string; trial_end: number; status: string } }).object
      return { sub: sub.id, trialEnd: sub.trial_end, status: sub.status, at: Number(e.body.created) * 1000 }
    })
}

async function trialing(days: number) {
  const b = billingClient()
  const { customer } = await payingCustomer(b.stripe)
  const { price } = await monthlyPrice(b.stripe, 1500)
  const sub = await b.stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: price.id }],
    trial_period_days: days,
  })
  await b.sim.settle()
  return { ...b, sub }
}

describe('customer.subscription.trial_will_end', () => {
  it('is sent three days before a trial ends, once, with the trialing subscription', async () => {
    const { sim, sub } = await trialing(14)
    expect(notices(sim)).toEqual([])
    const start = sim.clock.now
    await sim.clock.tickAsync(11 * DAY - 1000)
    await sim.settle()
    expect(notices(sim)).toEqual([])
    await sim.clock.tickAsync(2000)
    await sim.settle()
    expect(notices(sim)).toEqual([{ sub: sub.id, trialEnd: sub.trial_end, status: 'trialing', at: start + 11 * DAY }])
    await sim.clock.tickAsync(5 * DAY)
    await sim.settle()
    expect(notices(sim)).toHaveLength(1)
  })

  it('is sent at once for a trial shorter than three days', async () => {
    const { sim, sub } = await trialing(2)
    expect(notices(sim).map((n) => n.sub)).toEqual([sub.id])
  })

  it('is sent when a trial is ended at once (trial_end=now), and the old notice never comes', async () => {
    const { sim, stripe, sub } = await trialing(14)
    await stripe.subscriptions.update(sub.id, { trial_end: 'now' })
    await sim.settle()
    expect(notices(sim)).toEqual([expect.objectContaining({ sub: sub.id, status: 'trialing' })])
    await sim.clock.tickAsync(20 * DAY)
    await sim.settle()
    expect(notices(sim)).toHaveLength(1)
  })

  it('follows a trial moved later: sent three days before the new end only', async () => {
    const { sim, stripe, sub } = await trialing(14)
    const later = sub.trial_end ? sub.trial_end + 10 * 86_400 : 0
    await stripe.subscriptions.update(sub.id, { trial_end: later })
    await sim.clock.tickAsync(12 * DAY)
    await sim.settle()
    expect(notices(sim)).toEqual([])
    await sim.clock.tickAsync(10 * DAY)
    await sim.settle()
    expect(notices(sim)).toEqual([expect.objectContaining({ sub: sub.id, trialEnd: later })])
  })
})
