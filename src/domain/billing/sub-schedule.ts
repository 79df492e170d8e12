import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { refOf, type SubState, sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import type { Cycles } from './cycles.js'
import type { BillingJobs } from './jobs.js'
import { scheduleTrialNotice, trialEndedNow } from './trial-notice.js'

/**
 * Changes to a subscription's schedule asked for by `subscriptions.create`/`update`: a `cancel_at`
 * (a job on the subscription's timeline that cancels it then, so a snapshot carries it) and a
 * `trial_end` (a trial from now to then, the period ending there; `now` ends a trial at once).
 */
export type SubSchedule = ReturnType<typeof createSubSchedule>

export function createSubSchedule(ctx: BillingContext, jobs: BillingJobs, cycles: Cycles) {
  const { r, subs, key } = ctx
  const own = {
    /** Replaces the subscription's pending `cancel_at` by one at `at` (ms), or none (null). */
    scheduleCancel(scope: Scope, id: string, at: number | null): void {
      const s = subs.get(key(scope, id))
      if (s === undefined) return
      if (s.cancelJob !== undefined) s.timeline.cancel(s.cancelJob)
      s.cancelJob = at === null ? undefined : s.timeline.at(at, jobs.cancelAt, refOf(scope, id))
    },
    /** The `cancel_at` job: cancels the subscription unless it already ended. */
    cancelAt(s: SubState): void {
      const status = r.subscription().get(s.scope, s.id)?.status
      if (status === undefined || status === 'canceled' || status === 'incomplete_expired') return
      cycles.cancelNow(s.scope, s.id, NO_ORIGIN)
    },
    /**
     * Starts a trial ending at `trialEnd` (ms): the current period ends there (on the items too) and
     * the cycle restarts from it, as the provider moves `billing_cycle_anchor` to `trial_end`. Answers
     * the subscription's fields to set.
     */
    startTrial(scope: Scope, id: string, trialEnd: number): Record<string, unknown> {
      const s = subs.get(key(scope, id))
      if (s === undefined) return {}
      const sub = r.subscription().require(scope, id)
      s.trialEnd = trialEnd
      s.periodEnd = trialEnd
      s.anchor = trialEnd
      s.n = 0
      for (const item of cycles.itemsOf(scope, id)) r.item().put(scope, item.id, { current_period_end: sec(trialEnd) })
      cycles.schedulePeriodEnd(s)
      scheduleTrialNotice(jobs, s, trialEnd)
      return {
        status: 'trialing',
        trial_start: sub.status === 'trialing' && typeof sub.trial_start === 'number' ? sub.trial_start : sec(s.timeline.now()),
        trial_end: sec(trialEnd),
        billing_cycle_anchor: sec(trialEnd),
        items: cycles.itemList(scope, id),
      }
    },
    /** `trial_end=now`: a trialing subscription's trial (and period) ends at once; a new period starts. */
    endTrialNow(scope: Scope, id: string): void {
      const s = subs.get(key(scope, id))
      if (s === undefined || r.subscription().get(scope, id)?.status !== 'trialing') return
      trialEndedNow(ctx, scope, id)
      const now = s.timeline.now()
      s.trialEnd = now
      s.periodEnd = now
      s.anchor = now
      s.n = 0
      cycles.periodEnd(s)
    },
  }

  return { scheduleCancel: own.scheduleCancel, cancelAt: own.cancelAt, startTrial: own.startTrial, endTrialNow: own.endTrialNow }
}
