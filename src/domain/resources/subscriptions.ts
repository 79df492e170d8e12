import type { ResourceDeclaration } from '../engine/declaration.js'
import { subList } from './sub-list.js'

/**
 * Subscriptions (plain CRUD for now; billing behaviour comes with the billing issue). Create makes
 * one subscription item per `items[]` entry and lists them under `items`.
 */
export const subscriptions: ResourceDeclaration = {
  type: 'Subscription',
  object: 'subscription',
  idPrefix: 'sub',
  eventPrefix: 'customer.subscription',
  defaults: ({ id, created }) => ({
    billing_cycle_anchor: created,
    collection_method: 'charge_automatically',
    currency: 'usd',
    items: subList(`/v1/subscription_items?subscription=${id}`),
    start_date: created,
    status: 'active',
  }),
  behaviours: {
    'subscriptions.cancel'(call, _next, { engine }) {
      const r = engine.resource('subscription')
      const sub = r.require(call.scope, call.path.id ?? '')
      const now = engine.now()
      return r.set(call.scope, sub.id, { status: 'canceled', canceled_at: now, ended_at: now }, call.origin)
    },
    'subscriptions.create'(call, next, { engine }) {
      const { items, ...params } = call.params
      const entries = Array.isArray(items) ? items : typeof items === 'object' && items !== null ? Object.values(items) : []
      return next(params, (sub) => {
        const made = entries.map((item) =>
          engine
            .resource('subscription_item')
            .create(call.scope, item as Record<string, unknown>, call.origin, { subscription: sub.id }),
        )
        return { items: subList(`/v1/subscription_items?subscription=${sub.id}`, made) }
      })
    },
  },
}
