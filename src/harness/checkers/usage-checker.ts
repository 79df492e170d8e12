import type { TraceEntry } from '#kernel/trace.js'
import { type Violation, violation } from './violation.js'

const str = (v: unknown) => String(v)

/**
 * Usage history checker. Reads the run's `harness.usage` entries (each unit and whether the
 * reporter acknowledged it), `harness.usage.total` (how many times the service counted it once
 * everything was processed) and the `http` requests that carried it. Acknowledged units must be
 * counted exactly once, unacknowledged ones at most once, every unit must end acknowledged, and the
 * meter total must lie within the bounds those imply.
 *
 * @example
 * checkUsage(sim.trace.entries()) // [] when every acknowledged unit was billed once
 */
export function checkUsage(entries: readonly TraceEntry[]): Violation[] {
  const out: Violation[] = []
  const units = new Map<string, TraceEntry>()
  const totals = new Map<string, TraceEntry>()
  const requests: TraceEntry[] = []
  for (const e of entries) {
    if (e.kind === 'harness.usage') units.set(str(e.data.id), e)
    else if (e.kind === 'harness.usage.total') totals.set(str(e.data.id), e)
    else if (e.kind === 'http' && str(e.data.operation).startsWith('billing.meter_event')) requests.push(e)
  }
  // One pass over the accepted requests: which of them carried each unit's customer.
  const byCustomer = new Map<string, TraceEntry[]>()
  const customers = new Set([...units.values()].map((u) => `"${str(u.data.customer)}"`))
  for (const r of requests) {
    if (Number(r.data.status) >= 300) continue
    for (const m of str(r.data.request).matchAll(/"[^"\\]*"/g)) {
      if (!customers.has(m[0])) continue
      const list = byCustomer.get(m[0]) ?? []
      if (list[list.length - 1] !== r) list.push(r)
      byCustomer.set(m[0], list)
    }
  }
  const carrying = (customer: string) => byCustomer.get(`"${customer}"`) ?? []
  let low = 0
  let high = 0
  let total = 0
  for (const [id, unit] of units) {
    const t = totals.get(id)
    const count = Number(t?.data.count ?? 0)
    const value = Number(unit.data.value)
    total += Number(t?.data.sum ?? 0)
    const acked = unit.data.outcome === 'acked'
    high += value
    if (acked) low += value
    const witness = [unit, ...(t ? [t] : []), ...carrying(str(unit.data.customer))]
    if (acked && count !== 1) {
      out.push(violation('usage.exactly_once', `acknowledged usage ${id} was counted ${count} times`, witness))
    } else if (!acked && count > 1) {
      out.push(violation('usage.at_most_once', `unacknowledged usage ${id} was counted ${count} times`, witness))
    }
    if (!acked) {
      out.push(
        violation(
          'usage.acknowledged',
          `usage ${id} was never acknowledged (${str(unit.data.outcome)}: ${str(unit.data.error ?? '')})`,
          [unit],
        ),
      )
    }
  }
  if (units.size > 0 && (total < low || total > high)) {
    out.push(violation('usage.bounds', `meter total ${total} outside [${low}, ${high}]`, [...totals.values()]))
  }
  return out
}
