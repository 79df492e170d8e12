import type { Json } from '../engine/list.js'
import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { type Ref, scopeOf } from './billing-types.js'
import type { BillingContext } from './context.js'
import type { Invoicing } from './invoicing.js'
import type { BillingJobs } from './jobs.js'
import { invalid, missing } from './subscriptions/subscription-params.js'

/** What happens to the invoices a subscription makes while its payment collection is paused. */
export type CollectionPause = 'keep_as_draft' | 'mark_uncollectible' | 'void'

/** The subscription's `pause_collection` field. */
export interface PauseCollection {
  readonly behavior: CollectionPause
  /** When collection resumes by itself (unix seconds), or null. */
  readonly resumes_at: number | null
}

const BEHAVIORS: ReadonlySet<string> = new Set(['keep_as_draft', 'mark_uncollectible', 'void'])

/**
 * A subscription's paused collection behaviour, or undefined when it collects.
 *
 * @example
 * collectionPauseOf({ pause_collection: { behavior: 'void', resumes_at: null } }) // 'void'
 */
export function collectionPauseOf(sub: Json): CollectionPause | undefined {
  const behavior = (sub.pause_collection as { behavior?: unknown } | null | undefined)?.behavior
  return typeof behavior === 'string' && BEHAVIORS.has(behavior) ? (behavior as CollectionPause) : undefined
}

/**
 * The `pause_collection` field `subscriptions.update` sets: `{ behavior, resumes_at }` (null when
 * it resumes only by hand), or null for `''` (collection resumed). `behavior` is required, and
 * `resumes_at` must be in the future (`now`, ms). Undefined when the param is absent.
 *
 * @example
 * pauseCollectionField({ behavior: 'void' }, now) // { behavior: 'void', resumes_at: null }
 */
export function pauseCollectionField(value: unknown, now: number): PauseCollection | null | undefined {
  if (value === undefined) return undefined
  if (value === '' || value === null) return null
  const { behavior, resumes_at: resumesAt } = value as { behavior?: unknown; resumes_at?: unknown }
  if (behavior === undefined) throw missing('pause_collection[behavior]')
  if (typeof behavior !== 'string' || !BEHAVIORS.has(behavior)) {
    throw invalid('pause_collection[behavior]', 'must be one of keep_as_draft, mark_uncollectible, or void')
  }
  if (resumesAt !== undefined && (typeof resumesAt !== 'number' || resumesAt * 1000 <= now)) {
    throw invalid('pause_collection[resumes_at]', 'must be a Unix timestamp in the future')
  }
  return { behavior: behavior as CollectionPause, resumes_at: (resumesAt as number | undefined) ?? null }
}

/**
 * A cycle invoice made while the subscription's collection is paused, as the provider treats it:
 * `keep_as_draft` leaves it a draft that never finalizes by itself (`auto_advance: false`, to be
 * finalized by hand later); `mark_uncollectible` finalizes it and marks it uncollectible at once;
 * `void` finalizes and voids it at once. No payment is attempted. Answers false, doing nothing,
 * when collection is not paused.
 *
 * @example
 * holdCycleInvoice(ctx, invoicing, scope, sub, 'in_1') // true for a paused subscription
 */
export function holdCycleInvoice(
  ctx: BillingContext,
  invoicing: Pick<Invoicing, 'finalize' | 'markUncollectible' | 'voidInvoice'>,
  scope: Scope,
  sub: Json,
  id: string,
): boolean {
  const pause = collectionPauseOf(sub)
  if (pause === undefined) return false
  if (pause === 'keep_as_draft') {
    ctx.r.invoice().put(scope, id, { auto_advance: false, automatically_finalizes_at: null })
    return true
  }
  invoicing.finalize(scope, id, NO_ORIGIN)
  if (pause === 'mark_uncollectible') invoicing.markUncollectible(scope, id, NO_ORIGIN)
  else invoicing.voidInvoice(scope, id, NO_ORIGIN)
  return true
}

/**
 * Queuing and running the end of a collection pause, on the subscription's timeline (the sim
 * clock or its test clock).
 *
 * @example
 * const { resumeCollectionAt } = collectionResumption(ctx, jobs)
 * resumeCollectionAt(scope, 'sub_1', resumesAt)
 */
export function collectionResumption(ctx: BillingContext, jobs: BillingJobs) {
  const { subs, key, simLine } = ctx
  const timelineOf = (scope: Scope, id: string) => subs.get(key(scope, id))?.timeline ?? simLine
  return {
    /** Queues the end of a collection pause at `resumesAt` (unix seconds). */
    resumeCollectionAt(scope: Scope, id: string, resumesAt: number): void {
      timelineOf(scope, id).at(resumesAt * 1000, jobs.resumeCollection, { account: scope.account, mode: scope.mode, id })
    },
    /** The `resumes_at` job: collection resumes unless it already did. */
    collectionResumes(a: Ref): void {
      resumeCollection(ctx, a, timelineOf(scopeOf(a), a.id).now())
    },
  }
}

/**
 * The `resumes_at` job: collection resumes (`pause_collection: null`,
 * `customer.subscription.updated`) unless it was resumed or paused again with another time meanwhile.
 *
 * @example
 * resumeCollection(ctx, { account, mode, id: 'sub_1' }, now)
 */
export function resumeCollection(ctx: BillingContext, a: Ref, now: number): void {
  const scope = scopeOf(a)
  const sub = ctx.r.subscription().get(scope, a.id)
  const at = (sub?.pause_collection as { resumes_at?: unknown } | null | undefined)?.resumes_at
  if (sub === undefined || typeof at !== 'number' || at * 1000 > now) return
  ctx.r.subscription().set(scope, a.id, { pause_collection: null }, NO_ORIGIN)
}
