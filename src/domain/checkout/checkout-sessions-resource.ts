import { operation } from '#catalogue/index.js'
import type { Operation } from '#catalogue/types.js'
import { checkMetadata } from '../engine/checks.js'
import type { Behaviour, ResourceDeclaration } from '../engine/declaration.js'
import { actionBehaviour } from '../engine/generic-actions.js'
import { type Json, pageV1 } from '../engine/list.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'
import { lineItemsOf, makeLines, storeLineItems } from './checkout-line-items.js'
import { planCheckoutSession } from './checkout-session-plan.js'
import { updateLineItems } from './checkout-session-update.js'

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
      const lines = makeLines(plan)
      const session = next(params, plan.fixed) as Json
      storeLineItems(engine, call, session.id, lines, plan.subscriptionData, [])
      ports.checkoutTimers.expireAt(call.scope, session.id, plan.expiresAt)
      return session
    },
    'checkout.sessions.update'(call, next, { engine }) {
      return call.params.line_items === undefined ? next() : updateLineItems(engine, call)
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
