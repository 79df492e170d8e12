import qs from 'qs'
import Stripe from 'stripe'
import { createSimulator, type Simulator } from '../../src/index.js'

/** A simulator with the `Stripe` prefix, limits off, and an official client on the platform test key. */
export function setup(seed = 7): { sim: Simulator; stripe: Stripe; key: string } {
  const sim = createSimulator({ seed, headerPrefix: 'Stripe', limits: false })
  const key = sim.platform.secretKey.test
  const stripe = new Stripe(key, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })
  return { sim, stripe, key }
}

/** The client method an operation name denotes (`v2.billing.meterEvents.create`), bound to its resource. */
export function methodOf(stripe: Stripe, name: string): ((...args: unknown[]) => Promise<unknown>) | undefined {
  const parts = name.split('.')
  let at: any = stripe
  for (const p of parts.slice(0, -1)) at = at?.[p]
  const fn = at?.[parts[parts.length - 1] as string]
  return typeof fn === 'function' ? fn.bind(at) : undefined
}

/**
 * A raw call through `sim.fetch`: a `/v1` body form-encoded as the official client encodes it
 * (nested keys, indexed arrays), a `/v2` body as JSON.
 */
export async function call(
  sim: Simulator,
  key: string,
  method: string,
  path: string,
  body?: Record<string, unknown>,
): Promise<{ status: number; body: any }> {
  const json = path.startsWith('/v2/')
  const res = await sim.fetch(`https://api.stripe.com${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(body ? { 'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded' } : {}),
    },
    ...(body ? { body: json ? JSON.stringify(body) : qs.stringify(body, { arrayFormat: 'indices' }) } : {}),
  })
  return { status: res.status, body: await res.json() }
}
