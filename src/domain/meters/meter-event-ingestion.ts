import { METER_EVENTS_CONCURRENCY_PER_CUSTOMER_METER } from '#catalogue/rules.js'
import type { Ids } from '#kernel/ids.js'
import type { InFlightRequest, RequestTimeline } from '#kernel/request-timeline.js'
import type { Kernel } from '../kernel-parts.js'
import { type Scope, scopeKey } from '../mode.js'
import type { MeterProcessing } from './meter-event-processing.js'
import type { MeterEventSchedule } from './meter-event-schedule.js'
import { DUPLICATE, type MeterEventState, NO_IDENTIFIER, type PendingBatch, type PendingSync } from './meter-event-state.js'
import type { AcceptedMeterEvent, MeterEventInput, StreamEvent } from './meter-event-types.js'
import type { Meters } from './meters.js'
import { concurrentCall, duplicateEvent, validateSyncEvent } from './sync-validation.js'

/** The two ways events come in: one checked at once, or a batch accepted for later. */
export interface MeterEventIngestion {
  create(scope: Scope, input: MeterEventInput, flight?: InFlightRequest): AcceptedMeterEvent
  ingest(scope: Scope, events: readonly StreamEvent[], timestamps?: readonly number[]): void
}

interface IngestionParts {
  readonly kernel: Kernel
  readonly timeline: RequestTimeline
  readonly meters: Meters
  readonly state: MeterEventState
  readonly schedule: MeterEventSchedule
  readonly processing: MeterProcessing
  /** Identifiers the service generates (their own seeded stream, so they never shift object ids). */
  readonly generated: Ids
}

/**
 * Accepts meter events. Both paths take an event's identifier when it is submitted: the first
 * submission holds it for 24 hours, and a later one is the duplicate, whatever order the (seeded,
 * delayed) processing takes.
 *
 * @example
 * const ingestion = createIngestion({ kernel, timeline, meters, state, schedule, processing, generated })
 * ingestion.ingest(scope, [{ identifier: 'e1', event_name: 'api_call', payload }])
 */
export function createIngestion(parts: IngestionParts): MeterEventIngestion {
  const { kernel, timeline, meters, state, schedule, processing, generated } = parts

  function create(scope: Scope, input: MeterEventInput, flight?: InFlightRequest): AcceptedMeterEvent {
    const now = kernel.clock.now
    const timestamp = input.timestamp ?? now
    const found = meters.byEventName(scope, input.event_name)
    const { meter, customer, value } = validateSyncEvent(found, input.event_name, input.payload, timestamp, now)
    const idx = state.index(scope)
    idx.sweep(now)
    if (input.identifier !== undefined && idx.has(input.identifier, now)) throw duplicateEvent(input.identifier)
    const lock = `meter:${scopeKey(scope)}:${meter.id}:${customer}`
    if (flight !== undefined && !timeline.hold(flight, lock, METER_EVENTS_CONCURRENCY_PER_CUSTOMER_METER)) {
      throw concurrentCall(customer, meter.id)
    }
    const identifier = input.identifier ?? generated.next('mev', 24)
    // Generated identifiers are held too: the caller may cancel the event by the one it got.
    const slot = idx.take(identifier, now)
    schedule.armSweep()
    state.counts.pendingEvents++
    const key = scopeKey(scope)
    const pending: PendingSync = { key, meter: meter.id, customer, identifier, slot, timestamp, value }
    state.pendingSync.add(pending)
    processing.one.after(schedule.delay(), pending)
    return { eventName: input.event_name, identifier, payload: input.payload, timestamp, created: now, mode: scope.mode }
  }

  function ingest(scope: Scope, events: readonly StreamEvent[], timestamps?: readonly number[]): void {
    const receivedAt = kernel.clock.now
    const key = scopeKey(scope)
    const idx = state.indexByKey(key)
    idx.sweep(receivedAt)
    const n = events.length
    const slots = new Array<number>(n)
    for (let i = 0; i < n; i++) {
      const identifier = (events[i] as StreamEvent).identifier
      if (identifier === undefined) slots[i] = NO_IDENTIFIER
      else {
        const slot = idx.take(identifier, receivedAt)
        slots[i] = slot < 0 ? DUPLICATE : slot
      }
    }
    // The sweep is armed when the batch is processed, as the stream always has been.
    state.counts.pendingEvents += n
    const pending: PendingBatch = {
      scope: { account: scope.account, mode: scope.mode },
      key,
      events,
      timestamps,
      slots,
      receivedAt,
      id: state.counts.batches++,
    }
    state.pendingBatches.add(pending)
    processing.many.after(schedule.delay(), pending)
  }

  return { create, ingest }
}
