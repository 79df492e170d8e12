import Stripe from 'stripe'
import { createSimulator, type Simulator } from '../../src/index.js'

/**
 * A simulator with the `Stripe` header prefix and the official client over its fetch, without the
 * client's own retries (a refusal is seen once).
 */
export function officialClient(seed: number): { sim: Simulator; stripe: Stripe } {
  const sim = createSimulator({ seed, headerPrefix: 'Stripe' })
  const stripe = new Stripe(sim.platform.secretKey.test, {
    httpClient: Stripe.createFetchHttpClient(sim.fetch),
    maxNetworkRetries: 0,
  })
  return { sim, stripe }
}

/** The error a promise rejects with; a promise that resolves fails the test. */
export function caught(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (e: unknown) => e,
  )
}
