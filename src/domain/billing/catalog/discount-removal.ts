import type { Behaviour } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { Origin } from '../../events/emit-snapshot.js'
import type { Scope } from '../../mode.js'
import { tableError } from '../../service-error.js'

/** The fields of a deleted discount, as the provider answers it (no `end`, `deleted: true`). */
const DELETED_FIELDS = [
  'id',
  'object',
  'checkout_session',
  'customer',
  'customer_account',
  'invoice',
  'invoice_item',
  'promotion_code',
  'source',
  'start',
  'subscription',
  'subscription_item',
] as const

/**
 * Ends a discount now (it no longer applies to invoices; invoices it applied to keep naming it),
 * emits `customer.discount.deleted` and answers the provider's deleted discount.
 *
 * @example
 * endDiscount(engine, scope, discount, origin) // { id: 'di_…', deleted: true, … }
 */
function endDiscount(engine: Engine, scope: Scope, discount: Json, origin: Origin): Record<string, unknown> {
  const ended = engine.resource('discount').put(scope, discount.id, { end: engine.now() })
  engine.emit('customer.discount.deleted', scope, ended, origin)
  const answer: Record<string, unknown> = {}
  for (const field of DELETED_FIELDS) answer[field] = ended[field] ?? null
  return { ...answer, deleted: true }
}

/**
 * `subscriptions.deleteDiscount`: ends the subscription's discounts in force and takes them off
 * it; 404 when it has none.
 *
 * @example
 * await stripe.subscriptions.deleteDiscount(sub.id) // { id: 'di_…', deleted: true, … }
 */
export const deleteSubscriptionDiscount: Behaviour = (call, _next, { engine }) => {
  const subs = engine.resource('subscription')
  const sub = subs.require(call.scope, call.path.id ?? '')
  const now = engine.now()
  const inForce = (Array.isArray(sub.discounts) ? sub.discounts : [])
    .map((d) => engine.resource('discount').get(call.scope, String(typeof d === 'string' ? d : (d as Json).id)))
    .filter((d): d is Json => d !== undefined && (d.end === null || Number(d.end) > now))
  const [first] = inForce
  if (first === undefined) throw tableError('discount_missing', { kind: 'subscription', id: sub.id })
  subs.set(call.scope, sub.id, { discounts: [] }, call.origin)
  const answers = inForce.map((d) => endDiscount(engine, call.scope, d, call.origin))
  return answers[0]
}

/**
 * `customers.deleteDiscount`: ends the customer's discount and clears `discount`; 404 when it has
 * none.
 *
 * @example
 * await stripe.customers.deleteDiscount(customer.id) // { id: 'di_…', deleted: true, … }
 */
export const deleteCustomerDiscount: Behaviour = (call, _next, { engine }) => {
  const customers = engine.resource('customer')
  const customer = customers.require(call.scope, call.path.id ?? '')
  const held = customer.discount as Json | null
  if (held === null || typeof held !== 'object') throw tableError('discount_missing', { kind: 'customer', id: customer.id })
  const stored = engine.resource('discount').get(call.scope, held.id) ?? held
  customers.set(call.scope, customer.id, { discount: null }, call.origin)
  return endDiscount(engine, call.scope, stored, call.origin)
}
