import { DEFAULT_CUSTOMER_PAYLOAD_KEY } from '#catalogue/rules.js'

/** How a meter folds its events into one number per window. */
export type MeterFormula = 'sum' | 'count' | 'last'

/** `active` meters accept events; `inactive` (archived) meters refuse them with `archived_meter`. */
export type MeterStatus = 'active' | 'inactive'

/**
 * A billing meter as the API shows it (`billing.meter`, times in unix seconds), stored once, in
 * the engine: the event name it matches, where the customer and the value sit in an event's
 * payload, and how its events are aggregated. Meters live in one account and one mode.
 */
export interface Meter {
  readonly id: string
  readonly object: 'billing.meter'
  readonly created: number
  readonly customer_mapping: { readonly event_payload_key: string; readonly type: 'by_id' }
  readonly default_aggregation: { readonly formula: MeterFormula }
  readonly display_name: string
  readonly event_name: string
  readonly event_time_window: 'day' | 'hour' | null
  readonly livemode: boolean
  readonly status: MeterStatus
  readonly status_transitions: { readonly deactivated_at: number | null }
  readonly updated: number
  readonly value_settings: { readonly event_payload_key: string }
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
