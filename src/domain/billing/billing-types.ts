import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { SlidingLog } from '../limits/sliding-log.js'
import type { Mode, Scope } from '../mode.js'
import type { Interval } from './calendar.js'
import type { Job, Timeline } from './timelines.js'

/** Unix seconds of a virtual time in ms (the wire's times). */
export const sec = (ms: number) => Math.floor(ms / 1000)

/** What a billing job's args name: one record of one account and mode (plain data, for snapshots). */
export interface Ref {
  readonly account: string
  readonly mode: Mode
  readonly id: string
}

export const refOf = (scope: Scope, id: string): Ref => ({ account: scope.account, mode: scope.mode, id })
export const scopeOf = (a: Ref): Scope => ({ account: a.account, mode: a.mode })

/** What billing keeps about a subscription beyond its wire object: its cycle and its timers. */
export interface SubState {
  readonly scope: Scope
  readonly id: string
  readonly customer: string
  readonly timeline: Timeline
  readonly interval: Interval
  readonly count: number
  /** The billing cycle anchor (ms): period boundaries are `boundary(anchor, interval, count, n)`. */
  anchor: number
  /** Boundaries counted from the anchor: the current period ends at boundary n. */
  n: number
  periodStart: number
  periodEnd: number
  trialEnd: number | null
  job: Job | undefined
  /** While `incomplete`: the job that expires the subscription if its first invoice stays unpaid. */
  expiry: Job | undefined
  /** With `cancel_at`: the job that cancels the subscription then. */
  cancelJob?: Job | undefined
  readonly invoiceLogs: SlidingLog[]
  readonly quantityLog: SlidingLog
}

export interface InvoiceState {
  readonly scope: Scope
  readonly id: string
  readonly timeline: Timeline
  readonly subscription: string | null
  job: Job | undefined
  /** Automatic payment attempts made so far (the first included). */
  attempts: number
  /** The payment intent the customer can confirm while the invoice is open and unpaid. */
  intent?: string
}

/** The debit line(s) a credit proration applies to. */
export interface CreditedLines {
  readonly invoice: string
  readonly invoice_line_items: readonly string[]
}

/** A line before it is an object: what it bills and for which period. */
export interface LineSpec {
  readonly price: Json | null
  readonly quantity: number
  readonly amount: number
  readonly period: { start: number; end: number }
  readonly subscriptionItem: string | null
  readonly invoiceItem: string | null
  readonly description: string
  /** A proration adjustment (credit for unused time or charge for remaining time). */
  readonly proration?: boolean
  readonly creditedItems?: CreditedLines | null
}

/** What a new invoice is made of. */
export interface NewInvoice {
  readonly scope: Scope
  readonly customer: Json
  readonly currency: string
  readonly sub: SubState | null
  readonly reason: string
  readonly specs: readonly LineSpec[]
  readonly period: { start: number; end: number }
  readonly origin: Origin
  readonly id?: string
  readonly timeline: Timeline
  /**
   * A preview of a subscription not made yet: the subscription as it would be (its discount
   * objects, tax rates and collection), read instead of the store; the invoice names no subscription.
   */
  readonly unmade?: Readonly<Record<string, unknown>>
}
