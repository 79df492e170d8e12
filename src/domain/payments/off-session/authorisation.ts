import { DAY } from '#kernel/time.js'
import { NO_ORIGIN } from '../../events/emit-snapshot.js'
import type { Kernel } from '../../kernel-parts.js'
import type { Scope } from '../../mode.js'
import type { Charges } from '../charges.js'
import type { PaymentMethods } from '../payment-methods.js'
import type { OffSessionPayment } from './off-session-payment.js'

/**
 * Delays of the smart-retry schedule after each failed attempt: 1, 3 and 5 days (4 attempts in all).
 *
 * @example
 * SMART_RETRY_DELAYS[attempts - 1] // the wait before the next attempt, if any
 */
export const SMART_RETRY_DELAYS: readonly number[] = [1 * DAY, 3 * DAY, 5 * DAY]

/** Decline codes the issuer will never approve: no retry, `failure_reason: rejected_by_partner`. */
// A card that needs the customer present cannot succeed on a retry without them: fail at once.
const HARD_DECLINES = new Set(['lost_card', 'stolen_card', 'expired_card', 'incorrect_cvc', 'authentication_required'])

/**
 * What an attempt uses of the service, and how it reports.
 *
 * @example
 * authorise(book, payment, scope) // the off-session payments book is its own ports
 */
export interface AuthorisationPorts {
  readonly kernel: Kernel
  readonly paymentMethods: PaymentMethods
  readonly charges: Charges
  /** Emits `v2.payments.off_session_payment.<what>` for the payment. */
  emit(o: OffSessionPayment, scope: Scope, what: string): void
  /** Schedules the next attempt after `delay` ms. */
  retryAfter(o: OffSessionPayment, scope: Scope, delay: number): void
}

/**
 * One authorisation attempt: a charge of the saved card. Success -> `succeeded`; a soft decline
 * with `retry_strategy: smart` -> `pending_retry` and a retry on {@link SMART_RETRY_DELAYS}; a hard
 * decline, `retry_strategy: none` or the last retry failing -> `failed`.
 *
 * @example
 * authorise(ports, payment, scope)
 */
export function authorise(ports: AuthorisationPorts, o: OffSessionPayment, scope: Scope): void {
  const { kernel } = ports
  const pm = ports.paymentMethods.get(scope, o.payment_method)
  if (pm === undefined) throw new Error(`off-session payment ${o.id}: payment method vanished`)
  o.status = 'processing'
  o.retry_details.attempts += 1
  o.latest_payment_attempt_record = kernel.ids.next(`par_${scope.mode}`, 40)
  o.payment_record ??= kernel.ids.next(`pr_${scope.mode}`, 40)
  ports.emit(o, scope, 'attempt_started')
  const charge = ports.charges.attempt(
    scope,
    {
      amount: o.amount_requested.value,
      currency: o.amount_requested.currency,
      customer: o.customer,
      paymentMethod: pm,
      paymentIntent: null,
      description: null,
      metadata: o.metadata,
      capture: true,
    },
    NO_ORIGIN,
  )
  const attempts = o.retry_details.attempts
  kernel.trace.append('off_session_payment.attempt', { id: o.id, attempt: attempts, status: charge.status })
  if (charge.status === 'succeeded') {
    o.status = 'succeeded'
    o.last_authorization_attempt_error = null
    ports.emit(o, scope, 'succeeded')
    return
  }
  o.last_authorization_attempt_error = charge.declineCode ?? charge.failureCode
  const smart = o.retry_details.retry_strategy === 'smart' && !HARD_DECLINES.has(charge.declineCode ?? '')
  const delay = SMART_RETRY_DELAYS[attempts - 1]
  if (smart && delay !== undefined) {
    o.status = 'pending_retry'
    ports.emit(o, scope, 'attempt_failed')
    ports.retryAfter(o, scope, delay)
    return
  }
  o.status = 'failed'
  o.failure_reason = smart ? 'retries_exhausted' : 'rejected_by_partner'
  ports.emit(o, scope, 'failed')
}
