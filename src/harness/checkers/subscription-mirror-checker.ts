import type { TraceEntry } from '#kernel/index.js'
import type { MirroredSubscription } from '../flows/subscription-fields.js'
import { traceChecker } from './checker.js'
import { type Violation, violation } from './violation.js'

/** Options of the subscription mirror checks. */
export interface MirrorCheckOptions {
  /**
   * How long after a subscription turned `past_due` the client may still grant access (a grace
   * period). Default 0: a `past_due` subscription entitles to nothing. Access is never required for it.
   */
  readonly pastDueGraceMs?: number
}

interface AccessData {
  readonly customer: string
  readonly at: number
  readonly granted: boolean
  /** The customer has an `active` or `trialing` subscription. */
  readonly entitled: boolean
  /** Its `past_due` subscriptions and since when (virtual ms). */
  readonly pastDue: readonly { readonly id: string; readonly since: number }[]
}

interface CompareData {
  readonly id: string
  readonly provider: MirroredSubscription
  readonly mirror: MirroredSubscription | null
}

const FIELDS: readonly (keyof MirroredSubscription)[] = ['status', 'price', 'quantity', 'currentPeriodEnd', 'cancelAtPeriodEnd']

/**
 * Judges a subscription mirror over its run's trace: `harness.mirror.access` entries (the client's
 * `hasAccess` answer for a customer whose subscription events it has all accepted, and what the
 * provider's objects entitle) and `harness.mirror.subscription` entries (the mirror beside the
 * provider's object once the deliveries settled).
 *
 * - `mirror.converged`: the mirror equals the provider's object (status, price, quantity, current
 *   period end, cancel at period end).
 * - `mirror.access_granted`: access granted with no active or trialing subscription (past a
 *   `past_due` grace).
 * - `mirror.access_withheld`: access refused with an active or trialing subscription.
 *
 * @example
 * checkSubscriptionMirrorTrace(sim.trace.entries(), { pastDueGraceMs: 3 * 86_400_000 }) // []
 */
export function checkSubscriptionMirrorTrace(entries: readonly TraceEntry[], options: MirrorCheckOptions = {}): Violation[] {
  const grace = options.pastDueGraceMs ?? 0
  const out: Violation[] = []
  const reported = new Set<string>()
  const once = (key: string, v: Violation) => {
    if (reported.has(key)) return
    reported.add(key)
    out.push(v)
  }
  for (const e of entries) {
    if (e.kind === 'harness.mirror.access') {
      const a = e.data as unknown as AccessData
      if (a.granted && !a.entitled && !a.pastDue.some((p) => a.at - p.since < grace)) {
        once(
          `granted:${a.customer}`,
          violation('mirror.access_granted', `${a.customer} was granted access with no active or trialing subscription`, [e]),
        )
      }
      if (!a.granted && a.entitled) {
        once(
          `withheld:${a.customer}`,
          violation('mirror.access_withheld', `${a.customer} was refused access with an active or trialing subscription`, [e]),
        )
      }
    } else if (e.kind === 'harness.mirror.subscription') {
      const c = e.data as unknown as CompareData
      if (c.mirror === null) {
        once(`converged:${c.id}`, violation('mirror.converged', `${c.id} is missing from the mirror`, [e]))
        continue
      }
      const wrong = FIELDS.filter((f) => c.mirror?.[f] !== c.provider[f])
      if (wrong.length > 0) {
        const what = wrong
          .map((f) => `${f} ${JSON.stringify(c.mirror?.[f])} (provider: ${JSON.stringify(c.provider[f])})`)
          .join(', ')
        once(`converged:${c.id}`, violation('mirror.converged', `${c.id} mirrored with ${what}`, [e]))
      }
    }
  }
  return out
}

/**
 * `subscription-mirror`: the checker form (default options) for scenarios and `checkerRegistry`.
 *
 * @example
 * subscriptionMirrorChecker.check({ entries, requests: [], deliveries: [] })
 */
export const subscriptionMirrorChecker = traceChecker(
  'subscription-mirror',
  (entries) => checkSubscriptionMirrorTrace(entries),
  'the mirror equals the provider and access follows entitlement',
)
