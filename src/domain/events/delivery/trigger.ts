import { errorMessage } from '#catalogue/errors.js'
import { objectType } from '#catalogue/index.js'
import type { Accounts } from '../../connect/accounts.js'
import type { Engine } from '../../engine/engine.js'
import type { Kernel } from '../../kernel-parts.js'
import type { Mode } from '../../mode.js'
import { isThinType } from '../destinations/destination-rules.js'
import type { StoredEvent } from '../event.js'
import type { EventStore } from '../event-store.js'
import { fixture } from './trigger-fixture.js'

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

/**
 * Refuses a trigger the service cannot make, before anything is traced or made: a type that is not
 * an event type name, overrides that are no object, an unknown account.
 *
 * @example
 * refuseTrigger('invoice.paid', {}, accounts) // fine
 * refuseTrigger('invoice paid', {}, accounts) // throws TypeError: trigger: 'invoice paid' is not an event type name
 */
export function refuseTrigger(type: unknown, overrides: unknown, accounts: Accounts): void {
  if (typeof type !== 'string' || !/^[a-z0-9_]+(\.[a-z0-9_]+)+$/.test(type))
    throw new TypeError(`trigger: '${String(type).slice(0, 80)}' is not an event type name`)
  if (overrides === undefined) return
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))
    throw new TypeError(`trigger: overrides must be an object, got ${Array.isArray(overrides) ? 'an array' : String(overrides)}`)
  const account = (overrides as TriggerOverrides).account ?? accounts.platform.id
  if (typeof account !== 'string' || accounts.get(account) === undefined)
    throw new TypeError(`trigger: no such account '${String(account).slice(0, 80)}'`)
}

export function createTrigger(kernel: Kernel, events: EventStore, accounts: Accounts, engine: Engine): Trigger {
  const id = (prefix: string, n = 24) => kernel.ids.next(prefix, n)
  return (type, overrides = {}) => {
    refuseTrigger(type, overrides, accounts)
    const account = overrides.account ?? accounts.platform.id
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
