import { operation } from '#catalogue/index.js'
import type { Operation } from '#catalogue/types.js'
import { checkMetadata } from '../engine/checks.js'
import type { Behaviour, ResourceDeclaration } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import { actionBehaviour } from '../engine/generic-actions.js'
import { type Json, pageV1 } from '../engine/list.js'
import type { Scope } from '../mode.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'
import { planCheckoutSession } from './checkout-session-plan.js'

/** The field a stored line item names its session by (not a field of the API's `item`). */
const SESSION = 'session'

/**
 * The field the session's first stored line item keeps its `subscription_data` in: the session
 * object has no such field, and a line item is never answered with its stored fields.
 */
export const SUBSCRIPTION_DATA = 'subscription_data'

/** A session's line items, in the order they were given, as the API shows them. */
function lineItemsOf(engine: Engine, scope: Scope, session: string): Json[] {
  return engine
    .resource('item')
    .list(scope)
    .filter((i) => i[SESSION] === session)
    .reverse()
    .map(({ [SESSION]: _, [SUBSCRIPTION_DATA]: _data, ...item }) => item as Json)
}

/**
 * Checkout sessions (plain: `open` until something completes or expires them). `line_items` name a
 * price or describe one inline (`price_data`, with `product_data` for a new product); the session
 * keeps them as line items, answered by `checkout.sessions.listLineItems` and by `expand[]=line_items`.
 */
export const checkoutSessions: ResourceDeclaration<ResourcePorts> = {
  type: 'Checkout.Session',
  object: 'checkout.session',
  idPrefix: 'cs_test',
  idLength: 32,
  defaults: ({ id, created }) => ({
    expires_at: created + 24 * 60 * 60,
    payment_status: 'unpaid',
    status: 'open',
    url: `https://checkout.stripe.com/c/pay/${id}`,
  }),
  // Includable: the first page of the session's line items, as `listLineItems` answers it.
  includes: {
    line_items: (session, { engine, scope }) =>
      pageV1(lineItemsOf(engine, scope, session.id), {}, `/v1/checkout/sessions/${session.id}/line_items`, 'item'),
  },
  behaviours: {
    'checkout.sessions.create'(call, next, { engine, ports }) {
      const { line_items: _, subscription_data: _data, ...params } = call.params
      checkMetadata(params.metadata)
      const plan = planCheckoutSession(engine, call)
      // Checked: the inline products and prices are made, then the session and its items.
      const lines = plan.lines.map((line) => ({ ...line, made: line.price.make() }))
      const session = next(params, plan.fixed) as Json
      const products = engine.resource('product')
      for (const [i, line] of lines.entries()) {
        const product = typeof line.made.product === 'string' ? products.get(call.scope, line.made.product) : undefined
        engine.resource('item').create(call.scope, { metadata: line.entry.metadata ?? {} }, call.origin, {
          [SESSION]: session.id,
          price: line.made,
          quantity: line.quantity,
          currency: line.made.currency,
          description: typeof product?.name === 'string' ? product.name : null,
          amount_subtotal: line.subtotal,
          amount_total: line.subtotal - line.discount + line.tax,
          amount_discount: line.discount,
          amount_tax: line.tax,
          ...(line.taxes.length === 0 ? {} : { taxes: line.taxes }),
          ...(i === 0 && plan.subscriptionData !== undefined ? { [SUBSCRIPTION_DATA]: plan.subscriptionData } : {}),
        })
      }
      ports.checkoutTimers.expireAt(call.scope, session.id, plan.expiresAt)
      return session
    },
    // Only an open session expires; it becomes `expired` with `checkout.session.expired`.
    'checkout.sessions.expire'(call, next, env) {
      const session = env.engine.resource('checkout.session').require(call.scope, call.path.id ?? '')
      if (session.status !== 'open') throw tableError('checkout_session_not_open', { status: String(session.status) })
      expire ??= actionBehaviour(operation('checkout.sessions.expire') as Operation, 'checkout.session')
      return expire(call, next, env)
    },
  },
}

let expire: Behaviour<ResourcePorts> | undefined

/**
 * The line items of checkout sessions: stored by the engine (so snapshots keep them), answered
 * only through their session.
 */
export const checkoutLineItems: ResourceDeclaration<ResourcePorts> = {
  type: 'LineItem',
  object: 'item',
  idPrefix: 'li',
  only: [],
  // Includable on every line item (a checkout session's, a payment link's, a quote's): answered
  // only when `expand[]` names them (`data.discounts`, `line_items.data.taxes`).
  withheld: ['discounts', 'taxes'],
  behaviours: {
    'checkout.sessions.listLineItems'(call, _next, { engine }) {
      const id = call.path.id ?? ''
      engine.resource('checkout.session').require(call.scope, id)
      return pageV1(lineItemsOf(engine, call.scope, id), call.params, `/v1/checkout/sessions/${id}/line_items`, 'item')
    },
  },
}
