import { fromPlain, toPlain } from '#kernel/plain.js'
import { SlidingLog } from '../limits/sliding-log.js'
import type { Scope } from '../mode.js'
import type { InvoiceState, Ref, SubState } from './billing-types.js'
import type { Interval } from './calendar.js'
import type { BillingContext } from './context.js'
import type { BillingJobs } from './jobs.js'
import { type Job, type SavedClockTimeline, TestClockTimeline, type Timeline } from './timelines.js'

/** A subscription's billing state as plain data: its timeline by index in the saved timelines (-1: the simulator clock). */
interface SavedSub {
  scope: Scope
  id: string
  customer: string
  timeline: number
  interval: Interval
  count: number
  anchor: number
  n: number
  periodStart: number
  periodEnd: number
  trialEnd: number | null
  invoiceLogs: number[][]
  quantityLog: number[]
}

interface SavedInvoice {
  scope: Scope
  id: string
  timeline: number
  subscription: string | null
  attempts: number
  /** Only when the invoice has an open payment intent. */
  intent?: string
}

interface SavedBilling {
  timelines: SavedClockTimeline[]
  clocks: [string, number][]
  subs: SavedSub[]
  invoices: SavedInvoice[]
  /** Legacy usage records (before basil), only when there are some. */
  usageRecords?: Array<[string, Array<[number, number]>]>
}

/**
 * Registers billing's snapshot part: test clock timelines (with their pending jobs), subscription
 * cycles and limit logs, invoice states; each record's job handle is re-linked on load.
 *
 * @example
 * registerBillingState(ctx, jobs, testClocks.clearAdvancing) // `billing` in sim.snapshot()
 */
export function registerBillingState(ctx: BillingContext, jobs: BillingJobs, clearAdvancing: () => void): void {
  ctx.kernel.state.register('billing', {
    save() {
      return toPlain(billingRecords(ctx))
    },
    load(data) {
      applyRecords(ctx, jobs, clearAdvancing, fromPlain<SavedBilling>(data))
    },
    // The state as fresh records: a snapshot encodes it (`toPlain`); a fork takes it as it is.
    copy() {
      return billingRecords(ctx)
    },
    // One copy may be loaded by many forks. A test clock's jobs hold their args as given: only
    // they need a copy of their own.
    loadCopy(data) {
      const records = data as SavedBilling
      applyRecords(
        ctx,
        jobs,
        clearAdvancing,
        records.timelines.length === 0 ? records : { ...records, timelines: fromPlain(toPlain(records.timelines)) },
      )
    },
  })
}

/** Billing's state as fresh records, each test clock timeline saved once and named by its index. */
function billingRecords(ctx: BillingContext): SavedBilling {
  const index = new Map<Timeline, number>()
  const timelines: SavedClockTimeline[] = []
  const lineRef = (t: Timeline): number => {
    if (!(t instanceof TestClockTimeline)) return -1
    let i = index.get(t)
    if (i === undefined) {
      i = timelines.length
      index.set(t, i)
      timelines.push(t.save())
    }
    return i
  }
  const saved: SavedBilling = {
    timelines,
    clocks: [...ctx.clocks].map(([k, t]) => [k, lineRef(t)]),
    subs: [...ctx.subs.values()].map((s) => savedSub(s, lineRef(s.timeline))),
    invoices: [...ctx.invoiceStates.values()].map((st) => savedInvoice(st, lineRef(st.timeline))),
  }
  const usage = ctx.usageRecords.save()
  if (usage !== undefined) saved.usageRecords = usage
  return saved
}

/** A subscription's billing state as plain data (its timeline by index). */
function savedSub(s: SubState, timeline: number): SavedSub {
  return {
    scope: { account: s.scope.account, mode: s.scope.mode },
    id: s.id,
    customer: s.customer,
    timeline,
    interval: s.interval,
    count: s.count,
    anchor: s.anchor,
    n: s.n,
    periodStart: s.periodStart,
    periodEnd: s.periodEnd,
    trialEnd: s.trialEnd,
    invoiceLogs: s.invoiceLogs.map((l) => l.save()),
    quantityLog: s.quantityLog.save(),
  }
}

/** An invoice's billing state as plain data (its timeline by index). */
function savedInvoice(st: InvoiceState, timeline: number): SavedInvoice {
  return {
    scope: { account: st.scope.account, mode: st.scope.mode },
    id: st.id,
    timeline,
    subscription: st.subscription,
    attempts: st.attempts,
    ...(st.intent === undefined ? {} : { intent: st.intent }),
  }
}

/** Replaces billing's state with the records', then gives each re-created job its record's handle. */
function applyRecords(ctx: BillingContext, jobs: BillingJobs, clearAdvancing: () => void, saved: SavedBilling): void {
  const { clocks, subs, invoiceStates, key, simLine } = ctx
  clocks.clear()
  subs.clear()
  invoiceStates.clear()
  ctx.intentInvoices.clear()
  ctx.usageRecords.load(saved.usageRecords)
  clearAdvancing()
  const relink: [Job, string, Ref][] = []
  const lines = saved.timelines.map((t) =>
    TestClockTimeline.load(t, jobs.kinds, (job, label, args) => relink.push([job, label, args as Ref])),
  )
  const lineAt = (i: number): Timeline => (i < 0 ? simLine : (lines[i] as TestClockTimeline))
  for (const [k, i] of saved.clocks) clocks.set(k, lines[i] as TestClockTimeline)
  for (const s of saved.subs) subs.set(key(s.scope, s.id), loadedSub(s, lineAt(s.timeline)))
  for (const st of saved.invoices) {
    invoiceStates.set(key(st.scope, st.id), loadedInvoice(st, lineAt(st.timeline)))
    if (st.intent !== undefined) ctx.intentInvoices.set(key(st.scope, st.intent), st.id)
  }
  for (const [job, label, args] of relink) jobs.links.get(label)?.(job, args)
}

/** A saved subscription's billing state on its loaded timeline, its job handles linked later. */
function loadedSub(s: SavedSub, timeline: Timeline): SubState {
  return {
    scope: s.scope,
    id: s.id,
    customer: s.customer,
    timeline,
    interval: s.interval,
    count: s.count,
    anchor: s.anchor,
    n: s.n,
    periodStart: s.periodStart,
    periodEnd: s.periodEnd,
    trialEnd: s.trialEnd,
    job: undefined,
    expiry: undefined,
    invoiceLogs: s.invoiceLogs.map((times) => SlidingLog.load(times)),
    quantityLog: SlidingLog.load(s.quantityLog),
  }
}

/** A saved invoice's billing state on its loaded timeline, its job handle linked later. */
function loadedInvoice(st: SavedInvoice, timeline: Timeline): InvoiceState {
  return {
    scope: st.scope,
    id: st.id,
    timeline,
    subscription: st.subscription,
    job: undefined,
    attempts: st.attempts,
    ...(st.intent === undefined ? {} : { intent: st.intent }),
  }
}
