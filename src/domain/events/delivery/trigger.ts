import { ERRORS, errorMessage } from '#catalogue/errors.js'
import { objectType } from '#catalogue/index.js'
import type { Accounts } from '../../connect/accounts.js'
import type { Engine } from '../../engine/engine.js'
import type { Kernel } from '../../kernel-parts.js'
import type { Mode } from '../../mode.js'
import { isThinType } from '../destinations/destination-rules.js'
import type { StoredEvent } from '../event.js'
import type { EventStore } from '../event-store.js'

/** What `trigger` may change in the generated event. */
export interface TriggerOverrides {
  /** Account whose resource changed (default: the platform). */
  account?: string
  mode?: Mode
  /** Merged over the generated `data.object` (snapshot events). */
  object?: Record<string, unknown>
  /** Replaces `data` of a thin event. */
  data?: Record<string, unknown>
  /** Replaces the `related_object` of a thin event (null: none). */
  relatedObject?: { id: string; type: string; url: string } | null
}

/** Every event type the spec names; `trigger` also accepts other types with a generic object. */
export const TRIGGERABLE_TYPES: readonly string[] = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_method.attached',
  'customer.created',
  'customer.subscription.created',
  'invoice.created',
  'invoice.paid',
  'charge.created',
  'checkout_sessions.completed',
  'issuing_authorization.request',
  'v1.billing.meter.error_report_triggered',
  'v1.billing.meter.no_meter_found',
]

/**
 * Creates realistic events of any type, like the provider's command-line `trigger`, so receivers
 * can be tested for resources the simulator does not model. `data.object` is built by the
 * resource engine's object builder (every non-optional field of the catalogue's type), with the
 * fixture's telling values over it.
 *
 * @example
 * const trigger = createTrigger(kernel, events, accounts)
 * trigger('invoice.paid', { object: { amount_paid: 500 } })
 */
export type Trigger = (type: string, overrides?: TriggerOverrides) => StoredEvent

export function createTrigger(kernel: Kernel, events: EventStore, accounts: Accounts, engine: Engine): Trigger {
  const id = (prefix: string, n = 24) => kernel.ids.next(prefix, n)
  return (type, overrides = {}) => {
    if (!/^[a-z0-9_]+(\.[a-z0-9_]+)+$/.test(type)) throw new TypeError(`trigger: '${type}' is not an event type name`)
    const account = overrides.account ?? accounts.platform.id
    if (accounts.get(account) === undefined) throw new TypeError(`trigger: no such account '${account}'`)
    const mode = overrides.mode ?? 'test'
    const livemode = mode === 'live'
    const created = Math.floor(kernel.clock.now / 1000)
    if (isThinType(type)) {
      const meter = id('mtr', 24)
      const related =
        overrides.relatedObject !== undefined
          ? overrides.relatedObject
          : type === 'v1.billing.meter.no_meter_found'
            ? null
            : { id: meter, type: 'billing.meter', url: `/v1/billing/meters/${meter}` }
      const data =
        overrides.data ??
        (type.startsWith('v1.billing.meter.')
          ? meterErrorData(type, kernel.clock.now, kernel.prefix.toLowerCase(), id('req', 14))
          : {})
      return events.thin({ type, account, mode, ...(related ? { relatedObject: related } : {}), data })
    }
    const values = fixture(type, id, created, livemode, kernel.prefix.toLowerCase())
    const catalogueType = typeof values.object === 'string' ? objectType(values.object) : undefined
    const built =
      catalogueType === undefined ? values : engine.build(catalogueType, values.object as string, { account, mode }, values)
    const object = { ...built, ...overrides.object }
    return events.snapshot({ type, account, mode, object })
  }
}

function meterErrorData(type: string, now: number, prefix: string, request: string): Record<string, unknown> {
  const noMeter = type === 'v1.billing.meter.no_meter_found'
  const code = noMeter ? 'no_meter' : 'meter_event_no_customer_defined'
  const message = noMeter
    ? errorMessage('no_meter', { event_name: 'api_requests' })
    : `Missing expected payload key ${prefix}_customer_id.`
  return {
    developer_message_summary: noMeter ? 'There is 1 event with no meter' : 'There is 1 invalid event',
    reason: {
      error_count: 1,
      error_types: [
        { code, error_count: 1, sample_errors: [{ error_message: message, request: { id: request, identifier: 'evt-1' } }] },
      ],
    },
    validation_start: new Date(now - 60_000).toISOString(),
    validation_end: new Date(now).toISOString(),
  }
}

function fixture(
  type: string,
  id: (prefix: string, n?: number) => string,
  created: number,
  livemode: boolean,
  prefix: string,
): Record<string, unknown> {
  const resource = type.slice(0, type.lastIndexOf('.'))
  const customer = id('cus', 14)
  const base = { created, livemode, metadata: {} }
  switch (resource) {
    case 'payment_intent': {
      const failed = type === 'payment_intent.payment_failed'
      return {
        id: id('pi'),
        object: 'payment_intent',
        amount: 2000,
        amount_received: failed ? 0 : 2000,
        currency: 'usd',
        customer: null,
        payment_method: id('pm'),
        status: failed ? 'requires_payment_method' : 'succeeded',
        last_payment_error: failed
          ? {
              code: 'card_declined',
              decline_code: 'generic_decline',
              message: errorMessage('card_declined'),
              type: ERRORS.card_declined.type,
            }
          : null,
        ...base,
      }
    }
    case 'payment_method':
      return {
        id: id('pm'),
        object: 'payment_method',
        type: 'card',
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
        customer,
        ...base,
      }
    case 'customer':
      return { id: customer, object: 'customer', email: 'jenny.rosen@example.com', name: 'Jenny Rosen', ...base }
    case 'customer.subscription':
      return {
        id: id('sub'),
        object: 'subscription',
        customer,
        status: 'active',
        items: { object: 'list', data: [], has_more: false },
        ...base,
      }
    case 'invoice': {
      const paid = type === 'invoice.paid'
      return {
        id: id('in'),
        object: 'invoice',
        customer,
        amount_due: 1500,
        amount_paid: paid ? 1500 : 0,
        currency: 'usd',
        status: paid ? 'paid' : 'draft',
        ...base,
      }
    }
    case 'charge':
      return { id: id('ch'), object: 'charge', amount: 2000, currency: 'usd', paid: true, status: 'succeeded', ...base }
    case 'checkout_sessions':
      return {
        id: id(livemode ? 'cs_live' : 'cs_test', 32),
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        amount_total: 2000,
        currency: 'usd',
        ...base,
      }
    case 'issuing_authorization':
      return {
        id: id('iauth'),
        object: 'issuing.authorization',
        amount: 0,
        approved: false,
        currency: 'usd',
        status: 'pending',
        card: { id: id('ic'), object: 'issuing.card', last4: '0005' },
        merchant_data: { category: 'computer_software_stores', name: 'Rocket Rides', country: 'US' },
        pending_request: { amount: 1000, currency: 'usd', is_amount_controllable: false },
        ...base,
      }
    default:
      return {
        id: id(resource.replace(/[^a-z]/g, '').slice(0, 6) || 'obj'),
        object: resource,
        [`${prefix}_note`]: 'triggered',
        ...base,
      }
  }
}
