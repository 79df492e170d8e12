import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { servedAdmin } from './served-admin.js'

const TOKEN = 'schedule-routes-suite'

describe("the clock, the pending work and the trigger recipes through serve's admin API, as the Clock page uses them", () => {
  const sim = createSimulator({ seed: 45, headerPrefix: 'Stripe', limits: false })
  const served = servedAdmin(sim, TOKEN)
  const admin = served.admin

  it('lists the pending work in the order it falls due, the earliest first, as many as asked', async () => {
    await served.stripe.webhookEndpoints.create({ url: 'http://127.0.0.1:9/none', enabled_events: ['customer.created'] })
    const customer = await served.stripe.customers.create({ email: 'a@example.com', payment_method: 'pm_card_visa' })
    const price = await served.stripe.prices.create({
      currency: 'usd',
      unit_amount: 900,
      recurring: { interval: 'month' },
      product_data: { name: 'Basic' },
    })
    await served.stripe.subscriptions
      .create({ customer: customer.id, items: [{ price: price.id }], default_payment_method: 'pm_card_visa' })
      .catch(() => undefined)
    const { status, body } = await admin('GET', '/scheduler?limit=500')
    expect(status).toBe(200)
    expect(body.pending).toBeGreaterThan(0)
    const dues = (body.next as { due: string }[]).map((t) => Date.parse(t.due))
    expect(dues).toEqual([...dues].sort((a, b) => a - b))
    expect(dues[0]).toBe(sim.clock.now)
    expect(body.next.length).toBe(Math.min(body.pending, 500))
    expect((await admin('GET', '/scheduler?limit=0')).status).toBe(400)
  })

  it('moves the clock to a date, running the work due on the way, and refuses a date in the past', async () => {
    const target = sim.clock.now + 3 * 86_400_000
    const moved = await admin('POST', '/clock/advance_to', { to: new Date(target).toISOString() })
    expect(moved.status).toBe(200)
    expect(Date.parse(moved.body.now)).toBe(target)
    expect(sim.clock.now).toBe(target)
    const due = (await admin('GET', '/scheduler')).body.next as { due: string }[]
    expect(due.every((t) => Date.parse(t.due) >= target)).toBe(true)
    const back = await admin('POST', '/clock/advance_to', { to: '2020-01-01T00:00:00Z' })
    expect(back.status).toBe(400)
    expect(back.body.error.message).toContain('time only moves forward')
    expect((await admin('POST', '/clock/advance_to', { to: 'soon' })).status).toBe(400)
  })

  it("lists the trigger recipes the CLI lists, and advances a test clock by a duration through the API's advance", async () => {
    const recipes = (await admin('GET', '/triggers')).body.data as string[]
    expect(recipes).toContain('payment_intent.succeeded')
    const clock = await served.stripe.testHelpers.testClocks.create({
      frozen_time: Math.floor(sim.clock.now / 1000),
      name: 'Trial',
    })
    const listed = (await admin('GET', '/test_clocks')).body.data
    expect(listed).toEqual([expect.objectContaining({ id: clock.id, name: 'Trial', account: sim.platform.id })])
    const moved = await admin('POST', `/test_clocks/${clock.id}/advance`, { duration: '30d' })
    expect(moved.status).toBe(200)
    const after = await served.stripe.testHelpers.testClocks.retrieve(clock.id)
    expect(after.frozen_time).toBe(clock.frozen_time + 30 * 86_400)
    expect((await admin('POST', `/test_clocks/${clock.id}/advance`, { to: '2020-01-01T00:00:00Z' })).status).toBe(400)
    expect((await admin('POST', '/test_clocks/clock_nope123/advance', { duration: '1d' })).status).toBe(404)
  })
})
