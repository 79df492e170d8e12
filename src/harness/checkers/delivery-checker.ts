import type { TraceEntry } from '#kernel/trace.js'
import { type Violation, violation } from './violation.js'

/** Trace kinds a delivery history is written with. */
export interface DeliveryKinds {
  /** Kind of an event sent to the receiver (its `event` field names it). */
  readonly emitted: string
  readonly attempt: string
  readonly exhausted: string
  /** Attempts the whole retry window makes. */
  readonly maxAttempts: number
}

/** The kinds the harness's delivery channel writes. */
export const channelKinds: DeliveryKinds = {
  emitted: 'harness.emitted',
  attempt: 'harness.delivery',
  exhausted: 'harness.delivery.exhausted',
  maxAttempts: 5,
}

/**
 * Delivery checker: every event reaches its destination with a 2xx, or is Failed after the whole
 * retry window with every attempt recorded (numbered 1..n without gaps, n = `maxAttempts`).
 *
 * @example
 * checkDeliveries(sim.trace.entries(), channelKinds)
 */
export function checkDeliveries(entries: readonly TraceEntry[], kinds: DeliveryKinds = channelKinds): Violation[] {
  const out: Violation[] = []
  const emitted = new Map<string, TraceEntry>()
  const attempts = new Map<string, TraceEntry[]>()
  const exhausted = new Map<string, TraceEntry>()
  for (const e of entries) {
    const id = String(e.data.event)
    if (e.kind === kinds.emitted) emitted.set(id, e)
    else if (e.kind === kinds.attempt && e.data.replay !== true && e.data.duplicate !== true) {
      const list = attempts.get(id) ?? []
      list.push(e)
      attempts.set(id, list)
    } else if (e.kind === kinds.exhausted) exhausted.set(id, e)
  }
  for (const [id, origin] of emitted) {
    const list = attempts.get(id) ?? []
    if (list.some((a) => a.data.outcome === 'delivered')) continue
    const end = exhausted.get(id)
    if (end === undefined) {
      out.push(violation('delivery.outcome', `event ${id} was neither delivered nor Failed`, [origin, ...list.slice(-1)]))
      continue
    }
    const numbers = list.map((a) => Number(a.data.attempt))
    const complete = list.length === kinds.maxAttempts && numbers.every((n, i) => n === i + 1)
    if (!complete) {
      out.push(
        violation(
          'delivery.attempts',
          `event ${id} Failed after ${list.length} recorded attempts (${kinds.maxAttempts} expected)`,
          [origin, end],
        ),
      )
    }
  }
  return out
}
