import { entriesOf } from '../billing/subscriptions/subscription-params.js'
import type { OperationCall } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import { tableError } from '../service-error.js'
import { makeLines, SUBSCRIPTION_DATA, storedItemsOf, storeLineItems } from './checkout-line-items.js'
import { planCheckoutSession } from './checkout-session-plan.js'
import type { SubscriptionData } from './checkout-subscription-data.js'

type Params = Readonly<Record<string, unknown>>

const idOf = (v: unknown) => (typeof v === 'object' && v !== null ? (v as Json).id : v)

/**
 * The retransmitted `line_items` as create's entries: a line named by `id` keeps its price,
 * quantity, metadata and tax rates unless the entry gives new ones; an entry without `id` is a new
 * line (`price` or `price_data`, and `quantity`).
 */
function mergedEntries(stored: readonly Json[], raw: unknown): { entries: Params[]; ids: (string | undefined)[] } {
  const byId = new Map(stored.map((i) => [String(i.id), i]))
  const ids: (string | undefined)[] = []
  const entries = entriesOf(raw).map((entry, i) => {
    const { id, ...given } = entry
    if (id === undefined) {
      if (given.quantity === undefined)
        throw tableError('parameter_missing', { param: `line_items[${i}][quantity]` }, { param: `line_items[${i}][quantity]` })
      ids.push(undefined)
      return given
    }
    const kept = byId.get(String(id))
    if (kept === undefined)
      throw tableError('resource_missing', { kind: 'line item', id: String(id) }, { param: `line_items[${i}][id]`, status: 400 })
    byId.delete(String(id))
    ids.push(String(id))
    const newPrice = given.price !== undefined || given.price_data !== undefined
    const rates = ((kept.taxes as { rate?: unknown }[] | undefined) ?? []).map((t) => idOf(t.rate))
    return {
      ...(newPrice ? {} : { price: idOf(kept.price) }),
      quantity: kept.quantity,
      metadata: kept.metadata ?? {},
      ...(rates.length === 0 ? {} : { tax_rates: rates }),
      ...given,
    }
  })
  return { entries, ids }
}

/**
 * `checkout.sessions.update` with `line_items`: the whole list retransmitted (kept by `id`, changed,
 * added, or dropped by leaving it out; in the order given) on an open session in `payment` or
 * `subscription` mode. The new lines are checked and priced as create does (with the session's
 * discount, shipping rate and customer), then replace the old ones and the session's totals.
 *
 * @example
 * await stripe.checkout.sessions.update(session.id, { line_items: [{ id: 'li_…', quantity: 3 }, { price: 'price_…', quantity: 1 }] })
 */
export function updateLineItems(engine: Engine, call: OperationCall): Json {
  const sessions = engine.resource('checkout.session')
  const id = call.path.id ?? ''
  const session = sessions.require(call.scope, id)
  if (session.status !== 'open') throw tableError('checkout_session_not_updatable', { status: String(session.status) })
  const stored = storedItemsOf(engine, call.scope, id)
  const { entries, ids } = mergedEntries(stored, call.params.line_items)
  const shippingRate = (session.shipping_cost as { shipping_rate?: unknown } | null | undefined)?.shipping_rate
  const plan = planCheckoutSession(engine, {
    ...call,
    // The session's own prices (those its `price_data` made, inactive) stay its to use.
    heldPrices: stored.map((i) => String(idOf(i.price))),
    params: {
      mode: session.mode,
      line_items: entries,
      currency: session.currency ?? undefined,
      ...(Array.isArray(session.discounts) ? { discounts: session.discounts } : {}),
      ...(typeof session.customer === 'string' ? { customer: session.customer } : {}),
      ...(typeof shippingRate === 'string' ? { shipping_options: [{ shipping_rate: shippingRate }] } : {}),
    },
  })
  const lines = makeLines(plan)
  for (const item of stored) engine.resource('item').discard(call.scope, String(item.id))
  const data = stored[0]?.[SUBSCRIPTION_DATA] as SubscriptionData | undefined
  storeLineItems(engine, call, id, lines, data, ids)
  const { expires_at: _e, customer_creation: _c, ...totals } = plan.fixed
  const { line_items: _l, ...params } = call.params
  return sessions.update(call.scope, id, params, call.origin, totals)
}
