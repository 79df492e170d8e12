import type { Task } from '#kernel/scheduler.js'
import type { Scope } from '../mode.js'
import { type Ref, type SubState, scopeOf } from './billing-types.js'
import type { BillingContext } from './context.js'
import type { Job, JobKind } from './timelines.js'

/**
 * What billing's jobs do when they run, resolved when a job runs: the kinds are defined with the
 * area (a loaded snapshot's pending work names them) while the parts that do the work are built on
 * first use.
 */
export interface JobActions {
  periodEnd(s: SubState): void
  expireIncomplete(s: SubState): void
  cancelAt(s: SubState): void
  finalizeAndPay(scope: Scope, id: string): void
  retry(scope: Scope, id: string): void
  overdue(scope: Scope, id: string): void
  /** A subscription schedule's next step (its start, a phase's end). */
  scheduleStep(a: Ref): void
  /** A subscription's paused collection resumes at its `pause_collection.resumes_at`. */
  resumeCollection(a: Ref): void
  /** Three days before a trial ends: `customer.subscription.trial_will_end`, if the trial still ends then. */
  trialWillEnd(a: Ref): void
}

/**
 * Billing's pending work as data. Each kind of job runs on the simulator's scheduler (a task kind of
 * the same label) or on a test clock's timeline; its args name the subscription or invoice, looked
 * up when it runs. `links` give the record its handle back when a snapshot re-creates the job.
 */
export type BillingJobs = ReturnType<typeof createJobs>

/** The link of a job no record holds the handle of. */
const unlinked = (): undefined => undefined

export function createJobs(ctx: BillingContext, actions: () => JobActions) {
  const { kernel, subs, invoiceStates, key, r } = ctx
  const links = new Map<string, (job: Job, a: Ref) => void>()
  const kinds = new Map<string, JobKind<never>>()
  const own = {
    jobKind(label: string, run: (a: Ref) => void, link: (job: Job, a: Ref) => void): JobKind<Ref> {
      const task = kernel.scheduler.define<Ref>(label, run, {
        restored(t: Task, a: Ref) {
          return link(t, a)
        },
      })
      const kind: JobKind<Ref> = { label, run, task }
      links.set(label, link)
      kinds.set(label, kind as unknown as JobKind<never>)
      return kind
    },
  }

  /** A job on one subscription held in `slot`: it unlinks itself, then acts. */
  const subJob = (label: string, slot: 'job' | 'expiry' | 'cancelJob', act: (s: SubState) => void) =>
    own.jobKind(
      label,
      (a) => {
        const s = subs.get(key(scopeOf(a), a.id))
        if (s === undefined) return
        s[slot] = undefined
        act(s)
      },
      (job, a) => {
        const s = subs.get(key(scopeOf(a), a.id))
        if (s !== undefined) s[slot] = job
      },
    )
  const linkInvoice = (job: Job, a: Ref) => {
    const st = invoiceStates.get(key(scopeOf(a), a.id))
    if (st !== undefined) st.job = job
  }

  const periodEnd = subJob('subscription.period_end', 'job', (s) => actions().periodEnd(s))
  const expireIncomplete = subJob('subscription.incomplete_expire', 'expiry', (s) => actions().expireIncomplete(s))
  const cancelAt = subJob('subscription.cancel_at', 'cancelJob', (s) => actions().cancelAt(s))

  /** A job on one invoice: unlinks itself, then acts only while the invoice is still `status`. */
  const invoiceJob = (label: string, status: string, act: (scope: Scope, id: string) => void) =>
    own.jobKind(
      label,
      (a) => {
        const scope = scopeOf(a)
        const st = invoiceStates.get(key(scope, a.id))
        if (st !== undefined) st.job = undefined
        if (r.invoice().get(scope, a.id)?.status === status) act(scope, a.id)
      },
      linkInvoice,
    )
  const finalize = invoiceJob('invoice.finalize', 'draft', (scope, id) => actions().finalizeAndPay(scope, id))
  const retry = invoiceJob('invoice.retry', 'open', (scope, id) => actions().retry(scope, id))
  const overdue = invoiceJob('invoice.overdue', 'open', (scope, id) => actions().overdue(scope, id))
  // A schedule's job names the schedule only: it looks it up when it runs, so nothing holds its handle.
  const scheduleStep = own.jobKind('subscription_schedule.step', (a) => actions().scheduleStep(a), unlinked)

  // Like a schedule's, it names the subscription only and reads `resumes_at` when it runs.
  const resumeCollection = own.jobKind('subscription.resume_collection', (a) => actions().resumeCollection(a), unlinked)

  // It names the trial end it announces and checks it when it runs: a moved trial's old notice does nothing.
  const trialWillEnd = own.jobKind('subscription.trial_will_end', (a) => actions().trialWillEnd(a), unlinked)

  const subJobs = { periodEnd, expireIncomplete, cancelAt, resumeCollection, trialWillEnd }
  return { links, kinds, jobKind: own.jobKind, ...subJobs, finalize, retry, overdue, scheduleStep }
}
