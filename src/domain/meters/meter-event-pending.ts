import { type Scope, scopeKey } from '../mode.js'
import { type CheckedEvent, checkEvent } from './meter-event-rules.js'
import { DUPLICATE, type MeterEventState, type PendingBatch } from './meter-event-state.js'
import type { PendingEvent, StreamEvent } from './meter-event-types.js'
import type { Meters } from './meters.js'

/**
 * Accepted, unprocessed events of a scope that will count when processed, as far as can be judged
 * now (valid against their meter, not duplicates, not cancelled); with `only`, the events carrying
 * that identifier, cancelled or not.
 *
 * @example
 * pendingEvents(meters, state, scope).reduce((n, e) => n + e.value, 0)
 */
export function pendingEvents(meters: Meters, state: MeterEventState, scope: Scope, only?: string): PendingEvent[] {
  const key = scopeKey(scope)
  const cancels = state.pendingCancels.get(key)
  const out: PendingEvent[] = []
  for (const p of state.pendingSync) {
    if (p.key !== key) continue
    if (only !== undefined ? p.identifier !== only : cancels?.has(p.identifier) === true) continue
    out.push({ meter: p.meter, customer: p.customer, timestamp: p.timestamp, value: p.value })
  }
  for (const b of state.pendingBatches) {
    if (b.key === key) pendingOfBatch(meters, b, cancels, only, out)
  }
  return out
}

function pendingOfBatch(
  meters: Meters,
  b: PendingBatch,
  cancels: ReadonlySet<string> | undefined,
  only: string | undefined,
  out: PendingEvent[],
): void {
  const probe: CheckedEvent = { problem: undefined, customer: '', value: 0 }
  for (let i = 0; i < b.events.length; i++) {
    const ev = b.events[i] as StreamEvent
    if (only !== undefined && ev.identifier !== only) continue
    if (only === undefined && ev.identifier !== undefined) {
      if (b.slots?.[i] === DUPLICATE || cancels?.has(ev.identifier) === true) continue
    }
    const meter = meters.byEventName(b.scope, ev.event_name)
    const given = b.timestamps === undefined ? Number.NaN : (b.timestamps[i] as number)
    const timestamp = Number.isNaN(given) ? b.receivedAt : given
    const c = checkEvent(meter, ev.payload, timestamp, b.receivedAt, probe)
    if (c.problem !== undefined || meter === undefined) continue
    out.push({ meter: meter.id, customer: c.customer, timestamp, value: c.value })
  }
}
