import type { TraceEntry } from '#kernel/trace.js'
import { type Violation, violation } from './violation.js'

const str = (v: unknown) => String(v)

interface Unit {
  readonly id: string
  readonly customer: string
  readonly value: number
}

/**
 * Usage history checker. Reads the run's `harness.usage` entries (one per reported batch: its
 * units and whether the reporter acknowledged them), `harness.usage.totals` (how many times the
 * service counted each unit once everything was processed) and the `http` requests that carried
 * them. Acknowledged units must be counted exactly once, unacknowledged ones at most once, every
 * unit must end acknowledged, and the meter total must lie within the bounds those imply.
 *
 * @example
 * checkUsage(sim.trace.entries()) // [] when every acknowledged unit was billed once
 */
export function checkUsage(entries: readonly TraceEntry[]): Violation[] {
  const out: Violation[] = []
  const units = new Map<string, { unit: Unit; batch: TraceEntry }>()
  const totals = new Map<string, { count: number; sum: number }>()
  let totalsEntry: TraceEntry | undefined
  const requests: TraceEntry[] = []
  for (const e of entries) {
    if (e.kind === 'harness.usage') {
      for (const u of e.data.units as readonly Unit[]) units.set(u.id, { unit: u, batch: e })
    } else if (e.kind === 'harness.usage.totals') {
      totalsEntry = e
      for (const t of e.data.units as readonly { id: string; count: number; sum: number }[]) totals.set(t.id, t)
    } else if (e.kind === 'http' && e.data.status !== undefined && Number(e.data.status) < 300) {
      if (str(e.data.operation).startsWith('billing.meter_event')) requests.push(e)
    }
  }
  // One pass over the accepted requests: which of them carried each unit's customer.
  const byCustomer = new Map<string, TraceEntry[]>()
  const customers = new Set<string>()
  for (const { unit } of units.values()) customers.add(unit.customer)
  const carried = (customer: string, r: TraceEntry) => {
    if (!customers.has(customer)) return
    const list = byCustomer.get(customer) ?? []
    if (list[list.length - 1] !== r) list.push(r)
    byCustomer.set(customer, list)
  }
  for (const r of requests) {
    const text = str(r.data.request)
    let parsed: { events?: { payload?: Record<string, unknown> }[] } | undefined
    try {
      parsed = JSON.parse(text) as typeof parsed
    } catch {
      parsed = undefined
    }
    if (Array.isArray(parsed?.events)) {
      for (const ev of parsed.events) for (const v of Object.values(ev?.payload ?? {})) if (typeof v === 'string') carried(v, r)
    } else {
      // Not a JSON event batch (a v1 form body): any quoted or encoded value may name the customer.
      for (const m of text.matchAll(/[A-Za-z0-9_]+/g)) carried(m[0], r)
    }
  }
  let low = 0
  let high = 0
  let total = 0
  for (const [id, { unit, batch }] of units) {
    const t = totals.get(id)
    const count = t?.count ?? 0
    total += t?.sum ?? 0
    const acked = batch.data.outcome === 'acked'
    high += unit.value
    if (acked) low += unit.value
    const witness = [batch, ...(totalsEntry ? [totalsEntry] : []), ...(byCustomer.get(unit.customer) ?? [])]
    if (acked && count !== 1) {
      out.push(violation('usage.exactly_once', `acknowledged usage ${id} was counted ${count} times`, witness))
    } else if (!acked && count > 1) {
      out.push(violation('usage.at_most_once', `unacknowledged usage ${id} was counted ${count} times`, witness))
    }
    if (!acked) {
      out.push(
        violation(
          'usage.acknowledged',
          `usage ${id} was never acknowledged (${str(batch.data.outcome)}: ${str(batch.data.error ?? '')})`,
          [batch],
        ),
      )
    }
  }
  if (units.size > 0 && (total < low || total > high)) {
    out.push(violation('usage.bounds', `meter total ${total} outside [${low}, ${high}]`, totalsEntry ? [totalsEntry] : []))
  }
  return out
}
