import type { Json } from '#domain/index.js'
import { checkSubscriptionMirrorTrace, type MirrorCheckOptions } from '../checkers/subscription-mirror-checker.js'
import { HarnessInputError } from '../validate-input.js'
import type { FlowClientEnv, FlowRun, FlowSubject } from './flow-run.js'
import { mirrorActions } from './mirror-actions.js'
import { type MirroredSubscription, mirrorDifferences, mirroredFields, mirrorState } from './subscription-fields.js'

/**
 * The user's subscription mirror: a webhook `handler` that keeps a local copy of the customers'
 * subscriptions (from the events, and from API reads it may make), the copy itself, and the access
 * gate the app answers from it. The readers may answer a promise (an app's database query, an HTTP
 * endpoint of an app on a port): the harness awaits them after each step has settled.
 *
 * @example
 * const mirror: SubscriptionMirror = { handler: async (req) => new Response('ok'), subscriptions: () => ({}), hasAccess: () => false }
 */
export interface SubscriptionMirror {
  handler(request: Request): Response | Promise<Response>
  /** The mirrored subscriptions by id. */
  subscriptions(): Readonly<Record<string, MirroredSubscription>> | Promise<Readonly<Record<string, MirroredSubscription>>>
  /** Whether the customer may use the product now. */
  hasAccess(customerId: string): boolean | Promise<boolean>
}

/** Builds a subscription mirror for one run. */
export type SubscriptionMirrorFactory = (env: FlowClientEnv) => SubscriptionMirror

/** Start of a subscription's current period (Unix seconds), from its first item where current versions keep it. */
function periodStart(s: Json): number | null {
  const item = ((s.items as { data?: Json[] } | undefined)?.data ?? [])[0]
  const start = item?.current_period_start ?? s.current_period_start
  return typeof start === 'number' ? start : null
}

/** Notes when each subscription turned `past_due` (and forgets it when it leaves), from its events. */
function trackPastDue(run: FlowRun, pastDueSince: Map<string, number>): void {
  run.sim.service.events.subscribe((e) => {
    if (!e.type.startsWith('customer.subscription.') || e.objectId === undefined) return
    const status = (e.body.data as { object?: Json } | undefined)?.object?.status
    if (status !== 'past_due') pastDueSince.delete(e.objectId)
    else if (!pastDueSince.has(e.objectId)) pastDueSince.set(e.objectId, e.at)
  })
}

/**
 * Traces the mirror beside the provider for settled subscriptions: every one at the end, between
 * steps only one the mirror holds wrongly.
 */
function compareMirror(
  run: FlowRun,
  settled: readonly Json[],
  copy: Readonly<Record<string, MirroredSubscription>>,
  final: boolean,
): void {
  for (const s of settled) {
    const id = String(s.id)
    const provider = mirroredFields(s)
    const mirrored = copy[id] ?? null
    if (!final && mirrored !== null && mirrorDifferences(mirrored, provider).length === 0) continue
    run.sim.service.kernel.trace.append('harness.mirror.subscription', { id, provider, mirror: mirrored })
  }
}

/**
 * The subscription mirror property as a billing flow subject: after each step it asks `hasAccess`
 * of every customer whose subscription events the mirror has all accepted, beside the customer's
 * subscriptions then (status, since when `past_due`, cancelling at period end, period start), which
 * the access policy judges (`harness.mirror.access`); at the end it sets each such subscription of
 * the mirror beside the provider's (`harness.mirror.subscription`).
 *
 * @example
 * const report = await runFlow(program, mirrorSubject(referenceSubscriptionMirror, {}, 'checkSubscriptionMirror'))
 */
export function mirrorSubject(factory: SubscriptionMirrorFactory, options: MirrorCheckOptions, api: string): FlowSubject {
  let mirror: SubscriptionMirror | undefined
  const pastDueSince = new Map<string, number>()
  return {
    actions: mirrorActions,
    start(run) {
      trackPastDue(run, pastDueSince)
      const made = factory(run.env) as Partial<SubscriptionMirror> | undefined
      if (typeof made?.handler !== 'function' || typeof made.subscriptions !== 'function' || typeof made.hasAccess !== 'function')
        throw new HarnessInputError(`${api}: mirror factory must return { handler, subscriptions, hasAccess }`)
      mirror = made as SubscriptionMirror
      return mirror
    },
    checkpoint(run, final) {
      if (mirror === undefined) return
      const app = mirror
      const scope = { account: run.sim.platform.id, mode: 'test' as const }
      const all = run.sim.service.engine.resource('subscription').list(scope) as Json[]
      const trace = run.sim.service.kernel.trace
      // Only what the client could know: a subscription whose latest event it accepted.
      const settled = (id: string) => {
        const last = run.latest.get(id)
        return last === undefined || run.acked.has(last)
      }
      const asked = run.setup.customers
        .map((customer) => ({ customer, subs: all.filter((s) => s.customer === customer) }))
        .filter(({ subs }) => subs.every((s) => settled(String(s.id))))
      const granted = asked.map(({ customer }) => app.hasAccess(customer))
      const record = (answers: readonly unknown[]) =>
        asked.forEach(({ customer, subs }, i) => {
          trace.append('harness.mirror.access', {
            customer,
            at: run.sim.clock.now,
            granted: answers[i] === true,
            subscriptions: subs.map((s) => ({
              id: String(s.id),
              status: String(s.status),
              since: s.status === 'past_due' ? (pastDueSince.get(String(s.id)) ?? run.sim.clock.now) : null,
              cancelAtPeriodEnd: s.cancel_at_period_end === true,
              periodStart: periodStart(s),
            })),
          })
        })
      // At the end every settled subscription is compared; between steps only one the mirror holds
      // wrongly is recorded (a stale write the next event would mend is still a wrong mirror), so
      // a correct app's trace is the same as with the comparison at the end alone.
      const compare = (copy: Readonly<Record<string, MirroredSubscription>>) =>
        compareMirror(
          run,
          all.filter((s) => settled(String(s.id)) && run.latest.get(String(s.id)) !== undefined),
          copy,
          final,
        )
      // Readers that answer at once are read at once: no await, so the run's trace is as it was.
      if (!granted.some((g) => g instanceof Promise)) {
        record(granted)
        const copy = app.subscriptions()
        return copy instanceof Promise ? copy.then(compare) : compare(copy)
      }
      return Promise.all(granted).then(async (answers) => {
        record(answers)
        compare(await app.subscriptions())
      })
    },
    check: (entries) => checkSubscriptionMirrorTrace(entries, options),
    // What the mirror holds for a subscription, read around a forged delivery about it: every
    // mirrored field, so an old replay that flips only one of them is seen taken.
    statusOf(_run, id) {
      if (mirror === undefined) return undefined
      const state = (c: Readonly<Record<string, MirroredSubscription>>) => {
        const row = c[id]
        return row === undefined ? null : mirrorState(row)
      }
      const copy = mirror.subscriptions()
      return copy instanceof Promise ? copy.then(state) : state(copy)
    },
    stateOf: (object) => mirrorState(mirroredFields(object as Json)),
  }
}
