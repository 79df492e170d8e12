import { plannedPrice } from '../billing/catalog/inline-prices.js'
import { lineAmount } from '../billing/pricing.js'
import { entriesOf } from '../billing/subscriptions/subscription-params.js'
import type { BehaviourEnv, OperationCall, ResourceDeclaration } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import { type Json, pageV1 } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { ResourcePorts } from '../resource-ports.js'
import { resourceMissing, tableError } from '../service-error.js'

type Env = BehaviourEnv<ResourcePorts>
type Params = Readonly<Record<string, unknown>>

/** The field a stored line item names its payment link by (not a field of the API's `item`). */
const LINK = 'payment_link'

/** A link's line items, in the order they were given, as the API shows them. */
function itemsOf(engine: Engine, scope: Scope, link: string): Json[] {
  return engine
    .resource('item')
    .list(scope)
    .filter((i) => i[LINK] === link)
    .reverse()
    .map(({ [LINK]: _, ...item }) => item as Json)
}

/** The stored item of a link by id (with its link field), else 400 on the entry's `id`. */
function storedItem(engine: Engine, scope: Scope, link: string, id: unknown, param: string): Json {
  const item = typeof id === 'string' ? engine.resource('item').get(scope, id) : undefined
  if (item === undefined || item[LINK] !== link) {
    throw tableError('resource_missing', { kind: 'line_item', id: String(id) }, { param, status: 400 })
  }
  return item
}

function quantityOf(entry: Params, param: string): number {
  const q = entry.quantity === undefined ? 1 : Number(entry.quantity)
  if (!Number.isSafeInteger(q) || q < 1) throw tableError('value_too_small', { min: 1 }, { param })
  return q
}

/** The amounts of an item of `quantity` at `price`, as a line item shows them. */
function amounts(price: Json, quantity: number): Record<string, unknown> {
  const amount = lineAmount(price as never, quantity)
  return { quantity, amount_subtotal: amount, amount_total: amount, amount_discount: 0, amount_tax: 0 }
}

function create(call: OperationCall, next: (p?: Params, f?: Record<string, unknown>) => unknown, { engine }: Env): Json {
  const { line_items: lineItems, ...params } = call.params
  const entries = entriesOf(lineItems)
  if (entries.length === 0) throw tableError('parameter_missing', { param: 'line_items' }, { param: 'line_items' })
  const planned = entries.map((entry, i) => {
    const price = plannedPrice(engine, call, entry, `line_items[${i}]`, `price_draft_${i}`)
    if (price === undefined)
      throw tableError('parameter_missing', { param: `line_items[${i}][price]` }, { param: `line_items[${i}][price]` })
    return { entry, price, quantity: quantityOf(entry, `line_items[${i}][quantity]`) }
  })
  const currencies = new Set(planned.map((p) => p.price.price.currency))
  if (currencies.size > 1) throw tableError('payment_link_currencies', {}, { param: 'line_items' })
  const lines = planned.map((p) => ({ ...p, price: p.price.make() }))
  const link = next(params, { currency: lines[0]?.price.currency ?? null }) as Json
  const products = engine.resource('product')
  for (const line of lines) {
    const product = typeof line.price.product === 'string' ? products.get(call.scope, line.price.product) : undefined
    engine.resource('item').create(call.scope, {}, call.origin, {
      [LINK]: link.id,
      price: line.price,
      currency: line.price.currency,
      description: typeof product?.name === 'string' ? product.name : null,
      adjustable_quantity: line.entry.adjustable_quantity ?? null,
      ...amounts(line.price, line.quantity),
    })
  }
  return link
}

/**
 * Payment links: a shareable `url` (`https://buy.stripe.com/test_…`, the provider's shape, its token
 * the link's id) for a fixed set of line items computed from prices (`price`, or `price_data` made
 * inline), listed by `paymentLinks.listLineItems` and `expand[]=line_items`. An update may change
 * the items' quantities by their ids, or deactivate the link. {@link openPaymentLink} makes the
 * checkout session a customer opening the url gets.
 *
 * @example
 * engine.run('paymentLinks.create', { scope, origin, path: {}, params: { line_items: [{ price: 'price_1', quantity: 2 }] } })
 * // { id: 'plink_…', object: 'payment_link', active: true, url: 'https://buy.stripe.com/test_…', ... }
 */
export const paymentLinks: ResourceDeclaration<ResourcePorts> = {
  type: 'PaymentLink',
  object: 'payment_link',
  idPrefix: 'plink',
  defaults: ({ id, livemode }) => ({
    active: true,
    after_completion: { hosted_confirmation: { custom_message: null }, type: 'hosted_confirmation' },
    billing_address_collection: 'auto',
    customer_creation: 'if_required',
    payment_method_collection: 'always',
    submit_type: 'auto',
    url: `https://buy.stripe.com/${livemode ? '' : 'test_'}${id.slice(6)}`,
  }),
  // Includable: the first page of the link's line items, as `listLineItems` answers it.
  includes: {
    line_items: (link, { engine, scope }) =>
      pageV1(itemsOf(engine, scope, link.id), {}, `/v1/payment_links/${link.id}/line_items`, 'item'),
  },
  behaviours: {
    'paymentLinks.create': create,
    'paymentLinks.update'(call, next, { engine }) {
      const { line_items: lineItems, ...params } = call.params
      const id = call.path.id ?? ''
      engine.resource('payment_link').require(call.scope, id)
      const changes = entriesOf(lineItems).map((entry, i) => {
        const item = storedItem(engine, call.scope, id, entry.id, `line_items[${i}][id]`)
        return { item, quantity: quantityOf(entry, `line_items[${i}][quantity]`), entry }
      })
      const updated = next(params)
      for (const { item, quantity, entry } of changes) {
        engine.resource('item').put(call.scope, item.id, {
          ...amounts(item.price as Json, quantity),
          ...(entry.adjustable_quantity === undefined ? {} : { adjustable_quantity: entry.adjustable_quantity }),
        })
      }
      return updated
    },
    'paymentLinks.listLineItems'(call, _next, { engine }) {
      const id = call.path.id ?? ''
      engine.resource('payment_link').require(call.scope, id)
      return pageV1(itemsOf(engine, call.scope, id), call.params, `/v1/payment_links/${id}/line_items`, 'item')
    },
  },
}

/**
 * The checkout session a customer opening a payment link's url gets: the link's line items and
 * Connect and completion settings, in `subscription` mode when a price recurs, else `payment`;
 * the session names the link (`payment_link`). An inactive link opens nothing (400).
 *
 * @example
 * openPaymentLink(engine, scope, 'https://buy.stripe.com/test_…', origin) // { object: 'checkout.session', payment_link: 'plink_…', ... }
 */
export function openPaymentLink(engine: Engine, scope: Scope, urlOrId: string, origin: Origin): Json {
  const links = engine.resource('payment_link')
  const link = urlOrId.startsWith('plink_') ? links.get(scope, urlOrId) : links.list(scope).find((l) => l.url === urlOrId)
  if (link === undefined) throw resourceMissing('payment_link', urlOrId)
  if (link.active !== true) throw tableError('payment_link_inactive', { id: link.id })
  const items = itemsOf(engine, scope, link.id)
  const recurring = items.some((i) => (i.price as Json).recurring !== null)
  const redirect = (link.after_completion as { redirect?: { url?: string } | null }).redirect?.url
  const session = engine.run('checkout.sessions.create', {
    scope,
    origin,
    path: {},
    // The link's prices are its own to use, those its `price_data` made (inactive) included.
    heldPrices: items.map((i) => String((i.price as Json).id)),
    params: {
      mode: recurring ? 'subscription' : 'payment',
      line_items: items.map((i) => ({ price: (i.price as Json).id, quantity: i.quantity })),
      ...(redirect === undefined ? {} : { success_url: redirect }),
      metadata: link.metadata ?? {},
    },
  }) as Json
  return engine.resource('checkout.session').put(scope, session.id, { payment_link: link.id })
}
