import type { OperationCall } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'
import type { CheckoutPlan, PlannedLine } from './checkout-session-plan.js'

/** The field a stored line item names its session by (not a field of the API's `item`). */
const SESSION = 'session'

/**
 * The field the session's first stored line item keeps its `subscription_data` in: the session
 * object has no such field, and a line item is never answered with its stored fields.
 */
export const SUBSCRIPTION_DATA = 'subscription_data'

/**
 * A session's line items, in the order they were given, as the API shows them.
 *
 * @example
 * lineItemsOf(engine, scope, 'cs_test_…').map((i) => i.amount_total)
 */
export function lineItemsOf(engine: Engine, scope: Scope, session: string): Json[] {
  return storedItemsOf(engine, scope, session).map(({ [SESSION]: _, [SUBSCRIPTION_DATA]: _data, ...item }) => item as Json)
}

/**
 * A session's line items as stored (with the session and the `subscription_data` they keep).
 *
 * @example
 * storedItemsOf(engine, scope, 'cs_test_…')[0]?.subscription_data
 */
export function storedItemsOf(engine: Engine, scope: Scope, session: string): Json[] {
  return engine
    .resource('item')
    .list(scope)
    .filter((i) => i[SESSION] === session)
    .reverse()
}

/** A planned line with its price made. */
export type MadeLine = PlannedLine & { readonly made: Json }

/**
 * A plan's lines with their prices made (inline ones now, as inactive prices).
 *
 * @example
 * const lines = makeLines(plan) // before the session, so ids come in the provider's order
 */
export function makeLines(plan: Pick<CheckoutPlan, 'lines'>): MadeLine[] {
  return plan.lines.map((line) => ({ ...line, made: line.price.make() }))
}

/**
 * Stores a session's line items, in order, the first keeping the session's `subscription_data`.
 * `ids` gives the id a line keeps (a line retained by an update); the others get new ones.
 *
 * @example
 * storeLineItems(engine, call, session.id, makeLines(plan), plan.subscriptionData, [])
 */
export function storeLineItems(
  engine: Engine,
  call: OperationCall,
  session: string,
  lines: readonly MadeLine[],
  subscriptionData: CheckoutPlan['subscriptionData'],
  ids: readonly (string | undefined)[],
): void {
  const products = engine.resource('product')
  for (const [i, line] of lines.entries()) {
    const product = typeof line.made.product === 'string' ? products.get(call.scope, line.made.product) : undefined
    const fixed = {
      [SESSION]: session,
      price: line.made,
      quantity: line.quantity,
      currency: line.made.currency,
      description: typeof product?.name === 'string' ? product.name : null,
      amount_subtotal: line.subtotal,
      amount_total: line.subtotal - line.discount + line.tax,
      amount_discount: line.discount,
      amount_tax: line.tax,
      ...(line.taxes.length === 0 ? {} : { taxes: line.taxes }),
      ...(i === 0 && subscriptionData !== undefined ? { [SUBSCRIPTION_DATA]: subscriptionData } : {}),
    }
    engine.resource('item').create(call.scope, { metadata: line.entry.metadata ?? {} }, call.origin, fixed, ids[i])
  }
}
