import type { Ids } from '#kernel/ids.js'
import type { TaskKind } from '#kernel/scheduler.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel-parts.js'
import type { Aggregates } from './aggregates.js'
import type { Meter } from './meter.js'
import { type BatchError, reportBatchErrors } from './meter-error-reports.js'
import { type CheckedEvent, checkEvent } from './meter-event-rules.js'
import type { MeterEventSchedule } from './meter-event-schedule.js'
import { DUPLICATE, type MeterEventState, NO_IDENTIFIER, type PendingBatch, type PendingSync } from './meter-event-state.js'
import type { StreamEvent } from './meter-event-types.js'
import type { Meters } from './meters.js'

/** The processing tasks: one accepted synchronous event, or one accepted stream request. */
export interface MeterProcessing {
  readonly one: TaskKind<PendingSync>
  readonly many: TaskKind<PendingBatch>
}

interface ProcessingParts {
  readonly kernel: Kernel
  readonly meters: Meters
  readonly events: EventStore
  readonly state: MeterEventState
  readonly schedule: MeterEventSchedule
  readonly generated: Ids
}

/** What one stream request's processing counted. */
interface BatchTally {
  accepted: number
  duplicates: number
  cancelled: number
  errors: BatchError[] | undefined
}

/**
 * Processing of accepted meter events, after the seeded delay and once their meters are not
 * locked: validation of stream events (invalid ones become error reports and give their identifier
 * back), cancellations that arrived first, and the aggregates. Duplicates were decided when the
 * events were submitted; processing only drops them.
 *
 * @example
 * const processing = createProcessing({ kernel, meters, events, state, schedule, generated })
 * processing.many.after(schedule.delay(), batch)
 */
export function createProcessing(parts: ProcessingParts): MeterProcessing {
  const { kernel, meters, state, schedule } = parts
  // Made once, not per task run: the lock wait passes the task's args through.
  const oneAgain = (until: number, a: PendingSync) => one.at(until, a)
  const manyAgain = (until: number, a: PendingBatch) => many.at(until, a)
  const batchMeters = (a: PendingBatch) => meterIdsOf(meters, a)
  const one: TaskKind<PendingSync> = kernel.scheduler.define<PendingSync>(
    'meter_event.process',
    (a) => {
      if (schedule.waitForLocks(a, meterOfSync, 'meter_event.process', oneAgain)) return
      state.pendingSync.delete(a)
      if (processOne(kernel, state, a)) state.processed?.({ kind: 'one', key: a.key, meter: a.meter, customer: a.customer })
    },
    { restored: (_task, args) => state.pendingSync.add(args) },
  )
  const many: TaskKind<PendingBatch> = kernel.scheduler.define<PendingBatch>(
    'meter_events.process',
    (a) => {
      if (schedule.waitForLocks(a, batchMeters, 'meter_events.process', manyAgain)) return
      state.pendingBatches.delete(a)
      if (processBatch(parts, a)) state.processed?.({ kind: 'many', key: a.key, events: a.events })
    },
    { restored: (_task, args) => state.pendingBatches.add(args) },
  )
  return { one, many }
}

const meterOfSync = (a: PendingSync): string[] => [a.meter]

function meterIdsOf(meters: Meters, a: PendingBatch): Set<string> {
  const ids = new Set<string>()
  for (const e of a.events) {
    const m = meters.byEventName(a.scope, e.event_name)
    if (m !== undefined) ids.add(m.id)
  }
  return ids
}

/** Counts one synchronous event; answers whether its usage counted. */
function processOne(kernel: Kernel, state: MeterEventState, a: PendingSync): boolean {
  const { counts } = state
  counts.pendingEvents--
  const base = { source: 'sync' as const, meter: a.meter, identifier: a.identifier }
  if (state.pendingCancels.get(a.key)?.delete(a.identifier) === true) {
    counts.cancelledEvents++
    kernel.trace.append('meter_events.processed', { ...base, accepted: 0, cancelled: 1 })
    return false
  }
  counts.processedEvents++
  const buckets = state.aggregates.customer(a.meter, a.customer)
  state.aggregates.addTo(buckets, a.timestamp, a.value)
  state.indexByKey(a.key).attachAt(a.slot, buckets, a.timestamp, a.value)
  kernel.trace.append('meter_events.processed', { ...base, accepted: 1 })
  return true
}

/** Counts one stream request; answers whether some of its usage counted. */
function processBatch(parts: ProcessingParts, a: PendingBatch): boolean {
  const { kernel, state } = parts
  const now = kernel.clock.now
  // By the batch's key, made when it was accepted: no scope key is written again per lookup.
  state.indexByKey(a.key).sweep(now)
  const tally = tallyBatch(parts, a)
  const { counts } = state
  counts.pendingEvents -= a.events.length
  counts.processedEvents += tally.accepted
  counts.duplicateEvents += tally.duplicates
  counts.cancelledEvents += tally.cancelled
  const invalid = tally.errors?.length ?? 0
  counts.invalidEvents += invalid
  const { accepted, duplicates, cancelled } = tally
  kernel.trace.append(
    'meter_events.processed',
    cancelled === 0
      ? { source: 'stream', batch: a.id, accepted, invalid, duplicates }
      : { source: 'stream', batch: a.id, accepted, invalid, duplicates, cancelled },
  )
  if (tally.errors !== undefined) reportBatchErrors(parts.events, a.scope, tally.errors, a.receivedAt, now, parts.generated)
  if (accepted > 0 || cancelled > 0) parts.schedule.armSweep()
  return accepted > 0
}

/**
 * The stream's hot loop: checks each event against its meter (looked up again only when the event
 * name changes), drops duplicates and cancelled events, and adds the rest to the aggregates.
 */
function tallyBatch(parts: ProcessingParts, a: PendingBatch): BatchTally {
  const { meters, state } = parts
  const { aggregates } = state
  const idx = state.indexByKey(a.key)
  const cancels = state.pendingCancels.size === 0 ? undefined : state.pendingCancels.get(a.key)
  const checked: CheckedEvent = { problem: undefined, customer: '', value: 0 }
  const tally: BatchTally = { accepted: 0, duplicates: 0, cancelled: 0, errors: undefined }
  const { events: batch, timestamps, receivedAt } = a
  // A batch saved before slots existed holds no identifiers.
  const slots = a.slots ?? []
  let lastName: string | undefined
  let meter: Meter | undefined
  let lastMeter: Meter | undefined
  let lastCustomer: string | undefined
  let buckets: ReturnType<Aggregates['customer']> | undefined
  for (let i = 0; i < batch.length; i++) {
    const ev = batch[i] as StreamEvent
    if (ev.event_name !== lastName) {
      lastName = ev.event_name
      meter = meters.byEventName(a.scope, lastName)
    }
    const given = timestamps === undefined ? Number.NaN : (timestamps[i] as number)
    const timestamp = Number.isNaN(given) ? receivedAt : given
    const slot = slots[i] ?? NO_IDENTIFIER
    const c = checkEvent(meter, ev.payload, timestamp, receivedAt, checked)
    if (c.problem !== undefined) {
      // Never accepted: a corrected event may use the identifier again.
      if (slot >= 0) idx.releaseAt(slot)
      tally.errors ??= []
      tally.errors.push({ event: ev, meter, problem: c.problem })
      continue
    }
    if (slot === DUPLICATE) {
      tally.duplicates++
      continue
    }
    if (meter !== lastMeter || c.customer !== lastCustomer) {
      lastMeter = meter
      lastCustomer = c.customer
      buckets = aggregates.customer((meter as Meter).id, c.customer)
    }
    const b = buckets as NonNullable<typeof buckets>
    if (slot >= 0 && cancels?.delete(ev.identifier as string) === true) {
      // Cancelled before it was processed: its identifier stays held, its usage never counts.
      idx.attachAt(slot, b, timestamp, -c.value)
      tally.cancelled++
      continue
    }
    if (slot >= 0) idx.attachAt(slot, b, timestamp, c.value)
    aggregates.addTo(b, timestamp, c.value)
    tally.accepted++
  }
  return tally
}
