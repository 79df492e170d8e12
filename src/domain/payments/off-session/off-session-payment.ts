import { isoTime } from '#kernel/time.js'
import type { Json } from '../../engine/list.js'
import type { Scope } from '../../mode.js'

/**
 * The provider's OffSessionPayment statuses (v2 reference).
 *
 * @example
 * const cancelable: OffSessionPaymentStatus[] = ['pending', 'pending_retry', 'requires_capture']
 */
export type OffSessionPaymentStatus =
  | 'pending'
  | 'pending_retry'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'failed'
  | 'canceled'

/**
 * An off-session payment (`v2.payments.off_session_payment`) as the API shows it, stored once in
 * that form: a business-initiated charge of a saved card, authorised asynchronously with retries.
 *
 * @example
 * sim.service.offSessionPayments.require(scope, 'osp_test_1').status // 'succeeded'
 */
export interface OffSessionPayment extends Json {
  readonly object: 'v2.payments.off_session_payment'
  readonly amount_requested: { readonly value: number; readonly currency: string }
  readonly cadence: 'recurring' | 'unscheduled'
  readonly created: string
  readonly customer: string
  failure_reason: 'rejected_by_partner' | 'retries_exhausted' | null
  last_authorization_attempt_error: string | null
  latest_payment_attempt_record: string | null
  readonly livemode: boolean
  readonly metadata: Record<string, string>
  readonly payment_method: string
  payment_record: string | null
  readonly retry_details: { attempts: number; readonly retry_strategy: 'none' | 'smart' }
  readonly statement_descriptor: string | null
  readonly statement_descriptor_suffix: string | null
  status: OffSessionPaymentStatus
}

/**
 * The checked create params.
 *
 * @example
 * const input: OffSessionPaymentCreate = { amount: { value: 2000, currency: 'usd' }, cadence: 'recurring', customer, payment_method }
 */
export interface OffSessionPaymentCreate {
  readonly amount: { readonly value: number; readonly currency: string }
  readonly cadence: 'recurring' | 'unscheduled'
  readonly customer: string
  readonly payment_method: string
  readonly metadata?: Record<string, string>
  readonly retry_details?: { readonly retry_strategy: 'none' | 'smart' }
  readonly statement_descriptor?: string
  readonly statement_descriptor_suffix?: string
}

/**
 * A new off-session payment, `pending`, with its first attempt still to run.
 *
 * @example
 * newOffSessionPayment('osp_test_1', scope, clock.now, params, 'usd', 'pm_1')
 */
export function newOffSessionPayment(
  id: string,
  scope: Scope,
  now: number,
  input: OffSessionPaymentCreate,
  currency: string,
  paymentMethod: string,
): OffSessionPayment {
  return {
    id,
    object: 'v2.payments.off_session_payment',
    amount_requested: { value: input.amount.value, currency },
    cadence: input.cadence,
    created: isoTime(now),
    customer: input.customer,
    failure_reason: null,
    last_authorization_attempt_error: null,
    latest_payment_attempt_record: null,
    livemode: scope.mode === 'live',
    metadata: { ...input.metadata },
    on_behalf_of: null,
    payment_method: paymentMethod,
    payment_record: null,
    retry_details: { attempts: 0, retry_strategy: input.retry_details?.retry_strategy ?? 'smart' },
    statement_descriptor: input.statement_descriptor ?? null,
    statement_descriptor_suffix: input.statement_descriptor_suffix ?? null,
    status: 'pending',
    test_clock: null,
    transfer_data: null,
  }
}
