import { fromPlain, toPlain } from '#kernel/plain.js'
import { SlidingLog } from '../limits/sliding-log.js'
import type { Scope } from '../mode.js'
import type { Ref } from './billing-types.js'
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
 */
export function registerBillingState(ctx: BillingContext, jobs: BillingJobs, clearAdvancing: () => void): void {
  const { clocks, subs, invoiceStates, key, simLine } = ctx
  // The state as fresh records: a snapshot encodes it (`toPlain`); a fork takes it as it is.
  const own = {
    records(): SavedBilling {
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
        clocks: [...clocks].map(([k, t]) => [k, lineRef(t)]),
        subs: [...subs.values()].map((s) => ({
          scope: { account: s.scope.account, mode: s.scope.mode },
          id: s.id,
          customer: s.customer,
          timeline: lineRef(s.timeline),
          interval: s.interval,
          count: s.count,
          anchor: s.anchor,
          n: s.n,
          periodStart: s.periodStart,
          periodEnd: s.periodEnd,
          trialEnd: s.trialEnd,
          invoiceLogs: s.invoiceLogs.map((l) => l.save()),
          quantityLog: s.quantityLog.save(),
        })),
        invoices: [...invoiceStates.values()].map((st) => ({
          scope: { account: st.scope.account, mode: st.scope.mode },
          id: st.id,
          timeline: lineRef(st.timeline),
          subscription: st.subscription,
          attempts: st.attempts,
          ...(st.intent === undefined ? {} : { intent: st.intent }),
        })),
      }
      const usage = ctx.usageRecords.save()
      if (usage !== undefined) saved.usageRecords = usage
      return saved
    },
    apply(saved: SavedBilling): void {
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
      for (const s of saved.subs) {
        subs.set(key(s.scope, s.id), {
          scope: s.scope,
          id: s.id,
          customer: s.customer,
          timeline: lineAt(s.timeline),
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
        })
      }
      for (const st of saved.invoices) {
        invoiceStates.set(key(st.scope, st.id), {
          scope: st.scope,
          id: st.id,
          timeline: lineAt(st.timeline),
          subscription: st.subscription,
          job: undefined,
          attempts: st.attempts,
          ...(st.intent === undefined ? {} : { intent: st.intent }),
        })
        if (st.intent !== undefined) ctx.intentInvoices.set(key(st.scope, st.intent), st.id)
      }
      for (const [job, label, args] of relink) jobs.links.get(label)?.(job, args)
    },
  }
  ctx.kernel.state.register('billing', {
    save() {
      return toPlain(own.records())
    },
    load(data) {
      own.apply(fromPlain<SavedBilling>(data))
    },
    copy() {
      return own.records()
    },
    // One copy may be loaded by many forks. A test clock's jobs hold their args as given: only
    // they need a copy of their own.
    loadCopy(data) {
      const records = data as SavedBilling
      own.apply(records.timelines.length === 0 ? records : { ...records, timelines: fromPlain(toPlain(records.timelines)) })
    },
  })
}
