import { createIds } from '#kernel/ids.js'
import type { RequestTimeline } from '#kernel/request-timeline.js'
import type { EventStore } from '../events/event-store.js'
import { type FaultHooks, noFaultHooks } from '../fault-hooks.js'
import type { Kernel } from '../kernel-parts.js'
import { scopeKey } from '../mode.js'
import { createAdjustments } from './meter-event-adjustments.js'
import { createIngestion } from './meter-event-ingestion.js'
import { pendingEvents } from './meter-event-pending.js'
import { createProcessing } from './meter-event-processing.js'
import { createMeterEventSchedule } from './meter-event-schedule.js'
import { createMeterEventState } from './meter-event-state.js'
import type { MeterEvents } from './meter-event-types.js'
import type { Meters } from './meters.js'

export { METER_PROCESSING_DELAY } from './meter-event-schedule.js'
export type {
  AcceptedMeterEvent,
  CancelledEvent,
  MeterEventAdjustment,
  MeterEventInput,
  MeterEventStats,
  MeterEvents,
  MeterLocks,
  PendingEvent,
  StreamEvent,
} from './meter-event-types.js'

/**
 * Meter events over one kernel, composed of modules of one concept each: validation
 * (`sync-validation`, `meter-event-rules`), ingestion (identifiers taken on submission), the
 * identifier index, processing (the seeded delay, locks, the stream's hot loop), adjustments and
 * the aggregates.
 *
 * @example
 * const meterEvents = createMeterEvents(kernel, timeline, meters, events)
 * meterEvents.ingest(scope, [{ identifier: 'e1', event_name: 'api_call', payload }])
 */
export function createMeterEvents(
  kernel: Kernel,
  timeline: RequestTimeline,
  meters: Meters,
  events: EventStore,
  faultHooks: FaultHooks = noFaultHooks,
): MeterEvents {
  const state = createMeterEventState(kernel)
  const schedule = createMeterEventSchedule(kernel, state, faultHooks)
  const generated = createIds(kernel.rng.stream('meter-identifiers'))
  const processing = createProcessing({ kernel, meters, events, state, schedule, generated })
  const ingestion = createIngestion({ kernel, timeline, meters, state, schedule, processing, generated })
  return {
    create: ingestion.create,
    ingest: ingestion.ingest,
    window: (meter, customer, start, end) => state.aggregates.window(meter.id, customer, start, end),
    stats() {
      let identifiers = 0
      for (const i of state.indexes.values()) identifiers += i.size
      const { pendingEvents, processedEvents, invalidEvents, duplicateEvents, cancelledEvents } = state.counts
      return { pendingEvents, processedEvents, invalidEvents, duplicateEvents, identifiers, cancelledEvents }
    },
    adjust: createAdjustments({ kernel, meters, state, schedule }),
    cancelled: (scope) => state.cancelledList.get(scopeKey(scope)) ?? [],
    pending: (scope) => pendingEvents(meters, state, scope),
    aggregates: state.aggregates,
    useLocks(locks) {
      state.locks = locks
    },
    onProcessed(listener) {
      state.processed = listener
    },
  }
}
