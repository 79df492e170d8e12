import { type CheckoutCompletion, completeCheckout } from '#domain/customer-side/complete-checkout.js'
import type { Service } from '#domain/service.js'
import { ServiceError } from '#domain/service-error.js'

export type { CheckoutCompletion } from '#domain/customer-side/complete-checkout.js'

/** An object as the API shows it (a checkout session...). */
export type ApiObject = Readonly<Record<string, unknown>> & { readonly id: string }

/**
 * The customer's side: what a customer's browser does on the provider's pages, in process. Each
 * action is traced (`customer.action`) so a run that uses them is replayable. Refusals are the
 * provider's errors (`ServiceError`: `status`, `type`, `code`, `message`), thrown as the rejection.
 *
 * @example
 * const session = await stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ price, quantity: 1 }], success_url })
 * const done = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_card_visa' })
 * done.status // 'complete'
 */
export interface Customer {
  /**
   * Completes a checkout session as the customer would on its page (see `completeCheckout` in the
   * domain): pays, subscribes or saves the payment method, then `checkout.session.completed`. A
   * declining card rejects with a 402 `card_error` and leaves the session open.
   */
  completeCheckout(sessionId: string, input?: CheckoutCompletion): Promise<ApiObject>
}

/**
 * Builds `sim.customer` over the service.
 *
 * @example
 * const customer = createCustomer(service)
 * await customer.completeCheckout('cs_test_…')
 */
export function createCustomer(service: Service): Customer {
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
    completeCheckout: async (sessionId, input = {}) =>
      act('completeCheckout', sessionId, () => completeCheckout(service, sessionId, input)) as ApiObject,
  }
}
