import type { Kernel } from '../kernel-parts.js'
import type { ReadAllocationConfig } from './default-limits.js'
import type { LimitTable, PlanShape, Step } from './limit-table.js'
import type { LimitedRequest } from './limiter.js'
import { ReadAllocation, type TransactionCounts } from './read-allocation.js'
import { SlidingLog } from './sliding-log.js'

/** The counters one account's requests of one plan touch, found once and kept (until a sweep). */
export interface Bound {
  readonly logs: (SlidingLog | undefined)[]
  readonly slots: (Slot | undefined)[]
  reads: ReadAllocation | undefined
}

/** Requests in flight under one concurrency key. */
export interface Slot {
  n: number
}

/** A kind of request's rows (shared by every limiter over the table) and this limiter's bindings. */
export interface Plan extends PlanShape {
  readonly bound: Map<string, Bound>
}

/** How the customer and meter of a synchronous meter event are read from its body. */
export type MeterKey = (body: unknown) => { customer: string; meter: string } | undefined

/**
 * Everything one limiter holds: its compiled table, its counters by key, and the plans of the
 * kinds of request it has seen with their bindings to those counters.
 *
 * @example
 * const state = limiterState(kernel, table, config.reads, ledger)
 * admit(state, admission)
 */
export interface LimiterState {
  readonly kernel: Kernel
  readonly table: LimitTable
  readonly readConfig: ReadAllocationConfig | undefined
  readonly longestWindow: number
  readonly plans: Map<string, (Plan | undefined)[]>
  readonly logs: Map<string, SlidingLog>
  readonly inFlight: Map<string, Slot>
  readonly allocations: Map<string, ReadAllocation>
  transactions: TransactionCounts | undefined
  meterKey: MeterKey
  admissions: number
  nextSweep: number
}

/**
 * A limiter's empty state over a compiled table.
 *
 * @example
 * const state = limiterState(kernel, limitTableOf(rows, reads), reads, undefined)
 */
export function limiterState(
  kernel: Kernel,
  table: LimitTable,
  readConfig: ReadAllocationConfig | undefined,
  transactions: TransactionCounts | undefined,
): LimiterState {
  return {
    kernel,
    table,
    readConfig,
    longestWindow: table.longestWindow,
    plans: new Map(),
    logs: new Map(),
    inFlight: new Map(),
    allocations: new Map(),
    transactions,
    meterKey: payloadMeterKey(`${kernel.prefix.toLowerCase()}_customer_id`),
    admissions: 0,
    nextSweep: Number.NEGATIVE_INFINITY,
  }
}

function payloadMeterKey(customerKey: string): MeterKey {
  return (body) => {
    if (body === null || typeof body !== 'object') return undefined
    const b = body as { event_name?: unknown; payload?: Record<string, unknown> }
    const customer = b.payload?.[customerKey]
    if (typeof b.event_name !== 'string' || typeof customer !== 'string') return undefined
    return { customer, meter: b.event_name }
  }
}

/**
 * The plan of a request's kind, compiled from the table on first sight.
 *
 * @example
 * if (planOf(state, request).empty) return
 */
export function planOf(s: LimiterState, r: LimitedRequest): Plan {
  let byKind = s.plans.get(r.operation)
  if (byKind === undefined) {
    byKind = []
    s.plans.set(r.operation, byKind)
  }
  const index = s.table.index(r)
  let p = byKind[index]
  if (p === undefined) {
    const shape = s.table.shape(r, index)
    p = { rate: shape.rate, concurrency: shape.concurrency, reads: shape.reads, empty: shape.empty, bound: new Map() }
    byKind[index] = p
  }
  return p
}

/**
 * The counter key of a row for a request, or undefined when the row does not count it.
 *
 * @example
 * const key = keyOf(state, step, request)
 */
export function keyOf(s: LimiterState, step: Step, r: LimitedRequest): string | undefined {
  const { row } = step
  switch (row.scope) {
    case 'account':
    case 'resource':
      return `${row.id}|${r.account}|${r.mode}`
    case 'endpoint':
      return `${row.id}|${r.account}|${r.mode}|${r.operation}`
    case 'object':
      return r.objectId === undefined ? undefined : `${row.id}|${r.mode}|${r.objectId}`
    case 'customer_meter': {
      const m = s.meterKey(r.body)
      return m === undefined ? undefined : `${row.id}|${r.account}|${r.mode}|${m.customer}|${m.meter}`
    }
    case 'subscription':
      return undefined
  }
}

/**
 * The window of a rate key, made on first use.
 *
 * @example
 * logFor(state, key).add(now)
 */
export function logFor(s: LimiterState, key: string): SlidingLog {
  let log = s.logs.get(key)
  if (log === undefined) {
    log = new SlidingLog()
    s.logs.set(key, log)
  }
  return log
}

/**
 * The in-flight count of a concurrency key, made on first use.
 *
 * @example
 * slotFor(state, key).n++
 */
export function slotFor(s: LimiterState, key: string): Slot {
  let slot = s.inFlight.get(key)
  if (slot === undefined) {
    slot = { n: 0 }
    s.inFlight.set(key, slot)
  }
  return slot
}

/**
 * The read allocation under a key, made on first use; it counts the transactions of the account
 * (or, on behalf, of the platform's connected accounts) through the limiter's current counts.
 *
 * @example
 * allocationOf(state, 'acct_1|test', { account: 'acct_1', authenticated: 'acct_1', mode: 'test', onBehalf: false })
 */
export function allocationOf(
  s: LimiterState,
  key: string,
  r: Pick<LimitedRequest, 'account' | 'authenticated' | 'mode' | 'onBehalf'>,
): ReadAllocation {
  let a = s.allocations.get(key)
  if (a === undefined) {
    const { account, authenticated, mode, onBehalf } = r
    a = new ReadAllocation(s.readConfig as ReadAllocationConfig, (since) => {
      const transactions = s.transactions
      if (transactions === undefined) return 0
      return onBehalf
        ? transactions.connectedTransactionCount(authenticated, mode, since)
        : transactions.transactionCount({ account, mode }, since)
    })
    s.allocations.set(key, a)
  }
  return a
}

function allocationFor(s: LimiterState, r: LimitedRequest): ReadAllocation {
  const key = r.onBehalf ? `${r.authenticated}|${r.mode}|behalf` : `${r.account}|${r.mode}`
  return allocationOf(s, key, r)
}

/**
 * The counters a plan's per-account rows use for the request's account, found once and kept.
 *
 * @example
 * const b = bind(state, planOf(state, request), request)
 */
export function bind(s: LimiterState, p: Plan, r: LimitedRequest): Bound {
  const id = r.onBehalf ? `${r.account}|${r.authenticated}` : r.account
  let b = p.bound.get(id)
  if (b === undefined) {
    b = {
      logs: p.rate.map((step) => (step.perAccount ? logFor(s, keyOf(s, step, r) as string) : undefined)),
      slots: p.concurrency.map((step) => (step.perAccount ? slotFor(s, keyOf(s, step, r) as string) : undefined)),
      reads: p.reads ? allocationFor(s, r) : undefined,
    }
    p.bound.set(id, b)
  }
  return b
}

/**
 * Forgets every plan's bindings, so they are found again on next use (after counters were dropped
 * or replaced).
 *
 * @example
 * unbindAll(state)
 */
export function unbindAll(s: LimiterState): void {
  for (const byKind of s.plans.values()) for (const p of byKind) p?.bound.clear()
}

/**
 * Drops idle keys: windows older than the longest window, empty slots, unused allocations.
 *
 * @example
 * sweep(state, kernel.clock.now)
 */
export function sweep(s: LimiterState, now: number): void {
  for (const [key, log] of s.logs) if (log.newest() <= now - s.longestWindow) s.logs.delete(key)
  for (const [key, slot] of s.inFlight) if (slot.n <= 0) s.inFlight.delete(key)
  for (const [key, a] of s.allocations) if (a.used(now) === 0) s.allocations.delete(key)
  // Bindings point at counters that may just have been dropped: find them again on next use.
  unbindAll(s)
}
