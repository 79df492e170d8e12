import { isoTime } from '#kernel/time.js'
import type { MeterEventSession } from '../sessions/sessions.js'
import type { AcceptedMeterEvent, MeterEventAdjustment } from './meter-event-types.js'

/**
 * An accepted meter event as the v2 API shows it (`v2.billing.meter_event`, ISO times).
 *
 * @example
 * meterEventV2(accepted).timestamp // '2026-01-01T00:00:00.000Z'
 */
export function meterEventV2(e: AcceptedMeterEvent): Record<string, unknown> {
  return {
    object: 'v2.billing.meter_event',
    created: isoTime(e.created),
    event_name: e.eventName,
    identifier: e.identifier,
    livemode: e.mode === 'live',
    payload: e.payload,
    timestamp: isoTime(e.timestamp),
  }
}

/**
 * An accepted meter event as the v1 API shows it (`billing.meter_event`, unix seconds).
 *
 * @example
 * meterEventV1(accepted).timestamp // 1767225600
 */
export function meterEventV1(e: AcceptedMeterEvent): Record<string, unknown> {
  return {
    object: 'billing.meter_event',
    created: Math.floor(e.created / 1000),
    event_name: e.eventName,
    identifier: e.identifier,
    livemode: e.mode === 'live',
    payload: e.payload,
    timestamp: Math.floor(e.timestamp / 1000),
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

/**
 * A meter event session as the v2 API shows it, with the token the stream takes.
 *
 * @example
 * sessionV2(s).expires_at // 15 minutes after `created`
 */
export function sessionV2(s: MeterEventSession): Record<string, unknown> {
  return {
    id: s.id,
    object: 'v2.billing.meter_event_session',
    authentication_token: s.token,
    created: isoTime(s.created),
    expires_at: isoTime(s.expiresAt),
    livemode: s.mode === 'live',
  }
}
