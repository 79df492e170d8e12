import type {
  DeliveryFaultHookDecision,
  DeliveryFaultHookDetail,
  FaultHooks,
  RedundantEventHookDetail,
} from '#domain/fault-hooks.js'
import type { InFlightRequest } from '#kernel/request-timeline.js'
import type { FaultSource } from './fault-controller.js'
import type { FaultState } from './fault-state.js'

/** Where an armed fault of `kind` or one drawn from its rate came from, if either applies. */
function armedOrDrawn(state: FaultState, scheduled: unknown, kind: 'indeterminate' | 'slow_processing'): FaultSource | undefined {
  if (scheduled !== undefined) return state.taken
  const rate = state.rates[kind] ?? 0
  return rate > 0 && state.rng.chance(rate) ? 'rate' : undefined
}

/**
 * Whether the answer of a committed request is lost on its way to the client (`indeterminate`).
 *
 * @example
 * dropAnswer(state, flight, 200) // true: the client gets a network error
 */
export function dropAnswer(state: FaultState, flight: InFlightRequest, status: number): boolean {
  if (status < 200 || status >= 300) return false
  const scheduled = state.take('indeterminate', flight.operation)
  const source = armedOrDrawn(state, scheduled, 'indeterminate')
  if (source === undefined) return false
  state.record('indeterminate', 'indeterminate', source, { operation: flight.operation ?? null, status })
  return true
}

/**
 * Extra virtual ms before an accepted meter event batch is processed (`slow_processing`).
 *
 * @example
 * processingDelay(state) // 60_000 when the fault fires, else 0
 */
export function processingDelay(state: FaultState): number {
  const scheduled = state.take('slow_processing')
  const source = armedOrDrawn(state, scheduled, 'slow_processing')
  if (source === undefined) return 0
  const delay = (scheduled ?? state.params('slow_processing')).delay ?? 60_000
  state.record('slow_processing', 'slow_processing', source, { delay })
  return delay
}

/**
 * Asked by the delivery domain before each automatic attempt is scheduled. Reordering, delays and
 * duplicates act on the first attempt (a schedule entry's `operation` may name the event type); a
 * transport failure or a slow network may hit any attempt, retries included.
 *
 * @example
 * deliveryFault(state, { event: 'evt_1', destination: 'we_1', attempt: 1 }) // { duplicate: false, delayMs: 0, ... }
 */
export function deliveryFault(state: FaultState, detail: DeliveryFaultHookDetail): DeliveryFaultHookDecision {
  const first = (detail.attempt ?? 1) === 1
  const reorder = first ? state.armedOnly('reorder_delivery', detail.type) : undefined
  const delay = first ? (state.armedOnly('delay_delivery', detail.type) ?? state.decide('delay_delivery')) : undefined
  const dup = first ? state.armedOnly('duplicate_delivery', detail.type) : undefined
  const down = state.rateOnly('receiver_down')
  // Scheduled: the next `count` attempts after its step (`operation` may name the event type).
  const slow = state.armedOnly('receiver_slow', detail.type) ?? state.rateOnly('receiver_slow')
  let delayMs = 0
  if (reorder) {
    delayMs += reorder.p.delay ?? 5_000
    state.record('reorder_delivery', 'reorder_delivery', reorder.source, { ...detail, delay: delayMs })
  }
  if (delay) {
    const d = delay.p.delay ?? 3_000
    delayMs += d
    state.record('delay_delivery', 'delay_delivery', delay.source, { ...detail, delay: d })
  }
  if (dup) state.record('duplicate_delivery', 'duplicate_delivery', dup.source, { ...detail })
  if (down) state.record('receiver_down', 'receiver_down', down.source, { ...detail, transport: 'connect_error' })
  const slowMs = slow ? (slow.p.delay ?? 2_000) : 0
  if (slow) state.record('receiver_slow', 'receiver_slow', slow.source, { ...detail, delay: slowMs })
  return { duplicate: dup !== undefined, delayMs, fail: down !== undefined, slowMs }
}

/**
 * Asked by the delivery domain once per new event (never a twin): a scheduled entry (its
 * `operation` may name the event type) or the rate makes the service emit a second, distinct event
 * for the same change.
 *
 * @example
 * redundantEvent(state, { event: 'evt_1', type: 'customer.subscription.created' }) // true when armed
 */
export function redundantEvent(state: FaultState, detail: RedundantEventHookDetail): boolean {
  const twin = state.armedOnly('redundant_event', detail.type) ?? state.rateOnly('redundant_event')
  if (twin === undefined) return false
  state.record('redundant_event', 'redundant_event', twin.source, { ...detail })
  return true
}

/**
 * The fault port a fault engine hands the domain and the HTTP layer: functions that may be passed
 * around on their own (`createFetchHandler({ dropAnswer: hooks.dropAnswer })`).
 *
 * @example
 * const hooks = controllerHooks(state)
 * createService(kernel, timeline, { defaultVersion, faults: hooks })
 */
export function controllerHooks(state: FaultState): FaultHooks {
  return {
    dropAnswer: (flight, status) => dropAnswer(state, flight, status),
    processingDelay: () => processingDelay(state),
    deliveryFault: (detail) => deliveryFault(state, detail),
    redundantEvent: (detail) => redundantEvent(state, detail),
  }
}
