import { describe, expect, it } from 'vitest'
import { billingClient, DAY, monthlyPrice } from './helpers.js'

describe('quotes on a test clock', () => {
  it("expire when their customer's test clock passes expires_at, not the simulator's clock", async () => {
    const { stripe, sim } = billingClient({ seed: 451 })
    const now = Math.floor(sim.clock.now / 1000)
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: now })
    const customer = await stripe.customers.create({ email: 'q@example.com', test_clock: clock.id })
    const { price } = await monthlyPrice(stripe, 1000)
    const quote = await stripe.quotes.create({ customer: customer.id, line_items: [{ price: price.id }] })
    const open = await stripe.quotes.finalizeQuote(quote.id, { expires_at: now + 2 * 24 * 3600 })
    // The simulator's clock moving does not expire it: the customer's time is the test clock's.
    await sim.clock.tickAsync(3 * DAY)
    expect((await stripe.quotes.retrieve(quote.id)).status).toBe('open')
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: now + 2 * 24 * 3600 })
    await sim.settle()
    const expired = await stripe.quotes.retrieve(quote.id)
    expect([expired.status, expired.status_transitions.canceled_at]).toEqual(['canceled', open.expires_at])
    expect(sim.admin.events({ type: 'quote.canceled' }).map((e) => e.objectId)).toEqual([quote.id])
  })
})
