import type { TraceEntry } from '#kernel/index.js'
import { refuseNotEntries } from '../validate-input.js'
import { traceChecker } from './checker.js'
import { type Violation, violation } from './violation.js'

interface Sent {
  readonly id: string
  readonly customer: string
  readonly value: number
  readonly acked: boolean
  readonly from: number
  readonly to: number
  readonly entry: TraceEntry
}

interface Line {
  readonly customer: string
  readonly start: number
  readonly end: number
  readonly quantity: number
  readonly amount: number
  readonly unitAmount: number
  readonly invoice: string
  readonly entry: TraceEntry
}

function readBilling(entries: readonly TraceEntry[]): { sent: Sent[]; cancelled: Map<string, TraceEntry>; lines: Line[] } {
  const sent: Sent[] = []
  const cancelled = new Map<string, TraceEntry>()
  const lines: Line[] = []
  for (const e of entries) {
    if (e.kind === 'harness.billing.usage') {
      const d = e.data as unknown as {
        units: { id: string; customer: string; value: number }[]
        outcome: string
        from: number
        to: number
      }
      for (const u of d.units) sent.push({ ...u, acked: d.outcome === 'acked', from: d.from, to: d.to, entry: e })
    } else if (e.kind === 'harness.billing.cancelled') {
      for (const id of e.data.units as readonly string[]) cancelled.set(id, e)
    } else if (e.kind === 'harness.billing.line') {
      const d = e.data as unknown as Omit<Line, 'entry'>
      lines.push({ ...d, entry: e })
    }
  }
  return { sent, cancelled, lines }
}

/** One customer's usage (not cancelled) and invoice lines, and the witnesses of a finding about them. */
interface CustomerBilling {
  readonly customer: string
  readonly units: readonly Sent[]
  readonly own: readonly Line[]
  witness(extra: readonly TraceEntry[]): TraceEntry[]
}

const sum = (list: readonly Sent[]) => list.reduce((n, u) => n + u.value, 0)

function exactlyOnce({ customer, units, own, witness }: CustomerBilling): Violation[] {
  const low = sum(units.filter((u) => u.acked))
  const high = sum(units)
  const billed = own.reduce((n, l) => n + l.quantity, 0)
  if (billed >= low && billed <= high) return []
  const most = high > low ? ` (at most ${high} with unacknowledged usage)` : ''
  const what = `customer ${customer}: invoices billed ${billed} units, acknowledged non-cancelled usage is ${low}${most}`
  return [violation('billing.exactly_once', what, witness(own.map((l) => l.entry)))]
}

// A period may be billed on more than one invoice (the subscription's first invoice carries a
// zero line for the period it opens; the period-end invoice bills it): compare per period.
function perPeriod({ customer, units, own, witness }: CustomerBilling): Violation[] {
  const periods = new Map<string, Line[]>()
  for (const l of own) {
    const k = `${l.start}|${l.end}`
    periods.set(k, [...(periods.get(k) ?? []), l])
  }
  const out: Violation[] = []
  for (const group of periods.values()) {
    const { start, end } = group[0] as Line
    const quantity = group.reduce((n, l) => n + l.quantity, 0)
    const inside = sum(units.filter((u) => u.acked && u.from >= start && u.to < end))
    const touching = sum(units.filter((u) => u.to >= start && u.from < end))
    if (quantity >= inside && quantity <= touching) continue
    const span = { start, end }
    const what = `customer ${customer}: invoice(s) ${group.map((l) => l.invoice).join(', ')} billed ${quantity} units for ${iso(start)}..${iso(end)}; usage of that period is ${inside}${touching > inside ? ` to ${touching}` : ''}`
    const seen = witness(group.map((l) => l.entry)).filter((e) => e.kind !== 'harness.billing.usage' || touches(e, span))
    out.push(violation('billing.period', what, seen))
  }
  return out
}

function amounts({ own }: CustomerBilling): Violation[] {
  return own
    .filter((l) => l.amount !== l.quantity * l.unitAmount)
    .map((l) =>
      violation(
        'billing.amount',
        `invoice ${l.invoice}: ${l.quantity} units at ${l.unitAmount} should be ${l.quantity * l.unitAmount}, billed ${l.amount}`,
        [l.entry],
      ),
    )
}

/** Acknowledged usage sent wholly inside a time no line covers was never billed. */
function unbilled({ customer, units, own }: CustomerBilling): Violation[] {
  const uncovered = units.filter(
    (u) => u.acked && !own.some((l) => u.from >= l.start && u.to < l.end) && !own.some((l) => u.to >= l.start && u.from < l.end),
  )
  if (uncovered.length === 0 || own.length === 0) return []
  const ids = uncovered
    .map((u) => u.id)
    .slice(0, 5)
    .join(', ')
  const what = `customer ${customer}: ${uncovered.length} acknowledged unit(s) (${ids}) fall in no invoiced period`
  return [
    violation(
      'billing.unbilled',
      what,
      uncovered.map((u) => u.entry),
    ),
  ]
}

/**
 * Billing history checker: "every acknowledged unit is billed exactly once, in the period of its
 * timestamp, at the price of the subscription item". Reads `harness.billing.usage` (each batch, its
 * outcome and the virtual-time window it was sent in: the service stamps an event when it accepts
 * it, somewhere in that window), `harness.billing.cancelled` (units the client cancelled with an
 * acknowledged adjustment) and `harness.billing.line` (the invoice lines of the run). Per customer:
 *
 * - `billing.exactly_once`: the lines' quantities add up to the acknowledged, non-cancelled usage
 *   (plus at most the unacknowledged usage, which may or may not have been taken);
 * - `billing.period`: each line's quantity lies between the usage sent wholly inside its period and
 *   the usage whose window touches it;
 * - `billing.unbilled`: a period that holds acknowledged usage has a line;
 * - `billing.amount`: each line's amount is its quantity times the item's unit amount.
 *
 * @example
 * checkBilling(sim.trace.entries()) // [] when every acknowledged unit was billed once, in its period, at its price
 */
export function checkBilling(entries: readonly TraceEntry[]): Violation[] {
  refuseNotEntries('checkBilling', entries)
  const { sent, cancelled, lines } = readBilling(entries)
  const customers = new Set([...sent.map((s) => s.customer), ...lines.map((l) => l.customer)])
  return [...customers].sort().flatMap((customer) => {
    const units = sent.filter((s) => s.customer === customer && !cancelled.has(s.id))
    const own = lines.filter((l) => l.customer === customer).sort((a, b) => a.start - b.start)
    const cancelledOf = sent.filter((s) => s.customer === customer && cancelled.has(s.id))
    const witness = (extra: readonly TraceEntry[]) => [
      ...extra,
      ...units.map((u) => u.entry),
      ...cancelledOf.map((s) => cancelled.get(s.id) as TraceEntry),
    ]
    const c: CustomerBilling = { customer, units, own, witness }
    return [...exactlyOnce(c), ...perPeriod(c), ...amounts(c), ...unbilled(c)]
  })
}

function touches(e: TraceEntry, l: { start: number; end: number }): boolean {
  const d = e.data as { from?: number; to?: number }
  return (d.to ?? 0) >= l.start && (d.from ?? 0) < l.end
}

function iso(t: number): string {
  return new Date(t).toISOString()
}

/**
 * The billing checker as a `Checker` (scenario name `billing`).
 *
 * @example
 * await billingChecker.check({ entries: sim.trace.entries(), requests: [], deliveries: [] })
 */
export const billingChecker = traceChecker('billing', checkBilling, 'every processed usage invoiced once at its price')
