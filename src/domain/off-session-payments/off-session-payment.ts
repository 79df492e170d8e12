import { isoTime } from '#kernel/time.js'
import type { Mode } from '../mode.js'

/** The provider's OffSessionPayment statuses (v2 reference). */
export type OffSessionPaymentStatus =
  | 'pending'
  | 'pending_retry'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'failed'
  | 'canceled'

/** An off-session payment: a business-initiated charge of a saved card, authorised asynchronously with retries. */
export interface OffSessionPayment {
  readonly id: string
  readonly account: string
  readonly mode: Mode
  readonly created: number
  readonly amount: { readonly value: number; readonly currency: string }
  readonly cadence: 'recurring' | 'unscheduled'
  readonly customer: string
  readonly paymentMethod: string
  readonly metadata: Record<string, string>
  readonly retryStrategy: 'none' | 'smart'
  readonly statementDescriptor: string | null
  readonly statementDescriptorSuffix: string | null
  status: OffSessionPaymentStatus
  attempts: number
  failureReason: 'rejected_by_partner' | 'retries_exhausted' | null
  lastAuthorizationAttemptError: string | null
  latestPaymentAttemptRecord: string | null
  paymentRecord: string | null
  /** The latest charge (not part of the provider's object; kept for the ledger link). */
  latestCharge: string | null
}

/**
 * The v2 JSON of an off-session payment (`object: 'v2.payments.off_session_payment'`, ISO timestamps).
 *
 * @example
 * offSessionPaymentJson(osp) // { id: 'osp_test_…', object: 'v2.payments.off_session_payment', status: 'pending', ... }
 */
export function offSessionPaymentJson(o: OffSessionPayment): Record<string, unknown> {
  return {
    id: o.id,
    object: 'v2.payments.off_session_payment',
    amount_requested: { value: o.amount.value, currency: o.amount.currency },
    cadence: o.cadence,
    created: isoTime(o.created),
    customer: o.customer,
    failure_reason: o.failureReason,
    last_authorization_attempt_error: o.lastAuthorizationAttemptError,
    latest_payment_attempt_record: o.latestPaymentAttemptRecord,
    livemode: o.mode === 'live',
    metadata: { ...o.metadata },
    on_behalf_of: null,
    payment_method: o.paymentMethod,
    payment_record: o.paymentRecord,
    retry_details: { attempts: o.attempts, retry_strategy: o.retryStrategy },
    statement_descriptor: o.statementDescriptor,
    statement_descriptor_suffix: o.statementDescriptorSuffix,
    status: o.status,
    test_clock: null,
    transfer_data: null,
  }
}
