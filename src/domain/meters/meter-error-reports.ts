import type { Ids } from '#kernel/ids.js'
import { isoTime } from '#kernel/time.js'
import type { EventStore } from '../events/event-store.js'
import type { Scope } from '../mode.js'
import type { Meter } from './meter.js'
import { ASYNC_CODES, type MeterEventProblem, problemMessage } from './meter-event-rules.js'

/** Sample errors kept per error type in a report, as the provider's reports carry a few samples. */
export const MAX_SAMPLE_ERRORS = 5

/** One invalid stream event of a processed batch. */
export interface BatchError {
  readonly event: { readonly identifier?: string | undefined; readonly event_name: string }
  readonly meter: Meter | undefined
  readonly problem: MeterEventProblem
}

interface ErrorType {
  code: string
  error_count: number
  sample_errors: { error_message: string; request: { identifier: string } }[]
}

function reason(errors: readonly BatchError[], now: number, ids: Ids): Record<string, unknown> {
  const types = new Map<string, ErrorType>()
  for (const e of errors) {
    const code = ASYNC_CODES[e.problem]
    let t = types.get(code)
    if (t === undefined) {
      t = { code, error_count: 0, sample_errors: [] }
      types.set(code, t)
    }
    t.error_count++
    if (t.sample_errors.length < MAX_SAMPLE_ERRORS) {
      t.sample_errors.push({
        error_message: problemMessage(e.problem, e.event.event_name, e.meter, now),
        request: { identifier: e.event.identifier ?? ids.next('mev', 24) },
      })
    }
  }
  return { error_count: errors.length, error_types: [...types.values()] }
}

function counts(errors: readonly BatchError[]): string {
  const byCode = new Map<string, number>()
  for (const e of errors) byCode.set(ASYNC_CODES[e.problem], (byCode.get(ASYNC_CODES[e.problem]) ?? 0) + 1)
  return [...byCode].map(([code, n]) => `${code}: ${n}`).join(', ')
}

/**
 * Turns the invalid events of one processed stream batch into thin events: one
 * `v1.billing.meter.error_report_triggered` per meter (related object: the meter) and one
 * `v1.billing.meter.no_meter_found` for events whose name matches no meter. The full events carry
 * `data.developer_message_summary`, `data.reason` and the validation window.
 *
 * @example
 * reportBatchErrors(events, scope, [{ event, meter, problem: 'invalid_value' }], receivedAt, now, ids)
 */
export function reportBatchErrors(
  events: EventStore,
  scope: Scope,
  errors: readonly BatchError[],
  receivedAt: number,
  now: number,
  ids: Ids,
): void {
  const window = { validation_start: isoTime(receivedAt), validation_end: isoTime(now) }
  const noMeter: BatchError[] = []
  const byMeter = new Map<Meter, BatchError[]>()
  for (const e of errors) {
    if (e.meter === undefined) {
      noMeter.push(e)
      continue
    }
    const list = byMeter.get(e.meter)
    if (list === undefined) byMeter.set(e.meter, [e])
    else list.push(e)
  }
  for (const [meter, list] of byMeter) {
    events.thin({
      type: 'v1.billing.meter.error_report_triggered',
      account: scope.account,
      mode: scope.mode,
      relatedObject: { id: meter.id, type: 'billing.meter', url: `/v1/billing/meters/${meter.id}` },
      data: {
        developer_message_summary: `There is an issue with your meter '${meter.display_name}' (${meter.id}): ${list.length} meter event${list.length === 1 ? '' : 's'} failed validation (${counts(list)}).`,
        reason: reason(list, now, ids),
        ...window,
      },
    })
  }
  if (noMeter.length > 0) {
    const names = [...new Set(noMeter.map((e) => `'${e.event.event_name}'`))].join(', ')
    events.thin({
      type: 'v1.billing.meter.no_meter_found',
      account: scope.account,
      mode: scope.mode,
      data: {
        developer_message_summary: `${noMeter.length} meter event${noMeter.length === 1 ? '' : 's'} named no existing meter (event_name ${names}).`,
        reason: reason(noMeter, now, ids),
        ...window,
      },
    })
  }
}
