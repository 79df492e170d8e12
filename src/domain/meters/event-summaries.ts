import { createHash } from 'node:crypto'
import { DAY, HOUR } from '#kernel/time.js'
import { invalidRequest } from '../service-error.js'
import { formulaValue } from './aggregates.js'
import type { Meter } from './meter.js'
import type { MeterEvents } from './meter-event-types.js'

/** Most windows one event-summaries query may span (a year of hours is 8,760). */
export const MAX_SUMMARY_WINDOWS = 10_000

/** What an event-summaries query asks for (unix seconds), as the catalogue checked it. */
export interface SummaryQuery {
  readonly customer: string
  readonly start_time: number
  readonly end_time: number
  readonly value_grouping_window?: 'hour' | 'day' | undefined
}

function summaryId(meter: string, customer: string, start: number, end: number, livemode: boolean): string {
  const digest = createHash('sha256').update(`${meter}|${customer}|${start}|${end}`).digest('base64url').slice(0, 32)
  return `mtrusg_${livemode ? 'live' : 'test'}_${digest.replace(/[-_]/g, '0')}`
}

function checkAligned(name: 'start_time' | 'end_time', t: number, step: number, window: 'hour' | 'day'): void {
  if (t % step === 0) return
  throw invalidRequest(
    `${name} must be aligned with ${window === 'hour' ? 'hour' : 'UTC day'} boundaries when value_grouping_window is '${window}'.`,
    { param: name },
  )
}

/**
 * The windows an event-summaries query asks for, in unix seconds, validated as the provider does.
 *
 * @example
 * summaryWindows({ customer: 'cus_1', start_time: 0, end_time: 7200, value_grouping_window: 'hour' }) // [[0, 3600], [3600, 7200]]
 */
export function summaryWindows(q: SummaryQuery): [number, number][] {
  const { start_time: start, end_time: end } = q
  if (start % 60 !== 0) throw invalidRequest('start_time must be aligned with minute boundaries.', { param: 'start_time' })
  if (end % 60 !== 0) throw invalidRequest('end_time must be aligned with minute boundaries.', { param: 'end_time' })
  if (end <= start) throw invalidRequest('end_time must be after start_time.', { param: 'end_time' })
  const window = q.value_grouping_window
  if (window === undefined) return [[start, end]]
  const step = (window === 'hour' ? HOUR : DAY) / 1000
  checkAligned('start_time', start, step, window)
  checkAligned('end_time', end, step, window)
  if ((end - start) / step > MAX_SUMMARY_WINDOWS) {
    throw invalidRequest(`The range spans more than ${MAX_SUMMARY_WINDOWS} windows; narrow start_time and end_time.`, {
      param: 'end_time',
    })
  }
  const out: [number, number][] = []
  for (let t = start; t < end; t += step) out.push([t, t + step])
  return out
}

/**
 * The `billing.meter_event_summary` objects of a query: processed usage per window, folded by the
 * meter's formula.
 *
 * @example
 * eventSummaries(meter, meterEvents, { customer: 'cus_1', start_time, end_time })[0]?.aggregated_value
 */
export function eventSummaries(
  meter: Meter,
  meterEvents: MeterEvents,
  q: SummaryQuery,
): (Record<string, unknown> & { id: string })[] {
  const { livemode } = meter
  return summaryWindows(q).map(([start, end]) => ({
    id: summaryId(meter.id, q.customer, start, end, livemode),
    object: 'billing.meter_event_summary',
    aggregated_value: formulaValue(
      meter.default_aggregation.formula,
      meterEvents.window(meter, q.customer, start * 1000, end * 1000),
    ),
    end_time: end,
    livemode,
    meter: meter.id,
    start_time: start,
  }))
}
