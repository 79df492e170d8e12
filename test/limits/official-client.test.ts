import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'

function client(sim: Simulator, maxNetworkRetries: number): Stripe {
  return new Stripe(sim.platform.secretKey.test, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries })
}

function httpStatuses(sim: Simulator, path: string): unknown[] {
  return sim.trace
    .filter('http')
    .filter((e) => String(e.data.path).startsWith(path))
    .map((e) => e.data.status)
}

describe('the official client', () => {
  it('surfaces a rate limit as StripeRateLimitError and does not retry it', async () => {
    const sim = createSimulator({ seed: 20, headerPrefix: 'Stripe' })
    const stripe = client(sim, 2)
    for (let i = 0; i < 25; i++) await stripe.balance.retrieve()
    const error = await stripe.balance.retrieve().then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(Stripe.errors.StripeRateLimitError)
    expect((error as Stripe.errors.StripeError).headers?.['stripe-rate-limited-reason']).toBe('endpoint-rate')
    expect(httpStatuses(sim, '/v1/balance')).toEqual([...Array(25).fill(200), 429])
  })

  it('surfaces a v2 rate limit as its rate-limit error', async () => {
    const sim = createSimulator({ seed: 21, headerPrefix: 'Stripe' })
    const stripe = client(sim, 0)
    for (let i = 0; i < 25; i++) await stripe.v2.billing.meterEventSession.create()
    const error = await stripe.v2.billing.meterEventSession.create().then(
      () => undefined,
      (e: unknown) => e,
    )
    expect((error as Stripe.errors.StripeError).statusCode).toBe(429)
    expect((error as Stripe.errors.StripeError).type).toBe('RateLimitError')
  })

  it('retries a lock timeout (Stripe-Should-Retry) until the lock is free', async () => {
    const sim = createSimulator({ seed: 22, headerPrefix: 'Stripe', clock: 'global' })
    try {
      const stripe = client(sim, 3)
      const customer = await stripe.customers.create({ email: 'old@example.com' })
      // Held 2.5 s: the first attempt would wait more than the 2 s lock wait, a retry after the
      // client's backoff (at least 0.5 s) waits less.
      sim.admin.holdLock(customer.id, 2_500)
      let done = false
      const update = stripe.customers.update(customer.id, { email: 'new@example.com' }).finally(() => {
        done = true
      })
      for (let i = 0; i < 100 && !done; i++) await sim.clock.tickAsync(100)
      const updated = await update
      expect(updated.email).toBe('new@example.com')
      expect(httpStatuses(sim, `/v1/customers/${customer.id}`)).toEqual([429, 200])
      const timeout = sim.trace.filter('http').find((e) => e.data.status === 429)
      expect(timeout?.data.request_id).toBeNull()
    } finally {
      sim.clock.uninstall()
    }
  })
})
