import { METER_EVENTS_CONCURRENCY_PER_CUSTOMER_METER } from '#catalogue/rules.js'
import { createIds, type Ids } from '#kernel/ids.js'
import { fromPlain, toPlain } from '#kernel/plain.js'
import type { InFlightRequest, RequestTimeline } from '#kernel/request-timeline.js'
import type { EventStore } from '../events/event-store.js'
import { type FaultHooks, noFaultHooks } from '../faults/fault-hooks.js'
import type { Kernel } from '../kernel.js'
import { type Scope, scopeKey } from '../mode.js'
import { invalidRequest, ServiceError } from '../service-error.js'
import { Aggregates, type AggregateValue } from './aggregates.js'
import { IDENTIFIER_WINDOW, IdentifierIndex, type SavedIdentifierIndex } from './identifier-index.js'
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
  let cancelledEvents = 0
  let batches = 0
  // Identifiers an adjustment cancelled before their event was processed, per account and mode.
  const pendingCancels = new Map<string, Set<string>>()
  const cancelledList = new Map<string, CancelledEvent[]>()
  const adjustmentIds: Ids = createIds(kernel.rng.stream('meter-adjustments'))
  // Accepted, unprocessed work (one entry per batch or sync event): adjustments look identifiers
  // up here before processing takes them, and inspection counts pending usage.
  interface PendingBatch {
    readonly scope: Scope
    readonly key: string
    readonly events: readonly StreamEvent[]
    readonly timestamps: readonly number[] | undefined
    readonly receivedAt: number
    readonly id: number
  }
  interface PendingSync {
    readonly key: string
    readonly meter: string
    readonly customer: string
    readonly identifier: string
    readonly timestamp: number
    readonly value: number
  }
  const pendingBatches = new Set<PendingBatch>()
  const pendingSync = new Set<PendingSync>()
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

  // The task's args are the pending entry itself (plain data): processing takes it out of the
  // pending set, and a loaded snapshot puts it back (`restored`).
  const processOne = kernel.scheduler.define<PendingSync>(
    'meter_event.process',
    (a) => {
      if (
        waitForLocks(
          () => [a.meter],
          'meter_event.process',
          (until) => processOne.at(until, a),
        )
      )
        return
      pendingSync.delete(a)
      pendingEvents--
      const cancels = pendingCancels.get(a.key)
      if (cancels?.delete(a.identifier) === true) {
        cancelledEvents++
        kernel.trace.append('meter_events.processed', {
          source: 'sync',
          meter: a.meter,
          identifier: a.identifier,
          accepted: 0,
          cancelled: 1,
        })
        return
      }
      processedEvents++
      const buckets = aggregates.customer(a.meter, a.customer)
      aggregates.addTo(buckets, a.timestamp, a.value)
      indexByKey(a.key).attach(a.identifier, kernel.clock.now, buckets, a.timestamp, a.value)
      kernel.trace.append('meter_events.processed', { source: 'sync', meter: a.meter, identifier: a.identifier, accepted: 1 })
    },
    { restored: (_task, args) => pendingSync.add(args as PendingSync) },
  )

  const processMany = kernel.scheduler.define<PendingBatch>(
    'meter_events.process',
    (a) => {
      const meterIds = () => {
        const ids = new Set<string>()
        for (const e of a.events) {
          const m = meters.byEventName(a.scope, e.event_name)
          if (m !== undefined) ids.add(m.id)
        }
        return ids
      }
      if (waitForLocks(meterIds, 'meter_events.process', (until) => processMany.at(until, a))) return
      pendingBatches.delete(a)
      processBatch(a.scope, a.events, a.timestamps, a.receivedAt, a.id)
    },
    { restored: (_task, args) => pendingBatches.add(args as PendingBatch) },
  )

  // A cancellation applies after the processing delay, once the meter is not locked. The answer
  // already left as `pending`; nothing reads the adjustment afterwards.
  const processAdjustment = kernel.scheduler.define<{ scope: Scope; key: string; meter: string; identifier: string }>(
    'meter_event_adjustment.process',
    (a) => {
      if (
        waitForLocks(
          () => [a.meter],
          'meter_event_adjustment.process',
          (until) => processAdjustment.at(until, a),
        )
      )
        return
      applyCancel(a.scope, a.key, indexByKey(a.key), a.identifier)
    },
  )

  const sweepTask = kernel.scheduler.define<Record<string, never>>('meter.identifiers.sweep', () => {
    sweepArmed = false
    for (const i of indexes.values()) i.sweep(kernel.clock.now)
    armSweep()
  })

  kernel.state.register('meter_events', {
    save: () =>
      toPlain({
        counts: { pendingEvents, processedEvents, invalidEvents, duplicateEvents, cancelledEvents, batches, sweepArmed },
        aggregates: aggregates.save(),
        // Bucket references are saved as meter and customer, re-linked to the loaded aggregates.
        indexes: [...indexes].map(([k, i]) => [k, i.save((b) => aggregates.owner(b))]),
        pendingCancels: [...pendingCancels].map(([k, ids]) => [k, [...ids]]),
        cancelledList: [...cancelledList],
      }),
    load(data) {
      const saved = fromPlain<{
        counts: {
          pendingEvents: number
          processedEvents: number
          invalidEvents: number
          duplicateEvents: number
          cancelledEvents: number
          batches: number
          sweepArmed: boolean
        }
        aggregates: ReturnType<Aggregates['save']>
        indexes: [string, SavedIdentifierIndex][]
        pendingCancels: [string, string[]][]
        cancelledList: [string, CancelledEvent[]][]
      }>(data)
      ;({ pendingEvents, processedEvents, invalidEvents, duplicateEvents, cancelledEvents, batches, sweepArmed } = saved.counts)
      aggregates.load(saved.aggregates)
      indexes.clear()
      for (const [k, i] of saved.indexes)
        indexes.set(
          k,
          IdentifierIndex.load(i, (m, c) => aggregates.customer(m, c)),
        )
      pendingCancels.clear()
      for (const [k, ids] of saved.pendingCancels) pendingCancels.set(k, new Set(ids))
      cancelledList.clear()
      for (const [k, list] of saved.cancelledList) cancelledList.set(k, list)
      // pendingSync and pendingBatches come back with their tasks (`restored`), after this part.
      pendingSync.clear()
      pendingBatches.clear()
    },
  })

  function index(scope: Scope): IdentifierIndex {
    return indexByKey(scopeKey(scope))
  }

  function indexByKey(key: string): IdentifierIndex {
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
    const key = `meter:${scopeKey(scope)}:${m.id}:${customer}`
    if (flight !== undefined && !timeline.hold(flight, key, METER_EVENTS_CONCURRENCY_PER_CUSTOMER_METER)) {
      throw new ServiceError({
        status: 409,
        type: 'invalid_request_error',
        code: 'too_many_concurrent_requests',
        message: `Another meter event request for customer '${customer}' and meter ${m.id} is in progress; send one at a time per customer and meter.`,
      })
    }
    const identifier = input.identifier ?? generated.next('mev', 24)
    // Generated identifiers are remembered too: the caller may cancel the event by the one it got.
    idx.take(identifier, now)
    armSweep()
    pendingEvents++
    const pending: PendingSync = { key: scopeKey(scope), meter: m.id, customer, identifier, timestamp, value }
    pendingSync.add(pending)
    processOne.after(delay(), pending)
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
    const cancels = pendingCancels.size === 0 ? undefined : pendingCancels.get(scopeKey(scope))
    let cancelled = 0
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
      if (meter !== lastMeter || c.customer !== lastCustomer) {
        lastMeter = meter
        lastCustomer = c.customer
        buckets = aggregates.customer((meter as Meter).id, c.customer)
      }
      const identifier = ev.identifier
      if (identifier !== undefined) {
        if (cancels?.delete(identifier) === true) {
          // Cancelled before it was processed: its identifier is taken, its usage never counts.
          if (idx.take(identifier, now, buckets, timestamp, -c.value)) cancelled++
          else duplicates++
          continue
        }
        if (!idx.take(identifier, now, buckets, timestamp, c.value)) {
          duplicates++
          continue
        }
      }
      aggregates.addTo(buckets as NonNullable<typeof buckets>, timestamp, c.value)
      accepted++
    }
    pendingEvents -= batch.length
    processedEvents += accepted
    duplicateEvents += duplicates
    cancelledEvents += cancelled
    const invalid = errors?.length ?? 0
    invalidEvents += invalid
    kernel.trace.append(
      'meter_events.processed',
      cancelled === 0
        ? { source: 'stream', batch: id, accepted, invalid, duplicates }
        : { source: 'stream', batch: id, accepted, invalid, duplicates, cancelled },
    )
    if (errors !== undefined) reportBatchErrors(events, scope, errors, receivedAt, now, generated)
    if (accepted > 0) armSweep()
  }

  /** Whether an accepted, unprocessed stream event of `meter` carries `identifier`. */
  function pendingInBatches(key: string, eventName: string, identifier: string): boolean {
    for (const b of pendingBatches) {
      if (b.key !== key) continue
      for (const ev of b.events) if (ev.identifier === identifier && ev.event_name === eventName) return true
    }
    return false
  }

  function adjust(scope: Scope, input: { eventName: string; identifier: string }): MeterEventAdjustment {
    const now = kernel.clock.now
    const meter = meters.byEventName(scope, input.eventName)
    if (meter === undefined) {
      throw refuse('no_meter', problemMessage('no_meter', input.eventName, undefined, now), 'event_name')
    }
    const key = scopeKey(scope)
    const idx = index(scope)
    const known = idx.lookup(input.identifier, now)
    const ofMeter =
      known === undefined
        ? false
        : known.buckets === undefined
          ? [...pendingSync].some((p) => p.key === key && p.identifier === input.identifier && p.meter === meter.id)
          : aggregates.owner(known.buckets)?.meter === meter.id
    if (!ofMeter && !pendingInBatches(key, input.eventName, input.identifier)) {
      throw invalidRequest(
        `No meter event with identifier '${input.identifier}' and event_name '${input.eventName}' was received in the last 24 hours; only those can be cancelled.`,
        { code: 'resource_missing', param: 'cancel.identifier' },
      )
    }
    const adjustment: MeterEventAdjustment = {
      id: adjustmentIds.next('mtr_event_adj', 24),
      eventName: input.eventName,
      identifier: input.identifier,
      created: now,
      mode: scope.mode,
      status: 'pending',
    }
    kernel.trace.append('meter_events.adjustment', { meter: meter.id, identifier: input.identifier })
    processAdjustment.after(delay(), {
      scope: { account: scope.account, mode: scope.mode },
      key,
      meter: meter.id,
      identifier: input.identifier,
    })
    return adjustment
  }

  function applyCancel(scope: Scope, key: string, idx: IdentifierIndex, identifier: string): void {
    const now = kernel.clock.now
    const ref = idx.lookup(identifier, now)
    if (ref !== undefined && ref.value < 0) return // cancelled already
    if (ref !== undefined && ref.value > 0 && ref.buckets !== undefined) {
      idx.markCancelled(identifier, now)
      aggregates.remove(ref.buckets, ref.timestamp, ref.value, idx.live(ref.buckets))
      cancelledEvents++
      const owner = aggregates.owner(ref.buckets)
      let list = cancelledList.get(key)
      if (list === undefined) {
        list = []
        cancelledList.set(key, list)
      }
      list.push({
        meter: owner?.meter ?? '',
        customer: owner?.customer ?? '',
        identifier,
        timestamp: ref.timestamp,
        value: ref.value,
        wasProcessed: true,
      })
      kernel.trace.append('meter_events.cancelled', { meter: owner?.meter ?? '', identifier, processed: true })
      return
    }
    // Not processed yet: processing will skip it.
    let set = pendingCancels.get(key)
    if (set === undefined) {
      set = new Set()
      pendingCancels.set(key, set)
    }
    set.add(identifier)
    recordPendingCancel(scope, key, identifier)
    kernel.trace.append('meter_events.cancelled', { identifier, processed: false })
  }

  /** Notes a cancellation of an unprocessed event in the inspection list, as far as it can be judged now. */
  function recordPendingCancel(scope: Scope, key: string, identifier: string): void {
    const found = pending(scope, identifier)[0]
    if (found === undefined) return
    let list = cancelledList.get(key)
    if (list === undefined) {
      list = []
      cancelledList.set(key, list)
    }
    list.push({ ...found, identifier, wasProcessed: false })
  }

  /** Pending events of a scope that will count when processed (or the one with `only` as identifier). */
  function pending(scope: Scope, only?: string): PendingEvent[] {
    const key = scopeKey(scope)
    const cancels = pendingCancels.get(key)
    const out: PendingEvent[] = []
    const probe: CheckedEvent = { problem: undefined, customer: '', value: 0 }
    for (const p of pendingSync) {
      if (p.key !== key) continue
      if (only !== undefined ? p.identifier !== only : cancels?.has(p.identifier) === true) continue
      out.push({ meter: p.meter, customer: p.customer, timestamp: p.timestamp, value: p.value })
    }
    const idx = index(scope)
    const now = kernel.clock.now
    for (const b of pendingBatches) {
      if (b.key !== key) continue
      const seen = new Set<string>()
      for (let i = 0; i < b.events.length; i++) {
        const ev = b.events[i] as StreamEvent
        if (only !== undefined && ev.identifier !== only) continue
        if (only === undefined && ev.identifier !== undefined) {
          if (cancels?.has(ev.identifier) === true || seen.has(ev.identifier) || idx.has(ev.identifier, now)) continue
          seen.add(ev.identifier)
        }
        const meter = meters.byEventName(b.scope, ev.event_name)
        const given = b.timestamps === undefined ? Number.NaN : (b.timestamps[i] as number)
        const timestamp = Number.isNaN(given) ? b.receivedAt : given
        const c = checkEvent(meter, ev.payload, timestamp, b.receivedAt, probe)
        if (c.problem !== undefined || meter === undefined) continue
        out.push({ meter: meter.id, customer: c.customer, timestamp, value: c.value })
      }
    }
    return out
  }

  return {
    create,
    ingest(scope, batch, timestamps) {
      const receivedAt = kernel.clock.now
      const id = batches++
      pendingEvents += batch.length
      const pending: PendingBatch = {
        scope: { account: scope.account, mode: scope.mode },
        key: scopeKey(scope),
        events: batch,
        timestamps,
        receivedAt,
        id,
      }
      pendingBatches.add(pending)
      processMany.after(delay(), pending)
    },
    window: (meter, customer, start, end) => aggregates.window(meter.id, customer, start, end),
    stats() {
      let identifiers = 0
      for (const i of indexes.values()) identifiers += i.size
      return { pendingEvents, processedEvents, invalidEvents, duplicateEvents, identifiers, cancelledEvents }
    },
    adjust,
    cancelled: (scope) => cancelledList.get(scopeKey(scope)) ?? [],
    pending,
    aggregates,
    useLocks(l) {
      locks = l
    },
  }
}
