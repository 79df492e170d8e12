import { isoTime } from '#kernel/time.js'
import { timestampOf } from '../engine/v2-object.js'
import type { AcceptedMeterEvent, MeterEventAdjustment } from './meter-event-types.js'

/**
 * An accepted meter event as the API shows it: `v2.billing.meter_event` with ISO times on `/v2`,
 * `billing.meter_event` with unix seconds on `/v1`.
 *
 * @example
 * meterEventObject(accepted, true).timestamp  // '2026-01-01T00:00:00.000Z'
 * meterEventObject(accepted, false).timestamp // 1767225600
 */
export function meterEventObject(e: AcceptedMeterEvent, v2: boolean): Record<string, unknown> {
  return {
    object: v2 ? 'v2.billing.meter_event' : 'billing.meter_event',
    created: timestampOf(v2, e.created),
    event_name: e.eventName,
    identifier: e.identifier,
    livemode: e.mode === 'live',
    payload: e.payload,
    timestamp: timestampOf(v2, e.timestamp),
  }
}

/**
 * A cancellation as the v1 API shows it (`billing.meter_event_adjustment`: no id, no time).
 *
 * @example
 * adjustmentV1(a).status // 'pending'
 */
export function adjustmentV1(a: MeterEventAdjustment): Record<string, unknown> {
  return {
    object: 'billing.meter_event_adjustment',
    cancel: { identifier: a.identifier },
    event_name: a.eventName,
    livemode: a.mode === 'live',
    status: a.status,
    type: 'cancel',
  }
}

/**
 * A cancellation as the v2 API shows it (`v2.billing.meter_event_adjustment`, ISO time).
 *
 * @example
 * adjustmentV2(a).object // 'v2.billing.meter_event_adjustment'
 */
export function adjustmentV2(a: MeterEventAdjustment): Record<string, unknown> {
  return {
    id: a.id,
    object: 'v2.billing.meter_event_adjustment',
    cancel: { identifier: a.identifier },
    created: isoTime(a.created),
    event_name: a.eventName,
    livemode: a.mode === 'live',
    status: a.status,
    type: 'cancel',
  }
}
