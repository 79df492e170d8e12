import { type ErrorCode, errorMessage } from '#catalogue/errors.js'
import { METER_EVENT_MAX_AGE_DAYS, METER_EVENT_MAX_LEAD_MS } from '#catalogue/rules.js'
import { DAY } from '#kernel/time.js'
import { type ServiceError, tableError } from '../service-error.js'
import type { Meter } from './meter.js'

/** Oldest a meter event may be: 35 calendar days. */
export const MAX_EVENT_AGE_DAYS = METER_EVENT_MAX_AGE_DAYS
/** Furthest ahead a meter event may be: 5 minutes. */
export const MAX_EVENT_LEAD = METER_EVENT_MAX_LEAD_MS

/** Why one meter event is refused, independent of the path (sync or stream) that reports it. */
export type MeterEventProblem =
  | 'no_meter'
  | 'archived_meter'
  | 'no_customer'
  | 'no_value'
  | 'invalid_value'
  | 'timestamp_too_far_in_past'
  | 'timestamp_in_future'

/** Codes of the synchronous endpoint (the spec's error table). */
export const SYNC_CODES: Readonly<Record<MeterEventProblem, ErrorCode>> = {
  no_meter: 'no_meter',
  archived_meter: 'archived_meter',
  no_customer: 'payload_no_customer_defined',
  no_value: 'payload_no_value_defined',
  invalid_value: 'payload_invalid_value',
  timestamp_too_far_in_past: 'timestamp_too_far_in_past',
  timestamp_in_future: 'timestamp_in_future',
}

/** Codes of `error_report_triggered` for stream events (the provider's `reason.error_types[].code`). */
export const ASYNC_CODES: Readonly<Record<MeterEventProblem, string>> = {
  no_meter: 'no_meter',
  archived_meter: 'archived_meter',
  no_customer: 'meter_event_no_customer_defined',
  no_value: 'meter_event_invalid_value',
  invalid_value: 'meter_event_invalid_value',
  timestamp_too_far_in_past: 'timestamp_too_far_in_past',
  timestamp_in_future: 'timestamp_in_future',
}

const DIGITS = /^[0-9]+$/

/**
 * The value of a payload field as a positive integer, or NaN. Clients send it as a string of
 * digits (`"25"`); a JSON number that is a positive safe integer is accepted too (stream events:
 * the synchronous endpoint refuses non-string payload values before they get here).
 *
 * @example
 * parseValue('25') // 25
 * parseValue('0')  // NaN (not positive)
 * parseValue('2.5') // NaN
 */
export function parseValue(raw: unknown): number {
  if (typeof raw === 'string') {
    const len = raw.length
    // Short strings (the common case) are read digit by digit, which is cheaper than a RegExp.
    if (len > 0 && len < 16) {
      let n = 0
      for (let i = 0; i < len; i++) {
        const d = raw.charCodeAt(i) - 48
        if (d < 0 || d > 9) return Number.NaN
        n = n * 10 + d
      }
      return n > 0 ? n : Number.NaN
    }
    if (!DIGITS.test(raw)) return Number.NaN
    const n = Number(raw)
    return n > 0 && n <= Number.MAX_SAFE_INTEGER ? n : Number.NaN
  }
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return raw
  return Number.NaN
}

/**
 * The earliest timestamp accepted at `now`: midnight UTC of the calendar day 35 days before today.
 *
 * @example
 * earliestTimestamp(Date.UTC(2026, 2, 10, 12)) === Date.UTC(2026, 1, 3) // true
 */
export function earliestTimestamp(now: number): number {
  return Math.floor(now / DAY) * DAY - MAX_EVENT_AGE_DAYS * DAY
}

/** The latest timestamp accepted at `now`: 5 minutes ahead, inclusive. */
export function latestTimestamp(now: number): number {
  return now + MAX_EVENT_LEAD
}

/** The outcome of checking one event against its meter: a problem, or the customer and value. */
export interface CheckedEvent {
  problem: MeterEventProblem | undefined
  customer: string
  value: number
}

/**
 * Checks one event against its meter (as found by event name) in the order the service reports:
 * meter, status, customer, value, timestamp. Writes into `out` so the stream's hot loop allocates
 * nothing per event.
 *
 * @example
 * const out: CheckedEvent = { problem: undefined, customer: '', value: 0 }
 * checkEvent(meter, { stripe_customer_id: 'cus_1', value: '3' }, now, now, out) // out.problem undefined, out.value 3
 */
export function checkEvent(
  meter: Meter | undefined,
  payload: Record<string, unknown>,
  timestamp: number,
  now: number,
  out: CheckedEvent,
): CheckedEvent {
  out.problem = undefined
  out.customer = ''
  out.value = 0
  if (meter === undefined) {
    out.problem = 'no_meter'
    return out
  }
  if (meter.status !== 'active') {
    out.problem = 'archived_meter'
    return out
  }
  // Payload keys are the meter's configured names: inherited properties (`constructor`) are not values.
  const customerKey = meter.customer_mapping.event_payload_key
  const customer = Object.hasOwn(payload, customerKey) ? payload[customerKey] : undefined
  if (typeof customer !== 'string' || customer === '') {
    out.problem = 'no_customer'
    return out
  }
  out.customer = customer
  const valueKey = meter.value_settings.event_payload_key
  const raw = Object.hasOwn(payload, valueKey) ? payload[valueKey] : undefined
  if (raw === undefined || raw === null || raw === '') {
    // A count meter counts events; their value is not needed.
    if (meter.default_aggregation.formula !== 'count') {
      out.problem = 'no_value'
      return out
    }
    out.value = 1
  } else {
    const value = parseValue(raw)
    if (Number.isNaN(value)) {
      out.problem = 'invalid_value'
      return out
    }
    out.value = value
  }
  if (timestamp < earliestTimestamp(now)) out.problem = 'timestamp_too_far_in_past'
  else if (timestamp > latestTimestamp(now)) out.problem = 'timestamp_in_future'
  return out
}

/**
 * The values a problem's row of the error table is filled with: the event name, the meter, the
 * payload key the meter expects, or the edge of the accepted time window.
 */
function problemValues(
  problem: MeterEventProblem,
  eventName: string,
  meter: Meter | undefined,
  now: number,
): Record<string, string | number> {
  switch (problem) {
    case 'no_meter':
      return { event_name: eventName }
    case 'archived_meter':
      return { meter: String(meter?.id), event_name: eventName }
    case 'no_customer':
      return { key: String(meter?.customer_mapping.event_payload_key) }
    case 'no_value':
    case 'invalid_value':
      return { key: String(meter?.value_settings.event_payload_key) }
    case 'timestamp_too_far_in_past':
      return { days: MAX_EVENT_AGE_DAYS, earliest: new Date(earliestTimestamp(now)).toISOString() }
    case 'timestamp_in_future':
      return { minutes: MAX_EVENT_LEAD / 60_000, latest: new Date(latestTimestamp(now)).toISOString() }
  }
}

/**
 * A human sentence for a problem (its synchronous row of the error table), naming the payload keys
 * the meter expects. Built only for a refused event.
 *
 * @example
 * problemMessage('no_meter', 'api_call', undefined, now) // "No active meter was found for event_name 'api_call'."
 */
export function problemMessage(problem: MeterEventProblem, eventName: string, meter: Meter | undefined, now: number): string {
  return errorMessage(SYNC_CODES[problem], problemValues(problem, eventName, meter, now))
}

/**
 * The synchronous refusal of a problem: its row of the error table, reported on `param`.
 *
 * @example
 * throw problemError('no_meter', 'api_call', undefined, now, 'event_name')
 */
export function problemError(
  problem: MeterEventProblem,
  eventName: string,
  meter: Meter | undefined,
  now: number,
  param: string,
): ServiceError {
  return tableError(SYNC_CODES[problem], problemValues(problem, eventName, meter, now), { param })
}
