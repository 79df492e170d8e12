import fc from 'fast-check'
import { createSimulator } from 'service-sim'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createCustomerMirror } from './customer-mirror.js'

const URL = 'https://shop.example.test/webhooks'

type Op =
  | { kind: 'create'; email: string }
  | { kind: 'update'; target: number; email: string }
  | { kind: 'delete'; target: number }
  | { kind: 'resend'; event: number }

const email = fc.constantFrom('a@example.com', 'b@example.com', 'c@example.com')
const ops = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('create' as const), email }),
    fc.record({ kind: fc.constant('update' as const), target: fc.nat(), email }),
    fc.record({ kind: fc.constant('delete' as const), target: fc.nat() }),
    fc.record({ kind: fc.constant('resend' as const), event: fc.nat() }),
  ),
  { minLength: 1, maxLength: 12 },
)

/** Runs the operations against a fresh simulator; true when the mirror matches the API at the end. */
async function mirrorConverges(seed: number, steps: Op[], trustSnapshots: boolean): Promise<boolean> {
  const sim = createSimulator({ seed, headerPrefix: 'Stripe', limits: false })
  const stripe = new Stripe(sim.platform.secretKey.test, {
    httpClient: Stripe.createFetchHttpClient(sim.fetch),
    maxNetworkRetries: 0,
  })
  const dest = await stripe.v2.core.eventDestinations.create({
    name: 'mirror',
    type: 'webhook_endpoint',
    event_payload: 'snapshot',
    enabled_events: ['customer.created', 'customer.updated', 'customer.deleted'],
    webhook_endpoint: { url: URL },
  })
  const mirror = createCustomerMirror(stripe, { trustSnapshots })
  sim.receivers.mount(URL, mirror.handler)
  const live: string[] = []
  for (const step of steps) {
    if (step.kind === 'create') live.push((await stripe.customers.create({ email: step.email })).id)
    else if (step.kind === 'update' && live.length > 0)
      await stripe.customers.update(live[step.target % live.length]!, { email: step.email })
    else if (step.kind === 'delete' && live.length > 0) await stripe.customers.del(live.splice(step.target % live.length, 1)[0]!)
    else if (step.kind === 'resend') {
      // A late duplicate of an old event: what a manual resend or a slow retry produces.
      await sim.settle()
      const events = sim.admin.events({ kind: 'snapshot' }).filter((e) => e.type.startsWith('customer.'))
      if (events.length > 0) await sim.admin.resend(events[step.event % events.length]!.id, dest.id)
    }
    await sim.settle()
  }
  const truth = new Map<string, string | null>()
  for (const c of await stripe.customers.list({ limit: 100 }).autoPagingToArray({ limit: 1000 })) truth.set(c.id, c.email)
  return JSON.stringify([...mirror.customers].sort()) === JSON.stringify([...truth].sort())
}

describe('a webhook-fed customer mirror', () => {
  it('converges to the API state under duplicate and late deliveries', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(1000), ops, async (seed, steps) => {
        expect(await mirrorConverges(seed, steps, false)).toBe(true)
      }),
      { numRuns: 25, seed: 42 },
    )
  })

  it('finds the bug in a mirror that trusts snapshots', async () => {
    const result = await fc.check(
      fc.asyncProperty(fc.nat(1000), ops, async (seed, steps) => mirrorConverges(seed, steps, true)),
      { numRuns: 100, seed: 42 },
    )
    expect(result.failed).toBe(true)
  })
})
