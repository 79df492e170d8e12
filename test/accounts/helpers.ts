import Stripe from 'stripe'
import { createSimulator, type Simulator } from '../../src/index.js'

/** A simulator with the `Stripe` header prefix and an official client on its platform test key. */
export function setup(seed = 1): { sim: Simulator; stripe: Stripe; key: string } {
  // Limits off: these tests are about resources and isolation; a burst at one virtual instant would hit the rate limits.
  const sim = createSimulator({ seed, headerPrefix: 'Stripe', limits: false })
  const key = sim.platform.secretKey.test
  const stripe = new Stripe(key, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })
  return { sim, stripe, key }
}

/** A client on another key (another account or the live mode). */
export function client(sim: Simulator, key: string): Stripe {
  return new Stripe(key, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })
}

/** A form-encoded v1 call through `sim.fetch`; answers status and JSON body. */
export async function form(
  sim: Simulator,
  key: string,
  method: string,
  path: string,
  body?: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await sim.fetch(`https://api.stripe.com${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      ...headers,
    },
    ...(body ? { body: new URLSearchParams(body).toString() } : {}),
  })
  return { status: res.status, body: await res.json(), headers: res.headers }
}

/** A JSON v2 call through `sim.fetch`. */
export async function json(
  sim: Simulator,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const res = await sim.fetch(`https://api.stripe.com${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: await res.json() }
}

/** A digest of everything a refused request must not change. */
export function stateOf(sim: Simulator): string {
  const s = sim.service
  const accounts = s.accounts.list()
  const parts: unknown[] = [s.events.all().length]
  for (const a of accounts) {
    for (const mode of ['test', 'live'] as const) {
      const scope = { account: a.id, mode }
      parts.push(
        s.customers.list(scope).map((c) => JSON.stringify(c)),
        s.paymentIntents.list(scope).map((p) => JSON.stringify(p)),
        s.products.list(scope).map((p) => JSON.stringify(p)),
        s.offSessionPayments.list(scope).map((o) => JSON.stringify(o)),
        s.charges.list(scope).length,
        s.ledger.transactions(scope).length,
      )
    }
  }
  return JSON.stringify(parts)
}

/** `data` of a stored event's body (`undefined` fails the calling assertion). */
export function dataOf(event: { body: Readonly<Record<string, unknown>> } | undefined): any {
  return event?.body.data
}
