import { METER_EVENT_STREAM_MAX_EVENTS } from '#catalogue/rules.js'
import { type ServiceError, tableError } from '../service-error.js'
import type { StreamEvent } from './meter-event-types.js'

/** Most events one stream request may carry. */
export const MAX_STREAM_EVENTS = METER_EVENT_STREAM_MAX_EVENTS
/** Longest identifier accepted. */
export const MAX_IDENTIFIER_LENGTH = 100

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/

// The last text read and its time.
let lastText = ''
let lastTime = Number.NaN

/**
 * An ISO 8601 timestamp with a zone (`2026-01-01T00:00:00.000Z`) as epoch ms, or NaN.
 *
 * @example
 * parseIsoTimestamp('2026-01-01T00:00:00Z') // 1767225600000
 * parseIsoTimestamp('yesterday')            // NaN
 */
export function parseIsoTimestamp(value: string): number {
  // A batch's events mostly share one timestamp (a client stamps the batch once): read it once.
  if (value === lastText) return lastTime
  const time = ISO.test(value) ? Date.parse(value) : Number.NaN
  lastText = value
  lastTime = time
  return time
}

// The refusals are built from the error table only when a body is refused: nothing per accepted event.
function invalid(param: string, detail: string): ServiceError {
  return tableError('parameter_invalid', { param, detail }, { param })
}

function missing(param: string): ServiceError {
  return tableError('parameter_missing', { param }, { param })
}

function unknown(param: string): ServiceError {
  return tableError('parameter_unknown', { param }, { param })
}

/** A checked stream body: its events and, when any event has one, their times in epoch ms (NaN: none). */
export interface StreamBatch {
  readonly events: StreamEvent[]
  readonly timestamps?: number[]
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * Checks the shape of a stream request body by hand (it is the hot path: no schema library per
 * event) and returns its events. The envelope takes only `events`, an array of 1 to 100 items;
 * each item takes `event_name` and `payload` (required), `identifier` and `timestamp` (optional).
 * What the events mean (meter, customer, value, time window) is checked later, when processed.
 *
 * @example
 * const { events, timestamps } = parseStreamBody({ events: [{ event_name: 'api_call', payload: { service_customer_id: 'cus_1', value: '1' } }] })
 */
export function parseStreamBody(body: Record<string, unknown>): StreamBatch {
  for (const key in body) {
    if (key !== 'events') throw unknown(key)
  }
  const events = body.events
  if (events === undefined) throw missing('events')
  if (!Array.isArray(events)) throw invalid('events', 'expected an array of meter events.')
  const n = events.length
  if (n === 0) throw invalid('events', `must contain between 1 and ${MAX_STREAM_EVENTS} events; it is empty.`)
  if (n > MAX_STREAM_EVENTS) {
    throw invalid('events', `at most ${MAX_STREAM_EVENTS} events per request are allowed; got ${n}.`)
  }
  let timestamps: number[] | undefined
  for (let i = 0; i < n; i++) {
    const item: unknown = events[i]
    if (!isObject(item)) throw invalid(`events.${i}`, 'expected an object.')
    for (const key in item) {
      if (key !== 'event_name' && key !== 'payload' && key !== 'identifier' && key !== 'timestamp') {
        throw unknown(`events.${i}.${key}`)
      }
    }
    const name = item.event_name
    if (typeof name !== 'string' || name === '') {
      throw name === undefined
        ? missing(`events.${i}.event_name`)
        : invalid(`events.${i}.event_name`, 'expected a non-empty string.')
    }
    const payload = item.payload
    if (!isObject(payload)) {
      throw payload === undefined ? missing(`events.${i}.payload`) : invalid(`events.${i}.payload`, 'expected an object.')
    }
    const identifier = item.identifier
    if (
      identifier !== undefined &&
      (typeof identifier !== 'string' || identifier === '' || identifier.length > MAX_IDENTIFIER_LENGTH)
    ) {
      throw invalid(`events.${i}.identifier`, `expected a string of 1 to ${MAX_IDENTIFIER_LENGTH} characters.`)
    }
    const ts = item.timestamp
    if (ts !== undefined) {
      const ms = typeof ts === 'string' ? parseIsoTimestamp(ts) : Number.NaN
      if (Number.isNaN(ms)) {
        throw invalid(`events.${i}.timestamp`, 'expected an ISO 8601 timestamp such as 2026-01-01T00:00:00.000Z.')
      }
      if (timestamps === undefined) timestamps = new Array<number>(n).fill(Number.NaN)
      timestamps[i] = ms
    }
  }
  // The decoded items are handed on as they are: no copy per event on the hot path.
  const checked = events as StreamEvent[]
  return timestamps === undefined ? { events: checked } : { events: checked, timestamps }
}
