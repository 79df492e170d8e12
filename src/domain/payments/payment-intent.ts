import type { Json } from '../engine/list.js'
import { type ServiceError, tableError } from '../service-error.js'

/** The provider's payment intent statuses. */
export type PaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'canceled'

/** A payment intent as the API shows it, stored once by the engine. */
export type PaymentIntent = Json

/** Statuses an intent can be canceled from. */
export const CANCELABLE: ReadonlySet<string> = new Set([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'requires_capture',
])

/** Statuses an intent can be updated in. */
export const UPDATABLE: ReadonlySet<string> = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action'])

/** Statuses an intent can be confirmed from. */
export const CONFIRMABLE: ReadonlySet<string> = new Set(['requires_payment_method', 'requires_confirmation'])

const PAST: Readonly<Record<string, string>> = {
  confirm: 'confirmed',
  capture: 'captured',
  cancel: 'canceled',
  update: 'updated',
  authenticate: 'authenticated',
  'increment the authorization of': 'incremented',
  'apply a customer balance to': 'funded',
  'verify microdeposits on': 'verified',
}

/**
 * The provider's refusal of an action the intent's status does not allow, carrying the intent.
 *
 * @example
 * throw unexpectedState(pi, 'cancel', [...CANCELABLE]) // 400 payment_intent_unexpected_state
 */
export function unexpectedState(p: PaymentIntent, action: string, allowed: Iterable<string>): ServiceError {
  return tableError(
    'payment_intent_unexpected_state',
    { action, status: String(p.status), past: PAST[action] ?? action, allowed: [...allowed].join(', ') },
    { extra: { payment_intent: p } },
  )
}

/**
 * Whether an `off_session` param asks for an off-session payment (`true`, or the kind of one).
 *
 * @example
 * isOffSession('recurring') // true
 */
export function isOffSession(value: unknown): boolean {
  return value === true || value === 'one_off' || value === 'recurring'
}

/**
 * The provider's `use_stripe_sdk` action: Stripe.js runs the 3-D Secure 2 challenge from these ids.
 * The source id is derived from the intent so the action is the same on every read.
 *
 * @example
 * threeDSecureAction(pi, 'acct_1', 'visa').type // 'use_stripe_sdk'
 */
export function threeDSecureAction(p: PaymentIntent, account: string, brand: unknown): Record<string, unknown> {
  return {
    type: 'use_stripe_sdk',
    use_stripe_sdk: {
      type: 'stripe_3ds2_fingerprint',
      directory_server_name: brand,
      merchant: account,
      server_transaction_id: `${p.id}_3ds2`,
      three_d_secure_2_source: `src_${p.id.slice(3)}`,
    },
  }
}
