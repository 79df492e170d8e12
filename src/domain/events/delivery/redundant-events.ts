import type { StoredEvent } from '../event.js'
import type { DeliveryContext } from './delivery-context.js'

/**
 * The redundant-event fault: a second, distinct event (new id) for the same change, as the spec
 * warns can happen. A twin is itself never twinned, so one change yields at most two events.
 *
 * @example
 * const twins = createRedundantEvents(ctx)
 * if (twins.rolls(event)) queueMicrotask(() => twins.emit(event))
 */
export function createRedundantEvents(ctx: DeliveryContext) {
  let emittingTwin = false

  function emitTwin(event: StoredEvent): StoredEvent {
    const body = event.body as Record<string, any>
    return event.kind === 'snapshot'
      ? ctx.events.snapshot({
          type: event.type,
          account: event.account,
          mode: event.mode,
          object: body.data?.object ?? {},
          ...(body.data?.previous_attributes ? { previousAttributes: body.data.previous_attributes } : {}),
        })
      : ctx.events.thin({
          type: event.type,
          account: event.account,
          mode: event.mode,
          ...(body.related_object ? { relatedObject: body.related_object } : {}),
          data: body.data ?? {},
        })
  }

  return {
    /**
     * True when this event gets a twin: never for a twin itself; else the knob draws (only when
     * on), then the fault hooks decide (a scheduled, injected or rate-drawn `redundant_event`).
     */
    rolls(event: StoredEvent): boolean {
      if (emittingTwin) return false
      const rate = ctx.faults.redundantEventRate
      if (rate > 0 && ctx.faultRng().chance(rate)) return true
      return ctx.faultHooks.redundantEvent?.({ event: event.id, type: event.type }) === true
    },
    emit(event: StoredEvent): void {
      emittingTwin = true
      let twin: StoredEvent
      try {
        twin = emitTwin(event)
      } finally {
        emittingTwin = false
      }
      ctx.kernel.trace.append('delivery.fault', { kind: 'redundant_event', event: event.id, twin: twin.id })
    },
  }
}
