import { runAsCustomer } from '../../customer-scope.js'
import type { Json } from '../../engine/list.js'
import { NO_ORIGIN } from '../../events/emit-snapshot.js'
import type { Scope } from '../../mode.js'
import type { PaymentMethod } from '../../payments/payment-method.js'
import { authenticateSetup } from '../../payments/setup-intents/setup-flow.js'
import type { Service } from '../../service.js'

const run = runAsCustomer

/**
 * Subscribes with a card whose issuer asks for 3-D Secure, the customer present on the checkout
 * page (the challenge already passed: a failed one is refused before anything is made). A first
 * invoice to pay is left unpaid by the subscription (`default_incomplete`), finalized, and paid
 * on-session with the challenge completed (the card saved for off-session renewals), which makes
 * the subscription active. A free first
 * invoice (a trial) saves the card for the renewals instead: a setup intent authenticated the same
 * way, then the subscription.
 *
 * @example
 * subscribeWithChallenge(service, scope, pm, params).status // 'active'
 */
export function subscribeWithChallenge(
  service: Service,
  scope: Scope,
  pm: PaymentMethod,
  params: Record<string, unknown>,
  firstAmount: number,
  heldPrices: readonly string[] = [],
): Json {
  const customer = String(params.customer)
  if (firstAmount === 0) {
    const si = run(service, scope, 'setupIntents.create', {
      customer,
      payment_method: pm.id,
      confirm: true,
      usage: 'off_session',
    })
    if (si.status === 'requires_action') {
      authenticateSetup({ engine: service.engine, paymentMethods: service.paymentMethods }, scope, si.id, 'succeed', NO_ORIGIN)
    }
    return run(service, scope, 'subscriptions.create', params, {}, heldPrices)
  }
  const sub = run(service, scope, 'subscriptions.create', { ...params, payment_behavior: 'default_incomplete' }, {}, heldPrices)
  const id = String(sub.latest_invoice)
  let invoice = service.engine.resource('invoice').require(scope, id)
  if (invoice.status === 'draft') invoice = service.billing.finalize(scope, id, NO_ORIGIN)
  if (invoice.status !== 'open' || Number(invoice.amount_due) <= 0) return sub
  const pi = run(service, scope, 'paymentIntents.create', {
    amount: invoice.amount_due,
    currency: invoice.currency,
    customer,
    payment_method: pm.id,
    description: 'Subscription creation',
    payment_method_types: ['card'],
    // Saved for the renewals, which the customer is not present for.
    setup_future_usage: 'off_session',
    confirm: true,
  })
  const paid = pi.status === 'requires_action' ? service.paymentIntents.authenticate(scope, pi.id, 'succeed', NO_ORIGIN) : pi
  if (paid.status === 'succeeded') service.billing.markPaid(scope, id, paid.id, NO_ORIGIN)
  return service.engine.resource('subscription').require(scope, sub.id)
}
