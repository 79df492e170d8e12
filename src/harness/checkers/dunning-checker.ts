import type { TraceEntry } from '#kernel/index.js'
import { traceChecker } from './checker.js'
import { type Violation, violation } from './violation.js'

interface Cycle {
  /** The first accepted `invoice.payment_failed` of the invoice, and whether it came before any accepted `invoice.paid`. */
  failed?: TraceEntry
  paid?: TraceEntry
  customer?: string
  notices: TraceEntry[]
  restores: TraceEntry[]
}

/**
 * Judges a dunning client over its run's trace: the events it accepted (`harness.flow.ack`) and what
 * it told customers (`harness.dunning.notice`, `harness.dunning.restore`). An invoice's attempt
 * cycle starts with the first `invoice.payment_failed` the client accepted while it had not yet
 * accepted the invoice's `invoice.paid`.
 *
 * - `dunning.notice_once`: exactly one notice per cycle (none for an invoice with no cycle, none
 *   once the client accepted the invoice's `invoice.paid`).
 * - `dunning.restored_once`: exactly one restore per cycle whose `invoice.paid` the client accepted;
 *   none otherwise (a message sent while handling an event is recorded before the event's acceptance).
 *
 * @example
 * checkDunningTrace(sim.trace.entries()) // []
 */
export function checkDunningTrace(entries: readonly TraceEntry[]): Violation[] {
  const cycles = new Map<string, Cycle>()
  const cycle = (invoice: string) => {
    let c = cycles.get(invoice)
    if (c === undefined) {
      c = { notices: [], restores: [] }
      cycles.set(invoice, c)
    }
    return c
  }
  for (const e of entries) {
    if (e.kind === 'harness.flow.ack') {
      const object = String(e.data.object)
      if (e.data.type === 'invoice.payment_failed') {
        const c = cycle(object)
        if (c.paid === undefined) c.failed ??= e
      } else if (e.data.type === 'invoice.paid') {
        const c = cycle(object)
        c.paid ??= e
      }
    } else if (e.kind === 'harness.dunning.notice') {
      cycle(e.data.invoice).notices.push(e)
    } else if (e.kind === 'harness.dunning.restore') {
      cycle(e.data.invoice).restores.push(e)
    }
  }
  const out: Violation[] = []
  for (const [invoice, c] of cycles) {
    const expected = c.failed === undefined ? 0 : 1
    const late = c.paid === undefined ? [] : c.notices.filter((n) => n.seq > (c.paid?.seq ?? 0))
    if (late.length > 0) {
      out.push(
        violation('dunning.notice_once', `${invoice}: a payment failure notice after the invoice was paid`, [
          c.paid as TraceEntry,
          ...late,
        ]),
      )
    } else if (c.notices.length !== expected) {
      out.push(
        violation(
          'dunning.notice_once',
          expected === 0
            ? `${invoice}: ${c.notices.length} notice(s) for an invoice whose payment never failed`
            : `${invoice}: ${c.notices.length} notice(s) for one failed attempt cycle (expected 1)`,
          [...(c.failed ? [c.failed] : []), ...c.notices],
        ),
      )
    }
    const restoresExpected = c.failed !== undefined && c.paid !== undefined ? 1 : 0
    if (c.restores.length !== restoresExpected) {
      out.push(
        violation(
          'dunning.restored_once',
          restoresExpected === 0
            ? `${invoice}: ${c.restores.length} restore(s) ${c.failed === undefined ? 'for an invoice that never failed' : 'before the invoice was paid'}`
            : `${invoice}: restored ${c.restores.length} time(s) after it was paid (expected 1)`,
          [...(c.paid ? [c.paid] : []), ...c.restores],
        ),
      )
    }
  }
  return out
}

/**
 * `dunning`: the checker form for scenarios and `checkerRegistry`.
 *
 * @example
 * dunningChecker.check({ entries, requests: [], deliveries: [] })
 */
export const dunningChecker = traceChecker(
  'dunning',
  checkDunningTrace,
  'one notice per failed attempt cycle, restored once when paid',
)
