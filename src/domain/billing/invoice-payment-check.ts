import { errorDocUrl, errorMessage } from '#catalogue/errors.js'
import type { Scope } from '../mode.js'
import { invalidRequest, ServiceError } from '../service-error.js'
import type { BillingContext } from './context.js'

/**
 * Refuses, before anything is made, a first payment that would fail (`error_if_incomplete`): no
 * payment method (400), or a card the issuer declines off-session (402 with the decline), as the
 * provider answers when it does not create the subscription.
 *
 * @example
 * checkPayable(ctx, scope, 'cus_1', undefined) // throws 400 when the customer has no default payment method
 */
export function checkPayable(ctx: BillingContext, scope: Scope, customerId: string, subPaymentMethod: unknown): void {
  const customer = ctx.r.customer().get(scope, customerId)
  const fallback = (customer?.invoice_settings as { default_payment_method?: unknown } | undefined)?.default_payment_method
  const pmId = typeof subPaymentMethod === 'string' && subPaymentMethod !== '' ? subPaymentMethod : fallback
  const pm = typeof pmId === 'string' ? ctx.options.paymentMethods.get(scope, pmId) : undefined
  if (pm === undefined) {
    throw invalidRequest(errorMessage('invoice_no_customer_payment_method', {}), { code: 'invoice_no_customer_payment_method' })
  }
  const outcome = ctx.options.paymentMethods.outcome(scope, pm, { offSession: true, authenticated: false })
  if (outcome.kind !== 'decline') return
  throw new ServiceError({
    status: 402,
    type: 'card_error',
    code: outcome.code,
    message: outcome.message,
    // A bank debit's refusal has no issuer decline code: the member is absent, never null.
    extra: {
      ...(outcome.declineCode === null ? {} : { decline_code: outcome.declineCode }),
      doc_url: errorDocUrl(outcome.code),
    },
  })
}
