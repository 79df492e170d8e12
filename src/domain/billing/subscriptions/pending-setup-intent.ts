import type { OperationCall } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { Origin } from '../../events/emit-snapshot.js'
import type { Scope } from '../../mode.js'
import type { ResourcePorts } from '../../resource-ports.js'

/**
 * A subscription whose first invoice asks for no payment (a trial, metered prices only, a full
 * discount, a covering balance), created `default_incomplete` or with no payment method to charge
 * later: that $0 invoice is paid at once, the subscription is active (or trialing), and a setup
 * intent the customer's browser confirms to save a card for later off-session payments is its
 * `pending_setup_intent`, as the provider does for subscriptions with deferred payment (its
 * automatic setup intent cannot complete without a card). A first invoice with an amount due is
 * left as it is.
 *
 * @example
 * if (paymentBehavior === 'default_incomplete') return startWithoutPayment(engine, ports, call, started, invoiceId)
 */
export function startWithoutPayment(
  engine: Engine,
  ports: ResourcePorts,
  call: OperationCall,
  started: Json,
  invoiceId: string,
): Json {
  const invoice = engine.resource('invoice').get(call.scope, invoiceId)
  if (invoice === undefined || Number(invoice.amount_due) > 0) return started
  if (invoice.status === 'open') ports.billing.markPaid(call.scope, invoiceId, null, call.origin)
  const si = engine.run('setupIntents.create', {
    ...call,
    path: {},
    params: { customer: started.customer, usage: 'off_session', payment_method_types: ['card'] },
  }) as Json
  return engine.resource('subscription').put(call.scope, started.id, { pending_setup_intent: si.id })
}

/**
 * Whether a subscription has a payment method to charge later: its own `default_payment_method`,
 * else its customer's `invoice_settings.default_payment_method` or `default_source`.
 *
 * @example
 * hasPaymentMethod(engine, scope, subscription) // false for a new customer with no card
 */
export function hasPaymentMethod(engine: Engine, scope: Scope, sub: Json): boolean {
  if (typeof sub.default_payment_method === 'string' || typeof sub.default_source === 'string') return true
  const customer = engine.resource('customer').get(scope, String(sub.customer))
  const settings = customer?.invoice_settings as { default_payment_method?: unknown } | null | undefined
  return typeof settings?.default_payment_method === 'string' || typeof customer?.default_source === 'string'
}

/**
 * A setup intent succeeded: a subscription waiting on it (`pending_setup_intent`) has it no more,
 * and the card saved becomes the subscription's `default_payment_method`, so its later invoices
 * are charged to it (`customer.subscription.updated`). The provider's usage-based sample relies on
 * this: its browser confirms the setup intent and nothing else names the card for renewals.
 *
 * @example
 * settlePendingSetupIntent(engine, call.scope, succeeded, call.origin)
 */
export function settlePendingSetupIntent(engine: Engine, scope: Scope, si: Json, origin: Origin): void {
  const subs = engine.resource('subscription')
  for (const sub of subs.list(scope)) {
    if (sub.pending_setup_intent !== si.id) continue
    const saves = typeof si.payment_method === 'string'
    subs.set(
      scope,
      sub.id,
      { pending_setup_intent: null, ...(saves ? { default_payment_method: si.payment_method } : {}) },
      origin,
    )
  }
}
