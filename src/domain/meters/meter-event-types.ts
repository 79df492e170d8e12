import type { InFlightRequest } from '#kernel/request-timeline.js'
import type { Scope } from '../mode.js'
import type { Aggregates, AggregateValue } from './aggregates.js'
import type { Meter } from './meter.js'

/** A meter event as the synchronous endpoints take it, after the catalogue checked its types. */
export interface MeterEventInput {
  readonly event_name: string
  readonly payload: Record<string, unknown>
  readonly identifier?: string | undefined
  /** Epoch ms; defaults to now. */
  readonly timestamp?: number | undefined
}

/**
 * One item of a stream request as decoded from JSON, shape-checked at the boundary (the decoded
 * object itself, not a copy); its meaning is checked when processed. Its `timestamp` is read from
 * the batch's parsed `timestamps`.
 */
export interface StreamEvent {
  readonly identifier?: string
  readonly event_name: string
  readonly payload: Record<string, unknown>
  readonly timestamp?: string
}

/** An accepted synchronous meter event. */
export interface AcceptedMeterEvent {
  readonly eventName: string
  readonly identifier: string
  readonly payload: Record<string, unknown>
  readonly timestamp: number
  readonly created: number
  readonly mode: Scope['mode']
}

/** Counters of the metering pipeline, for inspection and benchmarks. */
export interface MeterEventStats {
  /** Accepted events not yet processed. */
  readonly pendingEvents: number
  readonly processedEvents: number
  readonly invalidEvents: number
  /** Stream events dropped because their identifier was submitted earlier in the last 24 hours. */
  readonly duplicateEvents: number
  /** Identifiers remembered by the rolling 24-hour indexes. */
  readonly identifiers: number
  /** Events an adjustment cancelled (taken out of the aggregates, or never added). */
  readonly cancelledEvents: number
}

/** A meter event adjustment (`type: 'cancel'`): pending until processed, then complete. */
export interface MeterEventAdjustment {
  readonly id: string
  readonly eventName: string
  readonly identifier: string
  readonly created: number
  readonly mode: Scope['mode']
  status: 'pending' | 'complete'
}

/** A cancelled event, for inspection: which meter and customer, its timestamp and value. */
export interface CancelledEvent {
  readonly meter: string
  readonly customer: string
  readonly identifier: string
  readonly timestamp: number
  readonly value: number
  /** Whether it had reached the aggregates before it was cancelled. */
  readonly wasProcessed: boolean
}

/** An accepted event not processed yet, as far as it can be judged now (for inspection). */
export interface PendingEvent {
  readonly meter: string
  readonly customer: string
  readonly timestamp: number
  readonly value: number
}

/** What processing needs of the lock manager: when a held object is free again. */
export interface MeterLocks {
  heldUntil(objectId: string): number | undefined
  readonly size: number
}

/**
 * Meter events, on both ingestion paths. The synchronous path validates at once (every code of the
 * spec's table, one call per customer and meter at a time) and processes later; the stream path
 * accepts a batch at once and validates and processes it later, reporting invalid events as thin
 * `v1.billing.meter.error_report_triggered` / `v1.billing.meter.no_meter_found` events. Both take
 * an event's identifier when it is submitted, so the first submission holds it for 24 hours
 * whatever order processing takes. Processing happens after a delay drawn from the seeded
 * `meter-processing` stream; only processed events reach the aggregates.
 *
 * @example
 * meterEvents.create(scope, { event_name: 'api_call', payload: { service_customer_id: 'cus_1', value: '3' } }, flight)
 * meterEvents.ingest(scope, [{ identifier: 'e1', event_name: 'api_call', payload }])
 * await clock.tickAsync(METER_PROCESSING_DELAY.max) // now both count
 */
export interface MeterEvents {
  create(scope: Scope, input: MeterEventInput, flight?: InFlightRequest): AcceptedMeterEvent
  /**
   * Accepts a batch for later processing. `timestamps[i]` is event i's time in epoch ms (NaN: the
   * time of receipt); omitted when no event carries one.
   */
  ingest(scope: Scope, events: readonly StreamEvent[], timestamps?: readonly number[]): void
  /** Processed usage of one meter and customer with timestamps in [start, end). */
  window(meter: Pick<Meter, 'id'>, customer: string, start: number, end: number): AggregateValue
  /**
   * Cancels an event by identifier (`billing.meter_event_adjustment`): refused at once when no
   * event with that identifier and event name was received in the last 24 hours; applied after the
   * processing delay, whether the event was processed already (taken out of the aggregates) or not
   * (never added).
   */
  adjust(scope: Scope, input: { eventName: string; identifier: string }): MeterEventAdjustment
  /** Cancelled events of one account and mode, oldest first. */
  cancelled(scope: Scope): readonly CancelledEvent[]
  /** Accepted, not yet processed events that will count (valid, not duplicate, not cancelled as far as known now). */
  pending(scope: Scope): PendingEvent[]
  stats(): MeterEventStats
  readonly aggregates: Aggregates
  /** Makes processing wait while a meter it writes is locked (by a request or an internal holder). */
  useLocks(locks: MeterLocks): void
  /** Calls `listener` after each processing task that counted usage (billing alerts watch it). */
  onProcessed(listener: ProcessedListener): void
}

/**
 * What one processing task counted: a synchronous event's meter and customer, or a stream
 * request's events (their customers are read only by a listener that needs them).
 *
 * @example
 * const usage: ProcessedUsage = { kind: 'one', key: 'acct_1|test', meter: 'mtr_1', customer: 'cus_1' }
 */
export type ProcessedUsage =
  | { readonly kind: 'one'; readonly key: string; readonly meter: string; readonly customer: string }
  | { readonly kind: 'many'; readonly key: string; readonly events: readonly StreamEvent[] }

/**
 * Told of processed usage (see {@link MeterEvents.onProcessed}).
 *
 * @example
 * meterEvents.onProcessed((usage) => { if (usage.kind === 'one') watch(usage.meter, usage.customer) })
 */
export type ProcessedListener = (usage: ProcessedUsage) => void
