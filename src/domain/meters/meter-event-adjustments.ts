import { createIds, type Ids } from '#kernel/ids.js'
import type { TaskKind } from '#kernel/scheduler.js'
import type { Kernel } from '../kernel-parts.js'
import { type Scope, scopeKey } from '../mode.js'
import { tableError } from '../service-error.js'
import { pendingEvents } from './meter-event-pending.js'
import { problemError } from './meter-event-rules.js'
import type { MeterEventSchedule } from './meter-event-schedule.js'
import type { MeterEventState } from './meter-event-state.js'
import type { MeterEventAdjustment } from './meter-event-types.js'
import type { Meters } from './meters.js'

interface AdjustmentParts {
  readonly kernel: Kernel
  readonly meters: Meters
  readonly state: MeterEventState
  readonly schedule: MeterEventSchedule
}

interface CancelArgs {
  readonly scope: Scope
  readonly key: string
  readonly meter: string
  readonly identifier: string
}

/**
 * Meter event adjustments (`type: 'cancel'`): refused at once when no event with that identifier
 * and event name was received in the last 24 hours; applied after the processing delay, once the
 * meter is not locked, whether the event was processed already (taken out of the aggregates) or not
 * (never added).
 *
 * @example
 * const adjust = createAdjustments({ kernel, meters, state, schedule })
 * adjust(scope, { eventName: 'api_call', identifier: 'e1' }).status // 'pending'
 */
const meterOf = (a: CancelArgs): string[] => [a.meter]

export function createAdjustments(parts: AdjustmentParts): (scope: Scope, input: CancelInput) => MeterEventAdjustment {
  const { kernel, meters, schedule } = parts
  const adjustmentIds: Ids = createIds(kernel.rng.stream('meter-adjustments'))
  // The answer already left as `pending`; nothing reads the adjustment afterwards.
  const again = (until: number, a: CancelArgs) => task.at(until, a)
  const task: TaskKind<CancelArgs> = kernel.scheduler.define<CancelArgs>('meter_event_adjustment.process', (a) => {
    if (schedule.waitForLocks(a, meterOf, 'meter_event_adjustment.process', again)) return
    applyCancel(parts, a)
  })

  return (scope, input) => {
    const now = kernel.clock.now
    const meter = meters.byEventName(scope, input.eventName)
    if (meter === undefined) {
      throw problemError('no_meter', input.eventName, undefined, now, 'event_name')
    }
    const key = scopeKey(scope)
    if (!received(parts, scope, meter.id, input)) {
      throw tableError(
        'meter_event_not_received',
        { identifier: input.identifier, event_name: input.eventName },
        { param: 'cancel.identifier' },
      )
    }
    kernel.trace.append('meter_events.adjustment', { meter: meter.id, identifier: input.identifier })
    task.after(schedule.delay(), {
      scope: { account: scope.account, mode: scope.mode },
      key,
      meter: meter.id,
      identifier: input.identifier,
    })
    return {
      id: adjustmentIds.next('mtr_event_adj', 24),
      eventName: input.eventName,
      identifier: input.identifier,
      created: now,
      mode: scope.mode,
      status: 'pending',
    }
  }
}

/** What an adjustment names: the event's meter (by event name) and identifier. */
export interface CancelInput {
  readonly eventName: string
  readonly identifier: string
}

/** Whether an event of `meter` with the identifier was received in the last 24 hours (processed or not). */
function received(parts: AdjustmentParts, scope: Scope, meter: string, input: CancelInput): boolean {
  const { state, kernel } = parts
  const key = scopeKey(scope)
  const known = state.index(scope).lookup(input.identifier, kernel.clock.now)
  if (known === undefined) return false
  if (known.buckets !== undefined) return state.aggregates.owner(known.buckets)?.meter === meter
  for (const p of state.pendingSync) if (p.key === key && p.identifier === input.identifier && p.meter === meter) return true
  for (const b of state.pendingBatches) {
    if (b.key !== key) continue
    for (const ev of b.events) if (ev.identifier === input.identifier && ev.event_name === input.eventName) return true
  }
  return false
}

function applyCancel(parts: AdjustmentParts, a: CancelArgs): void {
  const { kernel, state } = parts
  const now = kernel.clock.now
  const idx = state.indexByKey(a.key)
  const ref = idx.lookup(a.identifier, now)
  if (ref !== undefined && ref.value < 0) return // cancelled already
  if (ref !== undefined && ref.value > 0 && ref.buckets !== undefined) {
    idx.markCancelled(a.identifier, now)
    state.aggregates.remove(ref.buckets, ref.timestamp, ref.value, idx.live(ref.buckets))
    state.counts.cancelledEvents++
    const owner = state.aggregates.owner(ref.buckets)
    const meter = owner?.meter ?? ''
    const customer = owner?.customer ?? ''
    state.noteCancelled(a.key, {
      meter,
      customer,
      identifier: a.identifier,
      timestamp: ref.timestamp,
      value: ref.value,
      wasProcessed: true,
    })
    kernel.trace.append('meter_events.cancelled', { meter, identifier: a.identifier, processed: true })
    return
  }
  // Not processed yet: processing will skip it.
  let set = state.pendingCancels.get(a.key)
  if (set === undefined) {
    set = new Set()
    state.pendingCancels.set(a.key, set)
  }
  set.add(a.identifier)
  const found = pendingEvents(parts.meters, state, a.scope, a.identifier)[0]
  if (found !== undefined) state.noteCancelled(a.key, { ...found, identifier: a.identifier, wasProcessed: false })
  kernel.trace.append('meter_events.cancelled', { identifier: a.identifier, processed: false })
}
