import {
  checkSubscriptionMirror,
  checkWebhookReceiver,
  type FlowClientEnv,
  type FlowProgram,
  type MirroredSubscription,
  mirroredFields,
  mirrorSubject,
  mountApp,
  referenceSubscriptionMirror,
  referenceWebhookReceiver,
  runFlow,
  type SubscriptionMirrorFactory,
  type WebhookReceiverFactory,
} from 'service-sim/harness'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'

// A cancellation at period end undone a minute later; the cancellation's delivery is held two hours
// by the network, and the API answers 500 twice when it arrives: the app reads the subscription
// back then, fails, and refuses the late delivery.
const lateUpdateFailedRead: FlowProgram = {
  seed: 0,
  steps: [
    { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
    { kind: 'cancel', sub: -1, atPeriodEnd: true },
    { kind: 'resume', sub: -1 },
    { kind: 'advance', ms: 3 * 3_600_000 },
  ],
  faults: [
    { step: 2, fault: 'reorder_delivery', count: 1, operation: 'customer.subscription.updated', delay: 2 * 3_600_000 },
    { step: 4, fault: 'server_error', count: 2 },
  ],
} as unknown as FlowProgram

/**
 * A mirror that reads each subscription back after verifying, and answers 500 when the read fails;
 * `writesFirst`: it also stores the delivered payload as soon as it arrives, before anything else.
 */
function mirror(writesFirst: boolean) {
  return mountApp((env: FlowClientEnv) => {
    const stripe = new Stripe(env.secretKey, { httpClient: Stripe.createFetchHttpClient(env.fetch), maxNetworkRetries: 0 })
    const table = new Map<string, MirroredSubscription>()
    const store = (object: { id?: string }, type: string) => {
      if (type.startsWith('customer.subscription.') && typeof object.id === 'string')
        table.set(object.id, mirroredFields(object as never))
    }
    return {
      app: async (req: Request) => {
        const raw = await req.text()
        if (writesFirst) {
          const delivered = JSON.parse(raw) as { type: string; data: { object: { id?: string } } }
          store(delivered.data.object, delivered.type)
        }
        let event: Stripe.Event
        try {
          event = stripe.webhooks.constructEvent(
            raw,
            req.headers.get('stripe-signature') ?? '',
            env.secrets()[0] ?? '',
            300,
            undefined,
            env.clock.now,
          )
        } catch {
          return new Response('bad signature', { status: 400 })
        }
        if (!event.type.startsWith('customer.subscription.')) return new Response('ok')
        try {
          const id = (event.data.object as Stripe.Subscription).id
          store(await stripe.subscriptions.retrieve(id), event.type)
        } catch {
          return new Response('read failed', { status: 500 })
        }
        return new Response('ok')
      },
      subscriptions: () => Object.fromEntries(table),
      hasAccess: (customer: string) => [...table.values()].some((s) => s.customer === customer && s.status === 'active'),
    }
  })
}

describe('mirror verdicts', () => {
  it('passes a mirror that stores only what its read returns, though the late delivery is refused', async () => {
    const report = await runFlow(lateUpdateFailedRead, mirrorSubject(mirror(false), {}, 'test'), { headerPrefix: 'Stripe' })
    expect(report.violations).toEqual([])
  })

  it('names the refused delivery when a mirror stored its payload before the read that failed', async () => {
    const report = await runFlow(lateUpdateFailedRead, mirrorSubject(mirror(true), {}, 'test'), { headerPrefix: 'Stripe' })
    const [first] = report.violations
    expect(first?.checker).toBe('mirror.converged')
    expect(first?.message).toMatch(/cancelAtPeriodEnd true \(provider: false\)/)
    expect(first?.message).toMatch(
      /after it refused evt_\w+ \(customer\.subscription\.updated, answered 500 after a failed API read\): a write made before answering a refusal stays/,
    )
  })
})

describe('a counterexample the app does not fail again', () => {
  it('is reported as not reproduced, with what to make deterministic, not as a failure with no reason', async () => {
    // An app that answers wrongly in its first deployment only (state kept between runs).
    let builds = 0
    const flaky: SubscriptionMirrorFactory = (env) => {
      const inner = referenceSubscriptionMirror(env)
      const first = ++builds === 1
      return {
        ...inner,
        hasAccess: async (customer: string) => (first ? !(await inner.hasAccess(customer)) : inner.hasAccess(customer)),
      }
    }
    const result = await checkSubscriptionMirror(flaky, { headerPrefix: 'Stripe', numRuns: 5 })
    expect(result.ok).toBe(false)
    expect(result.violations?.map((v) => v.checker)).toEqual(['flow.not_reproduced'])
    expect(result.violations?.[0]?.message).toMatch(/failed while the property searched, but passed 3 runs of it afterwards/)
  })

  it('is reported the same way by the other properties', async () => {
    let builds = 0
    const flaky: WebhookReceiverFactory = (env) => {
      const inner = referenceWebhookReceiver(env)
      // Its first deployments (the first run's) report every payment intent in a status it never had.
      const wrong = async () => Object.fromEntries(Object.keys(await inner.state()).map((id) => [id, 'canceled']))
      return { ...inner, state: ++builds <= 2 ? wrong : inner.state }
    }
    const result = await checkWebhookReceiver(flaky, { numRuns: 5 })
    expect(result.ok).toBe(false)
    expect(result.violations?.map((v) => v.checker)).toEqual(['harness.not_reproduced'])
  })
})
