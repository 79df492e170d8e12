import type { Json } from '../engine/list.js'
import { emitSnapshot, type Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { sec } from './billing-types.js'
import { boundary } from './calendar.js'
import type { BillingContext } from './context.js'
import type { Cycles } from './cycles.js'
import type { BillingJobs } from './jobs.js'
import { billPause, type PauseBilling } from './pause-billing.js'
import { collectionResumption } from './pause-collection.js'
import type { Prorations } from './prorations.js'

/** Where a resumed subscription's billing cycle starts: now (a new period, invoiced) or where it was. */
export type ResumeAnchor = 'now' | 'unchanged'

/**
 * Pausing and resuming a subscription's cycle: paused, it has no period end on its timeline, so it
 * makes no invoices and does not renew; resumed, it bills again, from now (a new period starts
 * and its invoice is made and paid as at any period end) or on its old anchor.
 *
 * @example
 * const pausing = createPausing(ctx, cycles)
 * pausing.pause(scope, 'sub_1', origin).status // 'paused'
 */
export type Pausing = ReturnType<typeof createPausing>

export function createPausing(ctx: BillingContext, cycles: Cycles, jobs: BillingJobs, prorations: Prorations) {
  const { r, subs, key, events, simLine } = ctx

  /**
   * Stops the cycle and marks the subscription `paused` (`customer.subscription.paused`), after
   * billing the pause as `bill` says (usage so far, unused time: {@link billPause}).
   */
  function pause(scope: Scope, id: string, origin: Origin, bill?: PauseBilling): Json {
    const s = subs.get(key(scope, id))
    if (s !== undefined && bill !== undefined) billPause(ctx, prorations, cycles.itemsOf(scope, id), s, bill, origin)
    if (s?.job !== undefined) s.timeline.cancel(s.job)
    if (s !== undefined) s.job = undefined
    const now = sec((s?.timeline ?? simLine).now())
    const paused = r.subscription().set(
      scope,
      id,
      {
        status: 'paused',
        status_details: {
          paused: { subscription: { type: 'pause_requested' }, transitioned_at: now, type: 'subscription' },
        },
      },
      origin,
    )
    emitSnapshot(events, 'customer.subscription.paused', scope, paused, origin)
    return paused
  }

  /** Makes the subscription `active` again (`customer.subscription.resumed`) and restarts its cycle. */
  function resume(scope: Scope, id: string, anchor: ResumeAnchor, origin: Origin): Json {
    const s = subs.get(key(scope, id))
    const fields: Record<string, unknown> = { status: 'active', status_details: undefined }
    if (s === undefined) {
      const resumed = r.subscription().set(scope, id, fields, origin)
      emitSnapshot(events, 'customer.subscription.resumed', scope, resumed, origin)
      return resumed
    }
    const now = s.timeline.now()
    s.trialEnd = null
    if (anchor === 'now') {
      // A new period from now: the period end bills what the old one left and the new one ahead.
      s.anchor = now
      s.n = 0
      s.periodEnd = now
      r.subscription().set(scope, id, { ...fields, billing_cycle_anchor: sec(now) }, origin)
      cycles.periodEnd(s)
    } else {
      // The periods that passed while paused are skipped, not billed.
      while (s.periodEnd <= now) {
        s.n += 1
        s.periodStart = s.periodEnd
        s.periodEnd = boundary(s.anchor, s.interval, s.count, s.n)
      }
      for (const item of cycles.itemsOf(scope, id)) {
        r.item().put(scope, String(item.id), {
          current_period_start: sec(s.periodStart),
          current_period_end: sec(s.periodEnd),
        })
      }
      r.subscription().set(scope, id, { ...fields, items: cycles.itemList(scope, id) }, origin)
      cycles.schedulePeriodEnd(s)
    }
    const resumed = r.subscription().require(scope, id)
    emitSnapshot(events, 'customer.subscription.resumed', scope, resumed, origin)
    return resumed
  }

  return { pause, resume, ...collectionResumption(ctx, jobs) }
}
