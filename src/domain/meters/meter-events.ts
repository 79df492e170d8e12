import { createIds, type Ids } from '#kernel/ids.js'
import { fromPlain, toPlain } from '#kernel/plain.js'
import type { InFlightRequest, RequestTimeline } from '#kernel/request-timeline.js'
import type { EventStore } from '../events/event-store.js'
import { type FaultHooks, noFaultHooks } from '../faults/fault-hooks.js'
import type { Kernel } from '../kernel.js'
import { type Scope, scopeKey } from '../mode.js'
import { invalidRequest, ServiceError } from '../service-error.js'
import { Aggregates, type AggregateValue } from './aggregates.js'
import { IDENTIFIER_WINDOW, IdentifierIndex } from './identifier-index.js'
import type { Meter } from './meter.js'
import { type BatchError, reportBatchErrors } from './meter-error-reports.js'
import { type CheckedEvent, checkEvent, problemMessage, SYNC_CODES } from './meter-event-rules.js'
import type { Meters } from './meters.js'

/** Range of the virtual delay between accepting meter events and processing them, in ms. */
export const METER_PROCESSING_DELAY = { min: 500, max: 5_000 } as const

/** A meter event as the synchronous endpoint takes it, after the boundary checked its types. */
export interface MeterEventInput {
  readonly eventName: string
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
  /** Stream events dropped because their identifier was taken in the last 24 hours. */
  readonly duplicateEvents: number
  /** Identifiers remembered by the rolling 24-hour indexes. */
  readonly identifiers: number
}

/**
 * Meter events, on both ingestion paths. The synchronous path validates at once (every code of the
 * spec's table, one call per customer and meter at a time) and processes later; the stream path
 * accepts a batch at once and validates and processes it later, reporting invalid events as thin
 * `v1.billing.meter.error_report_triggered` / `v1.billing.meter.no_meter_found` events. Processing
 * happens after a delay drawn from the seeded `meter-processing` stream; only processed events reach
 * the aggregates.
 *
 * @example
 * meterEvents.create(scope, { eventName: 'api_call', payload: { service_customer_id: 'cus_1', value: '3' } }, flight)
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
  window(meter: Meter, customer: string, start: number, end: number): AggregateValue
  stats(): MeterEventStats
  readonly aggregates: Aggregates
  /** Makes processing wait while a meter it writes is locked (by a request or an internal holder). */
  useLocks(locks: MeterLocks): void
}

/** What processing needs of the lock manager: when a held object is free again. */
export interface MeterLocks {
  heldUntil(objectId: string): number | undefined
  readonly size: number
}

export function createMeterEvents(
  kernel: Kernel,
  timeline: RequestTimeline,
  meters: Meters,
  events: EventStore,
  faultHooks: FaultHooks = noFaultHooks,
): MeterEvents {
  const latency = kernel.rng.stream('meter-processing')
  // Identifiers the service generates come from their own stream so they never shift object ids.
  const generated: Ids = createIds(kernel.rng.stream('meter-identifiers'))
  const aggregates = new Aggregates()
  const indexes = new Map<string, IdentifierIndex>()
  const checked: CheckedEvent = { problem: undefined, customer: '', value: 0 }
  let pendingEvents = 0
  let processedEvents = 0
  let invalidEvents = 0
  let duplicateEvents = 0
  let batches = 0
  let sweepArmed = false
  let locks: MeterLocks | undefined

  /**
   * Runs processing once none of `meterIds` is locked: a request changing the meter, or an internal
   * holder kept by a fault, makes the aggregates wait (processing is an internal process that
   * takes the meter's lock, as the limits issue asks).
   */
  // True (and the task scheduled again at `until`) while a meter's lock is held.
  function waitForLocks(meterIds: () => Iterable<string>, label: string, again: (until: number) => void): boolean {
    if (locks !== undefined && locks.size > 0) {
      let until = Number.NEGATIVE_INFINITY
      for (const id of meterIds()) until = Math.max(until, locks.heldUntil(id) ?? Number.NEGATIVE_INFINITY)
      if (until > kernel.clock.now) {
        kernel.trace.append('meter_events.waiting', { label, until })
        again(until)
        return true
      }
    }
    return false
  }

  const processOne = kernel.scheduler.define<{
    meter: string
    customer: string
    timestamp: number
    value: number
    identifier: string
  }>('meter_event.process', (a) => {
    if (
      waitForLocks(
        () => [a.meter],
        'meter_event.process',
        (until) => processOne.at(until, a),
      )
    )
      return
    pendingEvents--
    processedEvents++
    aggregates.add(a.meter, a.customer, a.timestamp, a.value)
    kernel.trace.append('meter_events.processed', { source: 'sync', meter: a.meter, identifier: a.identifier, accepted: 1 })
  })

  interface BatchArgs {
    readonly scope: Scope
    readonly batch: readonly StreamEvent[]
    readonly timestamps: readonly number[] | undefined
    readonly receivedAt: number
    readonly id: number
  }
  const processMany = kernel.scheduler.define<BatchArgs>('meter_events.process', (a) => {
    const meterIds = () => {
      const ids = new Set<string>()
      for (const e of a.batch) {
        const m = meters.byEventName(a.scope, e.event_name)
        if (m !== undefined) ids.add(m.id)
      }
      return ids
    }
    if (waitForLocks(meterIds, 'meter_events.process', (until) => processMany.at(until, a))) return
    processBatch(a.scope, a.batch, a.timestamps, a.receivedAt, a.id)
  })

  const sweepTask = kernel.scheduler.define<Record<string, never>>('meter.identifiers.sweep', () => {
    sweepArmed = false
    for (const i of indexes.values()) i.sweep(kernel.clock.now)
    armSweep()
  })

  kernel.state.register('meter_events', {
    save: () =>
      toPlain({
        counts: { pendingEvents, processedEvents, invalidEvents, duplicateEvents, batches, sweepArmed },
        indexes: [...indexes].map(([k, i]) => [k, i.save()]),
        aggregates: aggregates.save(),
      }),
    load(data) {
      const saved = fromPlain<{
        counts: {
          pendingEvents: number
          processedEvents: number
          invalidEvents: number
          duplicateEvents: number
          batches: number
          sweepArmed: boolean
        }
        indexes: [string, { ids: string[]; times: number[] }][]
        aggregates: ReturnType<Aggregates['save']>
      }>(data)
      ;({ pendingEvents, processedEvents, invalidEvents, duplicateEvents, batches, sweepArmed } = saved.counts)
      indexes.clear()
      for (const [k, i] of saved.indexes) indexes.set(k, IdentifierIndex.load(i))
      aggregates.load(saved.aggregates)
    },
  })

  function index(scope: Scope): IdentifierIndex {
    const key = scopeKey(scope)
    let i = indexes.get(key)
    if (i === undefined) {
      i = new IdentifierIndex()
      indexes.set(key, i)
    }
    return i
  }

  /** Keeps one sweep pending while any index holds identifiers, so idle runs release memory too. */
  function armSweep(): void {
    if (sweepArmed) return
    let oldest = Number.POSITIVE_INFINITY
    for (const i of indexes.values()) oldest = Math.min(oldest, i.oldest ?? Number.POSITIVE_INFINITY)
    if (oldest === Number.POSITIVE_INFINITY) return
    sweepArmed = true
    sweepTask.at(oldest + IDENTIFIER_WINDOW, {})
  }

  function delay(): number {
    return Math.round(latency.between(METER_PROCESSING_DELAY.min, METER_PROCESSING_DELAY.max)) + faultHooks.processingDelay()
  }

  function refuse(code: string, message: string, param: string): ServiceError {
    return invalidRequest(message, { code, param })
  }

  function create(scope: Scope, input: MeterEventInput, flight?: InFlightRequest): AcceptedMeterEvent {
    const now = kernel.clock.now
    const meter = meters.byEventName(scope, input.eventName)
    const timestamp = input.timestamp ?? now
    const c = checkEvent(meter, input.payload, timestamp, now, checked)
    if (c.problem !== undefined) {
      const param =
        c.problem === 'no_meter' || c.problem === 'archived_meter'
          ? 'event_name'
          : c.problem === 'no_customer'
            ? `payload.${meter?.customerKey}`
            : c.problem.startsWith('timestamp')
              ? 'timestamp'
              : `payload.${meter?.valueKey}`
      throw refuse(SYNC_CODES[c.problem], problemMessage(c.problem, input.eventName, meter, now), param)
    }
    const m = meter as Meter
    const customer = c.customer
    const value = c.value
    const idx = index(scope)
    idx.sweep(now)
    if (input.identifier !== undefined && idx.has(input.identifier, now)) {
      throw refuse(
        'duplicate_meter_event',
        `A meter event with identifier '${input.identifier}' was already submitted in the last 24 hours.`,
        'identifier',
      )
    }
    if (flight !== undefined && !timeline.hold(flight, `meter:${scopeKey(scope)}:${m.id}:${customer}`)) {
      throw new ServiceError({
        status: 409,
        type: 'invalid_request_error',
        code: 'too_many_concurrent_requests',
        message: `Another meter event request for customer '${customer}' and meter ${m.id} is in progress; send one at a time per customer and meter.`,
      })
    }
    const identifier = input.identifier ?? generated.next('mev', 24)
    if (input.identifier !== undefined) {
      idx.take(identifier, now)
      armSweep()
    }
    pendingEvents++
    processOne.after(delay(), { meter: m.id, customer, timestamp, value, identifier })
    return { eventName: input.eventName, identifier, payload: input.payload, timestamp, created: now, mode: scope.mode }
  }

  function processBatch(
    scope: Scope,
    batch: readonly StreamEvent[],
    timestamps: readonly number[] | undefined,
    receivedAt: number,
    id: number,
  ): void {
    const now = kernel.clock.now
    const idx = index(scope)
    idx.sweep(now)
    let lastName: string | undefined
    let meter: Meter | undefined
    let lastMeter: Meter | undefined
    let lastCustomer: string | undefined
    let buckets: ReturnType<Aggregates['customer']> | undefined
    let accepted = 0
    let duplicates = 0
    let errors: BatchError[] | undefined
    for (let i = 0; i < batch.length; i++) {
      const ev = batch[i] as StreamEvent
      if (ev.event_name !== lastName) {
        lastName = ev.event_name
        meter = meters.byEventName(scope, lastName)
      }
      const given = timestamps === undefined ? Number.NaN : (timestamps[i] as number)
      const timestamp = Number.isNaN(given) ? receivedAt : given
      const c = checkEvent(meter, ev.payload, timestamp, receivedAt, checked)
      if (c.problem !== undefined) {
        if (errors === undefined) errors = []
        errors.push({ event: ev, meter, problem: c.problem })
        continue
      }
      const identifier = ev.identifier
      if (identifier !== undefined && !idx.take(identifier, now)) {
        duplicates++
        continue
      }
      if (meter !== lastMeter || c.customer !== lastCustomer) {
        lastMeter = meter
        lastCustomer = c.customer
        buckets = aggregates.customer((meter as Meter).id, c.customer)
      }
      aggregates.addTo(buckets as NonNullable<typeof buckets>, timestamp, c.value)
      accepted++
    }
    pendingEvents -= batch.length
    processedEvents += accepted
    duplicateEvents += duplicates
    const invalid = errors?.length ?? 0
    invalidEvents += invalid
    kernel.trace.append('meter_events.processed', { source: 'stream', batch: id, accepted, invalid, duplicates })
    if (errors !== undefined) reportBatchErrors(events, scope, errors, receivedAt, now, generated)
    if (accepted > 0) armSweep()
  }

  return {
    create,
    ingest(scope, batch, timestamps) {
      const receivedAt = kernel.clock.now
      const id = batches++
      pendingEvents += batch.length
      processMany.after(delay(), { scope: { account: scope.account, mode: scope.mode }, batch, timestamps, receivedAt, id })
    },
    window: (meter, customer, start, end) => aggregates.window(meter.id, customer, start, end),
    stats() {
      let identifiers = 0
      for (const i of indexes.values()) identifiers += i.size
      return { pendingEvents, processedEvents, invalidEvents, duplicateEvents, identifiers }
    },
    aggregates,
    useLocks(l) {
      locks = l
    },
  }
}
