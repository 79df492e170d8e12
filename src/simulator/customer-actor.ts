import { type PayInvoiceInput, type PayInvoiceResult, payInvoice } from '#domain/billing/invoices/pay-invoice.js'
import { type PortalActions, portalActions } from '#domain/billing/portal/portal-actions.js'
import { type CheckoutCompletion, completeCheckout } from '#domain/checkout/complete-checkout.js'
import { openPaymentLink } from '#domain/checkout/payment-links-resource.js'
import type { CustomerScope } from '#domain/customer-scope.js'
import type { Json } from '#domain/engine/list.js'
import { NO_ORIGIN } from '#domain/events/emit-snapshot.js'
import type { Scope } from '#domain/mode.js'
import { type AuthenticateInput, authenticate } from '#domain/payments/authenticate.js'
import { type ConfirmInput, type ConfirmResult, confirmIntent } from '#domain/payments/confirm-intent.js'
import type { Service } from '#domain/service.js'
import { ServiceError } from '#domain/service-error.js'

export type { CheckoutCompletion } from '#domain/checkout/complete-checkout.js'

/** An object as the API shows it (a checkout session...). */
export type ApiObject = Readonly<Record<string, unknown>> & { readonly id: string }

/**
 * The customer's side, in process: what the customer's browser does on the provider's pages and
 * through its browser library. Each action runs at once (`sim.settle()` delivers its events) and is
 * traced (`customer.action`), so a run that uses them is replayable. Refusals are the provider's
 * errors (`ServiceError`: `status`, `type`, `code`, `message`).
 *
 * @example
 * const session = await stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ price, quantity: 1 }], success_url })
 * const done = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_card_visa' })
 * done.status // 'complete'
 * const { intent } = sim.customer.confirmPaymentIntent(pi.client_secret, { paymentMethod: 'pm_card_threeDSecure2Required' })
 * sim.customer.authenticate(intent.id, { outcome: 'fail' }).status // 'requires_payment_method'
 */
export interface CustomerActor {
  /**
   * Completes a checkout session as the customer would on its page (see `completeCheckout` in the
   * domain): pays, subscribes or saves the payment method, then `checkout.session.completed`. A
   * declining card rejects with a 402 `card_error` and leaves the session open.
   */
  completeCheckout(sessionId: string, input?: CheckoutCompletion): Promise<ApiObject>
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
  /**
   * Visits a payment link (by id or its `url`): opens a checkout session of the link, as the
   * provider does when a customer follows it. Refuses an inactive or unknown link.
   *
   * @example
   * sim.customer.openPaymentLink('plink_1', { account: sim.platform.id, mode: 'test' }).id // 'cs_test_…'
   */
  openPaymentLink(link: string, scope: Scope): ApiObject
}

/**
 * Refuses a customer action's arguments of the wrong kind before the action runs or is traced,
 * naming the action and the argument: an id, secret or link must be a non-empty string, an input,
 * `where` or `scope` an object (`undefined` where optional). Answers `undefined`, to chain with `??`.
 */
function refuseActionInput(action: string, args: Readonly<Record<string, unknown>>): undefined {
  for (const [name, value] of Object.entries(args)) {
    const isText = name !== 'input' && name !== 'where' && name !== 'scope'
    const ok = isText
      ? typeof value === 'string' && value !== ''
      : value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value))
    if (!ok)
      throw new TypeError(
        `customer.${action}: ${name} must be ${isText ? 'a non-empty string' : 'an object'}, got ${
          value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
        }`,
      )
  }
  return undefined
}

/**
 * Builds `sim.customer` over a service: the paying person's actions, not a customer object of the API.
 *
 * @example
 * const customer = createCustomerActor(service)
 * customer.payInvoice('in_1', { paymentMethod: 'pm_card_visa' }).invoice.status // 'paid'
 */
export function createCustomerActor(service: Service): CustomerActor {
  /** Runs one action, tracing what it did and how it ended. */
  function act<T>(action: string, target: string, run: () => T): T {
    try {
      const result = run()
      service.kernel.trace.append('customer.action', { action, target, outcome: 'ok' })
      return result
    } catch (error) {
      const outcome = error instanceof ServiceError ? error.code : 'error'
      service.kernel.trace.append('customer.action', { action, target, outcome })
      throw error
    }
  }
  return {
    completeCheckout: async (sessionId, input = {}) => {
      refuseActionInput('completeCheckout', { sessionId, input })
      return act('completeCheckout', sessionId, () => completeCheckout(service, sessionId, input)) as ApiObject
    },
    confirmPaymentIntent: (secret, input = {}) =>
      refuseActionInput('confirmPaymentIntent', { clientSecret: secret, input }) ??
      act('confirmPaymentIntent', secret.split('_secret_')[0] ?? '', () =>
        confirmIntent(service, 'payment_intent', secret, input),
      ),
    confirmSetupIntent: (secret, input = {}) =>
      refuseActionInput('confirmSetupIntent', { clientSecret: secret, input }) ??
      act('confirmSetupIntent', secret.split('_secret_')[0] ?? '', () => confirmIntent(service, 'setup_intent', secret, input)),
    authenticate: (id, input) =>
      refuseActionInput('authenticate', { intentId: id, input: input ?? null }) ??
      act('authenticate', id, () => authenticate(service, id, input)),
    payInvoice: (id, input) =>
      refuseActionInput('payInvoice', { invoiceId: id, input: input ?? null }) ??
      act('payInvoice', id, () => payInvoice(service, id, input)),
    portal: (id, where) => refuseActionInput('portal', { sessionId: id, where }) ?? portalActions(service, id, where),
    // Not wrapped in `act`: a visit only opens the session; what the customer then does there is the action traced.
    openPaymentLink: (link, scope) =>
      refuseActionInput('openPaymentLink', { link, scope: scope ?? null }) ??
      (openPaymentLink(service.engine, scope, link, NO_ORIGIN) as ApiObject),
  }
}
