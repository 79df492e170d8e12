import { type ServiceError, tableError } from '../service-error.js'
import type { Meter } from './meter.js'
import { type CheckedEvent, checkEvent, type MeterEventProblem, problemError } from './meter-event-rules.js'

/** A synchronous meter event that passed every check: its meter, customer and value. */
export interface ValidEvent {
  readonly meter: Meter
  readonly customer: string
  readonly value: number
}

/** The parameter a problem is reported on: the event name, the timestamp or the payload key. */
function paramOf(problem: MeterEventProblem, meter: Meter | undefined): string {
  if (problem === 'no_meter' || problem === 'archived_meter') return 'event_name'
  if (problem === 'no_customer') return `payload.${meter?.customer_mapping.event_payload_key}`
  if (problem.startsWith('timestamp')) return 'timestamp'
  return `payload.${meter?.value_settings.event_payload_key}`
}

/**
 * Checks a synchronous meter event against its meter (the spec's error table, in the order the
 * service reports), throwing the provider's 400 with the table's code on the first problem.
 *
 * @example
 * const { meter, customer, value } = validateSyncEvent(meter, 'api_call', payload, timestamp, now)
 */
export function validateSyncEvent(
  meter: Meter | undefined,
  eventName: string,
  payload: Record<string, unknown>,
  timestamp: number,
  now: number,
): ValidEvent {
  const c: CheckedEvent = checkEvent(meter, payload, timestamp, now, { problem: undefined, customer: '', value: 0 })
  if (c.problem !== undefined) {
    throw problemError(c.problem, eventName, meter, now, paramOf(c.problem, meter))
  }
  return { meter: meter as Meter, customer: c.customer, value: c.value }
}

/**
 * The refusal of a synchronous event whose identifier an earlier submission holds.
 *
 * @example
 * throw duplicateEvent('evt-1')
 */
export function duplicateEvent(identifier: string): ServiceError {
  return tableError('duplicate_meter_event', { identifier }, { param: 'identifier' })
}

/**
 * The refusal of a second concurrent call for one customer and meter (409, the spec's table).
 *
 * @example
 * throw concurrentCall('cus_1', 'mtr_1')
 */
export function concurrentCall(customer: string, meter: string): ServiceError {
  return tableError('meter_events_concurrent', { customer, meter })
}
