import { SYNCHRONOUS_TYPES } from '../destinations/destination-rules.js'
import { routes } from '../destinations/routing.js'
import type { StoredEvent } from '../event.js'
import type { AttemptSchedule } from './attempt-schedule.js'
import { decide } from './attempts.js'
import { PING_TYPE } from './constants.js'
import type { DeliveryContext } from './delivery-context.js'
import type { DeliveryRecord } from './delivery-record.js'
import { openRecord } from './new-record.js'
import { createRedundantEvents } from './redundant-events.js'

/**
 * Routing of every new event: a delivery record and a first attempt for each destination that
 * takes it (see `routes`), with the fault knobs' reordering delay and duplicate and the fault
 * hooks' decision for attempt 1, and a redundant twin of the event when the knob or the hooks
 * ask for one; an EventBridge destination's event is put on its virtual bus
 * (traced as `eventbridge.put`). Pings and synchronous events are delivered by their callers.
 *
 * @example
 * events.subscribe(createFanOut(ctx, schedule))
 */
export function createFanOut(ctx: DeliveryContext, schedule: AttemptSchedule): (event: StoredEvent) => void {
  const twins = createRedundantEvents(ctx)
  const { clock, trace } = ctx.kernel
  const reorderDelay = (): number => (ctx.faults.reorderWindowMs > 0 ? ctx.faultRng().int(ctx.faults.reorderWindowMs) : 0)

  function first(event: StoredEvent, r: DeliveryRecord): void {
    // Scheduled or injected delivery faults of the harness (one-shot, traced as `fault` there).
    const forced = decide(ctx, r, 1)
    const delay = reorderDelay() + (forced?.delayMs ?? 0)
    const d = r.destinationId
    if (delay > 0) trace.append('delivery.fault', { kind: 'reorder', event: event.id, destination: d, delay })
    trace.append('delivery.scheduled', { event: event.id, destination: d, due: clock.now + delay })
    schedule.attempt(r, clock.now + delay, 'automatic', forced)
    schedule.horizon(r, clock.now + delay)
    if (forced?.duplicate === true || (ctx.faults.duplicateRate > 0 && ctx.faultRng().chance(ctx.faults.duplicateRate))) {
      const extra = reorderDelay()
      trace.append('delivery.fault', { kind: 'duplicate', event: event.id, destination: d, delay: extra })
      schedule.attempt(r, clock.now + extra, 'duplicate')
    }
  }

  return (event) => {
    ctx.index.seen(event)
    if (event.type === PING_TYPE || SYNCHRONOUS_TYPES.has(event.type)) return
    if (twins.rolls(event)) queueMicrotask(() => twins.emit(event))
    for (const d of ctx.destinations.all()) {
      if (!routes(d, event, ctx.accounts)) continue
      // An EventBridge destination has no receiver to attempt: the event goes on its bus at once.
      if (d.type === 'amazon_eventbridge') {
        trace.append('eventbridge.put', { event: event.id, destination: d.id, account: event.account, mode: event.mode })
      } else first(event, openRecord(ctx, event, d))
    }
  }
}
