import { type AuthenticateInput, authenticate } from '#domain/customer-side/authenticate.js'
import { type ConfirmInput, type ConfirmResult, confirmIntent } from '#domain/customer-side/confirm-intent.js'
import type { CustomerScope } from '#domain/customer-side/customer-scope.js'
import { type PayInvoiceInput, type PayInvoiceResult, payInvoice } from '#domain/customer-side/pay-invoice.js'
import { type PortalActions, portalActions } from '#domain/customer-side/portal-actions.js'
import type { Json } from '#domain/engine/list.js'
import type { Service } from '#domain/service.js'

/**
 * The customer's side, in process: what the customer's browser does on the provider's pages and
 * through its browser library. Each action runs at once; `sim.settle()` delivers its events.
 *
 * @example
 * const { intent } = sim.customer.confirmPaymentIntent(pi.client_secret, { paymentMethod: 'pm_card_threeDSecure2Required' })
 * intent.status // 'requires_action'
 * sim.customer.authenticate(intent.id, { outcome: 'fail' }).status // 'requires_payment_method'
 */
export interface Customer {
  /** Confirms a payment intent by its client secret, as the browser library does with the publishable key. */
  confirmPaymentIntent(clientSecret: string, input?: ConfirmInput): ConfirmResult
  /** Confirms a setup intent by its client secret. */
  confirmSetupIntent(clientSecret: string, input?: ConfirmInput): ConfirmResult
  /** Completes or fails the 3-D Secure challenge of an intent in `requires_action`. */
  authenticate(intentId: string, input: AuthenticateInput): Json
  /** Pays an open invoice on its hosted page. */
  payInvoice(invoiceId: string, input: PayInvoiceInput): PayInvoiceResult
  /** The customer's actions in a billing portal session. */
  portal(sessionId: string, where?: CustomerScope): PortalActions
}

/**
 * Builds `sim.customer` over a service.
 *
 * @example
 * const customer = createCustomer(service)
 * customer.payInvoice('in_1', { paymentMethod: 'pm_card_visa' }).invoice.status // 'paid'
 */
export function createCustomer(service: Service): Customer {
  return {
    confirmPaymentIntent: (secret, input = {}) => confirmIntent(service, 'payment_intent', secret, input),
    confirmSetupIntent: (secret, input = {}) => confirmIntent(service, 'setup_intent', secret, input),
    authenticate: (id, input) => authenticate(service, id, input),
    payInvoice: (id, input) => payInvoice(service, id, input),
    portal: (id, where) => portalActions(service, id, where),
  }
}
