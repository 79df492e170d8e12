import { verifySignature } from '#domain/events/delivery/signature.js'
import type { FlowClientEnv } from '../flows/flow-run.js'
import type { SubscriptionMirror, SubscriptionMirrorFactory } from '../flows/mirror-subject.js'
import { ENTITLED_STATUSES, type MirroredSubscription, mirroredFields } from '../flows/subscription-fields.js'

/** Mistakes a subscription mirror can make, each off in the reference. */
export interface SubscriptionMirrorFlaws {
  /** Stores each event's `data.object` as it arrives instead of reading the subscription: a late older update wins. */
  readonly lastDeliveredWins?: boolean
  /** Stores `data.object` when the event's `created` is not older than the stored one's: ties let an older state back. */
  readonly createdTies?: boolean
  /** Ignores `customer.subscription.deleted`. */
  readonly ignoreDeleted?: boolean
  /** Counts a `past_due` subscription as paid for (the payment failure never reaches the gate). */
  readonly pastDueKeepsAccess?: boolean
  /** Applies seat changes as deltas from `previous_attributes`, without deduplicating events. */
  readonly seatDeltas?: boolean
  /** Never stores `cancel_at_period_end`. */
  readonly ignoreCancelAtPeriodEnd?: boolean
  /** Grants access to `active` only, not `trialing`. */
  readonly trialDenied?: boolean
  /** Revokes access as soon as a cancellation at period end is scheduled. */
  readonly revokeAtPeriodEndFlag?: boolean
  /** Copies only `status` from `customer.subscription.updated` (plan, seats and period kept from creation). */
  readonly statusOnly?: boolean
  /** Reads the period end from the subscription's top level, where older API versions kept it. */
  readonly topLevelPeriodEnd?: boolean
}

type Json = Record<string, unknown>
interface Event {
  readonly id: string
  readonly type: string
  readonly created: number
  readonly data: { readonly object: Json; readonly previous_attributes?: Json }
}

function firstQuantity(items: unknown): number | undefined {
  const q = ((items as { data?: Json[] } | undefined)?.data ?? [])[0]?.quantity
  return typeof q === 'number' ? q : undefined
}

/**
 * A subscription mirror with the given flaws (none: the reference). The reference verifies the
 * signature on the raw body, ignores an event it already processed, and on every subscription event
 * reads the subscription from the API and stores that (the latest state, whatever order the events
 * came in); a failed read answers 500 so the delivery comes again. Access: an `active` or
 * `trialing` subscription.
 *
 * @example
 * const noDeleted = makeSubscriptionMirror({ ignoreDeleted: true })
 */
export function makeSubscriptionMirror(flaws: SubscriptionMirrorFlaws = {}): SubscriptionMirrorFactory {
  return (env: FlowClientEnv): SubscriptionMirror => {
    const rows: Record<string, MirroredSubscription> = {}
    const created: Record<string, number> = {}
    const seen = new Set<string>()
    const fromPayload = flaws.lastDeliveredWins === true || flaws.createdTies === true || flaws.seatDeltas === true
    const fields = (sub: Json): MirroredSubscription => {
      const f = mirroredFields(sub)
      const withEnd = flaws.topLevelPeriodEnd
        ? { ...f, currentPeriodEnd: typeof sub.current_period_end === 'number' ? sub.current_period_end : null }
        : f
      return flaws.ignoreCancelAtPeriodEnd ? { ...withEnd, cancelAtPeriodEnd: false } : withEnd
    }
    async function read(id: string): Promise<Json | undefined> {
      try {
        const res = await env.fetch(`${env.baseUrl}/v1/subscriptions/${id}`, {
          headers: { Authorization: `Bearer ${env.secretKey}` },
        })
        if (res.status !== 200) return undefined
        return (await res.json()) as Json
      } catch {
        return undefined
      }
    }
    function store(event: Event, sub: Json): void {
      const id = String(sub.id)
      const prior = rows[id]
      if (flaws.seatDeltas && prior !== undefined && event.type === 'customer.subscription.updated') {
        const before = firstQuantity(event.data.previous_attributes?.items)
        const after = firstQuantity(sub.items)
        const next = fields(sub)
        rows[id] = {
          ...next,
          quantity: before === undefined || after === undefined ? prior.quantity : prior.quantity + after - before,
        }
        return
      }
      if (flaws.statusOnly && prior !== undefined && event.type === 'customer.subscription.updated') {
        rows[id] = { ...prior, status: String(sub.status) }
        return
      }
      rows[id] = fields(sub)
    }
    async function apply(event: Event): Promise<boolean> {
      if (!event.type.startsWith('customer.subscription.')) return true
      if (event.type === 'customer.subscription.deleted' && flaws.ignoreDeleted) return true
      const object = event.data.object
      const id = String(object.id)
      if (fromPayload) {
        if (flaws.createdTies && event.created < (created[id] ?? 0)) return true
        created[id] = Math.max(created[id] ?? 0, event.created)
        store(event, object)
        return true
      }
      const current = await read(id)
      if (current === undefined) return false
      store(event, current)
      return true
    }
    return {
      subscriptions: () => rows,
      hasAccess(customerId) {
        const entitled = flaws.trialDenied
          ? ['active']
          : flaws.pastDueKeepsAccess
            ? [...ENTITLED_STATUSES, 'past_due']
            : ENTITLED_STATUSES
        return Object.values(rows).some(
          (r) =>
            r.customer === customerId && entitled.includes(r.status) && !(flaws.revokeAtPeriodEndFlag && r.cancelAtPeriodEnd),
        )
      },
      async handler(req) {
        const raw = await req.text()
        try {
          verifySignature(raw, req.headers.get(`${env.prefix}-Signature`), env.secrets(), { now: env.clock.now })
        } catch {
          return new Response('bad signature', { status: 400 })
        }
        const event = JSON.parse(raw) as Event
        if (seen.has(event.id) && !flaws.seatDeltas) return new Response('duplicate')
        if (!(await apply(event))) return new Response('could not read the subscription', { status: 500 })
        seen.add(event.id)
        return new Response('ok')
      },
    }
  }
}

/**
 * The correct subscription mirror: verifies, deduplicates by event id, reads the subscription on
 * each of its events and gates access on `active` or `trialing`.
 *
 * @example
 * const result = await checkSubscriptionMirror(referenceSubscriptionMirror, { numRuns: 100 })
 */
export const referenceSubscriptionMirror: SubscriptionMirrorFactory = makeSubscriptionMirror()
