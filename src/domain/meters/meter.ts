import { DEFAULT_CUSTOMER_PAYLOAD_KEY } from '#catalogue/rules.js'
import type { Mode } from '../mode.js'

/** How a meter folds its events into one number per window. */
export type MeterFormula = 'sum' | 'count' | 'last'

/** `active` meters accept events; `inactive` (archived) meters refuse them with `archived_meter`. */
export type MeterStatus = 'active' | 'inactive'

/**
 * A billing meter: the event name it matches, where the customer and the value sit in an event's
 * payload, and how its events are aggregated. Meters live in one account and one mode.
 */
export interface Meter {
  readonly id: string
  readonly account: string
  readonly mode: Mode
  readonly eventName: string
  displayName: string
  readonly customerKey: string
  readonly valueKey: string
  readonly formula: MeterFormula
  readonly eventTimeWindow: 'day' | 'hour' | null
  status: MeterStatus
  readonly created: number
  updated: number
  deactivatedAt: number | null
}

/**
 * The `billing.meter` object of the v1 API, with times in unix seconds.
 *
 * @example
 * meterJson(meter).customer_mapping // { event_payload_key: 'service_customer_id', type: 'by_id' }
 */
export function meterJson(meter: Meter): Record<string, unknown> {
  return {
    id: meter.id,
    object: 'billing.meter',
    created: Math.floor(meter.created / 1000),
    customer_mapping: { event_payload_key: meter.customerKey, type: 'by_id' },
    default_aggregation: { formula: meter.formula },
    display_name: meter.displayName,
    event_name: meter.eventName,
    event_time_window: meter.eventTimeWindow,
    livemode: meter.mode === 'live',
    status: meter.status,
    status_transitions: { deactivated_at: meter.deactivatedAt === null ? null : Math.floor(meter.deactivatedAt / 1000) },
    updated: Math.floor(meter.updated / 1000),
    value_settings: { event_payload_key: meter.valueKey },
  }
}

/**
 * The customer payload key a meter uses when none is given: `<prefix>_customer_id` in lower case,
 * so `service_customer_id` by default and `stripe_customer_id` under the `Stripe` prefix.
 *
 * @example
 * defaultCustomerKey('Stripe') // 'stripe_customer_id'
 */
export function defaultCustomerKey(prefix: string): string {
  return DEFAULT_CUSTOMER_PAYLOAD_KEY.replace(/^service/, prefix.toLowerCase())
}
