import type { TraceEntry } from '#kernel/index.js'
import { refuseNotEntries } from '../validate-input.js'
import { traceChecker } from './checker.js'
import { type Violation, violation } from './violation.js'

const str = (v: unknown) => String(v)

// The requests that can carry usage: meter events (v1, v2, the stream) and their sessions and adjustments.
const METER_EVENT_OPERATIONS = /^(v2\.)?billing\.meterEvent/

interface Unit {
  readonly id: string
  readonly customer: string
  readonly value: number
}

/** What the trace says of the usage: the batches, the service's totals and the accepted meter event requests. */
interface UsageTrace {
  readonly batches: TraceEntry<'harness.usage'>[]
  readonly totals: Map<string, { count: number; sum: number }>
  totalsEntry: TraceEntry | undefined
  readonly requests: TraceEntry[]
}

function readUsage(entries: readonly TraceEntry[]): UsageTrace {
  const u: UsageTrace = { batches: [], totals: new Map(), totalsEntry: undefined, requests: [] }
  for (const e of entries) {
    if (e.kind === 'harness.usage') u.batches.push(e)
    else if (e.kind === 'harness.usage.totals') {
      u.totalsEntry = e
      for (const t of e.data.customers) u.totals.set(t.customer, t)
    } else if (e.kind === 'http' && e.data.status !== undefined && Number(e.data.status) < 300) {
      if (METER_EVENT_OPERATIONS.test(str(e.data.operation))) u.requests.push(e)
    }
  }
  return u
}

/** Per customer: how many units and what sum, all and acknowledged (counters: runs are many). */
interface Account {
  n: number
  acked: number
  sum: number
  ackedSum: number
  first: Unit
}

function accountsOf(batches: readonly TraceEntry<'harness.usage'>[]): Map<string, Account> {
  const customers = new Map<string, Account>()
  for (const batch of batches) {
    const ok = batch.data.outcome === 'acked'
    for (const unit of batch.data.units) {
      let c = customers.get(unit.customer)
      if (c === undefined) {
        c = { n: 0, acked: 0, sum: 0, ackedSum: 0, first: unit }
        customers.set(unit.customer, c)
      }
      c.n++
      c.sum += unit.value
      if (ok) {
        c.acked++
        c.ackedSum += unit.value
      }
    }
  }
  return customers
}

/** Customers whose counts are off: found first, then witnessed. */
function suspectsOf(customers: Map<string, Account>, totals: UsageTrace['totals']): Set<string> {
  const suspects = new Set<string>()
  for (const [customer, c] of customers) {
    const t = totals.get(customer)
    const count = t?.count ?? 0
    const s = t?.sum ?? 0
    if (count !== c.acked || count > c.n || s < c.ackedSum || s > c.sum || c.acked !== c.n) suspects.add(customer)
  }
  return suspects
}

/** Every value a meter event request carried that could name a customer. */
function namesCarried(r: TraceEntry, carried: (name: string) => void): void {
  const text = str(r.data.request)
  let parsed: { events?: { payload?: Record<string, unknown> }[]; payload?: Record<string, unknown> } | undefined
  try {
    parsed = JSON.parse(text) as typeof parsed
  } catch {
    parsed = undefined
  }
  if (Array.isArray(parsed?.events)) {
    for (const ev of parsed.events) for (const v of Object.values(ev?.payload ?? {})) if (typeof v === 'string') carried(v)
  } else if (parsed?.payload !== undefined && parsed.payload !== null && typeof parsed.payload === 'object') {
    // One synchronous meter event.
    for (const v of Object.values(parsed.payload)) if (typeof v === 'string') carried(v)
  } else {
    // Not JSON (a v1 form body): any quoted or encoded value may name the customer.
    for (const m of text.matchAll(/[A-Za-z0-9_]+/g)) carried(m[0])
  }
}

/**
 * Which accepted requests carried a customer: read only for the customers a finding names (the
 * request bodies of a clean run are never parsed).
 */
function carriersOf(requests: readonly TraceEntry[], suspects: Set<string>): (customer: string) => TraceEntry[] {
  let byCustomer: Map<string, TraceEntry[]> | undefined
  return (customer) => {
    if (byCustomer === undefined) {
      const found = new Map<string, TraceEntry[]>()
      for (const r of requests)
        namesCarried(r, (name) => {
          if (!suspects.has(name)) return
          const list = found.get(name) ?? []
          if (list[list.length - 1] !== r) list.push(r)
          found.set(name, list)
        })
      byCustomer = found
    }
    return byCustomer.get(customer) ?? []
  }
}

/** The finding of a suspect customer, if its counts are outside what its units imply. */
function customerFinding(
  customer: string,
  c: Account,
  count: number,
  s: number,
  witness: () => TraceEntry[],
): Violation | undefined {
  const allAcked = c.acked === c.n
  if (c.n === 1) {
    // A customer of one unit: the unit's own count, as the checker always said it.
    if (allAcked && count !== 1)
      return violation('usage.exactly_once', `acknowledged usage ${c.first.id} was counted ${count} times`, witness())
    if (!allAcked && count > 1)
      return violation('usage.at_most_once', `unacknowledged usage ${c.first.id} was counted ${count} times`, witness())
    return undefined
  }
  const over = count > c.n || s > c.sum
  const under = count < c.acked || s < c.ackedSum
  if (!over && !under) return undefined
  const what = `customer ${customer} was counted ${count} events (sum ${s}) for ${c.n} units (sum ${c.sum}), ${c.acked} acknowledged (sum ${c.ackedSum})`
  return violation(over && !allAcked ? 'usage.at_most_once' : 'usage.exactly_once', what, witness())
}

/** One finding per batch that was never acknowledged (a large batch names its first and last unit). */
function unacknowledged(entries: readonly TraceEntry[]): Violation[] {
  const out: Violation[] = []
  for (const e of entries) {
    if (e.kind !== 'harness.usage' || e.data.outcome === 'acked') continue
    const list = e.data.units
    const first = list[0]
    const last = list[list.length - 1]
    if (first === undefined || last === undefined) continue
    const which = list.length === 1 ? `usage ${first.id}` : `usage ${first.id}..${last.id} (${list.length} units)`
    const why = `${str(e.data.outcome)}: ${str(e.data.error ?? '')}`
    out.push(violation('usage.acknowledged', `${which} was never acknowledged (${why})`, [e]))
  }
  return out
}

/**
 * Usage history checker. Reads the run's `harness.usage` entries (one per reported batch: its
 * units and whether the reporter acknowledged them), `harness.usage.totals` (how many events, and
 * what sum, the service counted per customer once everything was processed) and the `http`
 * requests that carried them. Customers and values may repeat across units, so the accounting is
 * per customer: the count and sum must lie between what the acknowledged units imply and what all
 * units imply, and equal them when every unit of the customer was acknowledged (exactly once);
 * every unit must end acknowledged; the meter total must lie within the run's bounds.
 *
 * @example
 * checkUsage(sim.trace.entries()) // [] when every acknowledged unit was billed once
 */
export function checkUsage(entries: readonly TraceEntry[]): Violation[] {
  refuseNotEntries('checkUsage', entries)
  const u = readUsage(entries)
  const customers = accountsOf(u.batches)
  const suspects = suspectsOf(customers, u.totals)
  const carriers = carriersOf(u.requests, suspects)
  const batchesOf = (customer: string) => u.batches.filter((b) => b.data.units.some((x) => x.customer === customer))
  const out: Violation[] = []
  let low = 0
  let high = 0
  let total = 0
  for (const [customer, c] of customers) {
    const t = u.totals.get(customer)
    const s = t?.sum ?? 0
    total += s
    high += c.sum
    low += c.ackedSum
    if (!suspects.has(customer)) continue
    const witness = () => [...batchesOf(customer), ...(u.totalsEntry ? [u.totalsEntry] : []), ...carriers(customer)]
    const finding = customerFinding(customer, c, t?.count ?? 0, s, witness)
    if (finding !== undefined) out.push(finding)
  }
  out.push(...unacknowledged(entries))
  if (customers.size > 0 && (total < low || total > high))
    out.push(violation('usage.bounds', `meter total ${total} outside [${low}, ${high}]`, u.totalsEntry ? [u.totalsEntry] : []))
  return out
}

/**
 * The usage checker as a `Checker` (scenario name `usage`).
 *
 * @example
 * await usageChecker.check({ entries: sim.trace.entries(), requests: [], deliveries: [] })
 */
export const usageChecker = traceChecker('usage', checkUsage, 'every acknowledged usage billed exactly once, within bounds')
