import { TRIAL_WILL_END_LEAD_MS } from '#catalogue/rules.js'
import { emitSnapshot, NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { type Ref, refOf, type SubState, scopeOf } from './billing-types.js'
import type { BillingContext } from './context.js'
import type { BillingJobs } from './jobs.js'

/** The trial notice's job arguments: the subscription and the trial end (ms) it announces. */
export type TrialNoticeRef = Ref & { readonly trialEnd: number }

/**
 * Queues `customer.subscription.trial_will_end` three days before the trial ends (at once when the
 * trial is shorter). The job names the trial end it announces: a trial since moved or ended makes
 * it do nothing, so a changed trial needs no cancellation, only a new notice.
 *
 * @example
 * scheduleTrialNotice(jobs, s, s.trialEnd)
 */
export function scheduleTrialNotice(jobs: BillingJobs, s: SubState, trialEnd: number): void {
  const args: TrialNoticeRef = { ...refOf(s.scope, s.id), trialEnd }
  s.timeline.at(Math.max(s.timeline.now(), trialEnd - TRIAL_WILL_END_LEAD_MS), jobs.trialWillEnd, args)
}

/**
 * The notice's job: emits `customer.subscription.trial_will_end` if the subscription is still
 * trialing toward the trial end the job announces.
 *
 * @example
 * trialWillEnd(ctx, { account: 'acct_1', mode: 'test', id: 'sub_1', trialEnd: 1_700_000_000_000 })
 */
export function trialWillEnd(ctx: BillingContext, a: Ref): void {
  const scope = scopeOf(a)
  const sub = ctx.r.subscription().get(scope, a.id)
  const announced = (a as Partial<TrialNoticeRef>).trialEnd
  if (sub?.status !== 'trialing' || typeof sub.trial_end !== 'number' || sub.trial_end * 1000 !== announced) return
  emitSnapshot(ctx.events, 'customer.subscription.trial_will_end', scope, sub, NO_ORIGIN)
}

/**
 * A trial ended at once (`trial_end=now`): the provider sends the notice then, before the trial's end.
 *
 * @example
 * trialEndedNow(ctx, scope, 'sub_1')
 */
export function trialEndedNow(ctx: BillingContext, scope: Scope, id: string): void {
  const sub = ctx.r.subscription().get(scope, id)
  if (sub?.status === 'trialing') emitSnapshot(ctx.events, 'customer.subscription.trial_will_end', scope, sub, NO_ORIGIN)
}
