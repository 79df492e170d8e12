import type { TraceEntry } from '#kernel/trace.js'
import { type Violation, violation } from './violation.js'

/** The meter event operations of both versions (events, stream, its sessions, adjustments). */
const METER_EVENT_OPERATION = /(^|\.)billing\.meterEvent/

const str = (v: unknown) => String(v)

interface Unit {
  readonly id: string
  readonly customer: string
  readonly value: number
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
  const out: Violation[] = []
  const batches: TraceEntry<'harness.usage'>[] = []
  const totals = new Map<string, { count: number; sum: number }>()
  let totalsEntry: TraceEntry | undefined
  const requests: TraceEntry[] = []
  for (const e of entries) {
    if (e.kind === 'harness.usage') batches.push(e)
    else if (e.kind === 'harness.usage.totals') {
      totalsEntry = e
      for (const t of e.data.customers) totals.set(t.customer, t)
    } else if (e.kind === 'http' && e.data.status !== undefined && Number(e.data.status) < 300) {
      if (METER_EVENT_OPERATION.test(str(e.data.operation))) requests.push(e)
    }
  }
  // Per customer: how many units and what sum, all and acknowledged (counters: runs are many).
  interface Account {
    n: number
    acked: number
    sum: number
    ackedSum: number
    first: Unit
  }
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
  const batchesOf = (customer: string) => batches.filter((b) => b.data.units.some((u) => u.customer === customer))
  // Customers whose counts are off: found first, then witnessed.
  const suspects = new Set<string>()
  for (const [customer, c] of customers) {
    const t = totals.get(customer)
    const count = t?.count ?? 0
    const s = t?.sum ?? 0
    if (count !== c.acked || count > c.n || s < c.ackedSum || s > c.sum || c.acked !== c.n) suspects.add(customer)
  }
  // Which accepted requests carried a customer: read only for the customers a finding names (the
  // request bodies of a clean run are never parsed).
  let byCustomer: Map<string, TraceEntry[]> | undefined
  const carriers = (customer: string): TraceEntry[] => {
    if (byCustomer === undefined) {
      byCustomer = new Map()
      const found = byCustomer
      const wanted = suspects
      const carried = (name: string, r: TraceEntry) => {
        if (!wanted.has(name)) return
        const list = found.get(name) ?? []
        if (list[list.length - 1] !== r) list.push(r)
        found.set(name, list)
      }
      for (const r of requests) {
        const text = str(r.data.request)
        let parsed: { events?: { payload?: Record<string, unknown> }[]; payload?: Record<string, unknown> } | undefined
        try {
          parsed = JSON.parse(text) as typeof parsed
        } catch {
          parsed = undefined
        }
        if (Array.isArray(parsed?.events)) {
          for (const ev of parsed.events)
            for (const v of Object.values(ev?.payload ?? {})) if (typeof v === 'string') carried(v, r)
        } else if (parsed?.payload !== undefined && parsed.payload !== null && typeof parsed.payload === 'object') {
          // One synchronous meter event.
          for (const v of Object.values(parsed.payload)) if (typeof v === 'string') carried(v, r)
        } else {
          // Not JSON (a v1 form body): any quoted or encoded value may name the customer.
          for (const m of text.matchAll(/[A-Za-z0-9_]+/g)) carried(m[0], r)
        }
      }
    }
    return byCustomer.get(customer) ?? []
  }
  let low = 0
  let high = 0
  let total = 0
  for (const [customer, c] of customers) {
    const t = totals.get(customer)
    const count = t?.count ?? 0
    const s = t?.sum ?? 0
    total += s
    high += c.sum
    low += c.ackedSum
    if (!suspects.has(customer)) continue
    const allAcked = c.acked === c.n
    const witness = () => [...batchesOf(customer), ...(totalsEntry ? [totalsEntry] : []), ...carriers(customer)]
    if (c.n === 1) {
      // A customer of one unit: the unit's own count, as the checker always said it.
      if (allAcked && count !== 1) {
        out.push(violation('usage.exactly_once', `acknowledged usage ${c.first.id} was counted ${count} times`, witness()))
      } else if (!allAcked && count > 1) {
        out.push(violation('usage.at_most_once', `unacknowledged usage ${c.first.id} was counted ${count} times`, witness()))
      }
      continue
    }
    const over = count > c.n || s > c.sum
    const under = count < c.acked || s < c.ackedSum
    if (over || under) {
      const what = `customer ${customer} was counted ${count} events (sum ${s}) for ${c.n} units (sum ${c.sum}), ${c.acked} acknowledged (sum ${c.ackedSum})`
      out.push(violation(over && !allAcked ? 'usage.at_most_once' : 'usage.exactly_once', what, witness()))
    }
  }
  // One finding per batch that was never acknowledged (a large batch names its first and last unit).
  for (const e of entries) {
    if (e.kind !== 'harness.usage' || e.data.outcome === 'acked') continue
    const list = e.data.units
    const first = list[0]
    const last = list[list.length - 1]
    if (first === undefined || last === undefined) continue
    const which = list.length === 1 ? `usage ${first.id}` : `usage ${first.id}..${last.id} (${list.length} units)`
    out.push(
      violation('usage.acknowledged', `${which} was never acknowledged (${str(e.data.outcome)}: ${str(e.data.error ?? '')})`, [
        e,
      ]),
    )
  }
  if (customers.size > 0 && (total < low || total > high)) {
    out.push(violation('usage.bounds', `meter total ${total} outside [${low}, ${high}]`, totalsEntry ? [totalsEntry] : []))
  }
  return out
}
