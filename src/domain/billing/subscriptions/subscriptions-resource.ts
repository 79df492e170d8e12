import type { ResourceDeclaration } from '../../engine/declaration.js'
import { fieldEquals, type Json, pageV1, passesRange } from '../../engine/list.js'
import { subList } from '../../engine/sub-list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { tableError } from '../../service-error.js'
import { deleteSubscriptionDiscount } from '../catalog/discount-removal.js'
import { createSubscription } from './subscription-create.js'
import { migrateSubscription, pauseSubscription, resumeSubscription } from './subscription-pause.js'
import { updateSubscription } from './subscription-update.js'

/** List params that filter by a field's value when `subscriptions.list` filters by itself. */
const LIST_FILTERS = ['customer', 'collection_method', 'test_clock'] as const

/** Whether one of the subscription's items has this price. */
const hasPrice = (sub: Json, price: unknown): boolean =>
  ((sub.items as { data?: Json[] } | undefined)?.data ?? []).some((i) => (i.price as Json | undefined)?.id === price)

/**
 * Subscriptions with billing: items of recurring prices of one currency and interval, trials,
 * `billing_cycle_anchor`, a first invoice paid at once, periods on the due-time queue (or the
 * customer's test clock), cancellation now or at period end, quantity changes counted against the
 * subscription's limit. See docs/billing.md.
 */
export const subscriptions: ResourceDeclaration<ResourcePorts> = {
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
    'subscriptions.pause': pauseSubscription,
    'subscriptions.resume': resumeSubscription,
    'subscriptions.migrate': migrateSubscription,
    'subscriptions.deleteDiscount': deleteSubscriptionDiscount,
    'subscriptions.list'(call, next, { engine }) {
      const { status, ...params } = call.params
      // A status the object can hold filters by equality; the others are the provider's sets (the
      // default leaves out canceled subscriptions; `ended` is canceled and incomplete_expired).
      if (typeof status === 'string' && status !== 'all' && status !== 'ended') return next()
      const passes = (s: unknown) =>
        status === 'all' ? true : status === 'ended' ? s === 'canceled' || s === 'incomplete_expired' : s !== 'canceled'
      const found = engine
        .resource('subscription')
        .list(call.scope)
        .filter(
          (o) =>
            passes(o.status) &&
            (params.created === undefined || passesRange(o.created, params.created, 'created')) &&
            LIST_FILTERS.every((f) => params[f] === undefined || fieldEquals(o[f], params[f])) &&
            (params.price === undefined || hasPrice(o, params.price)),
        )
      return pageV1(found, params, '/v1/subscriptions', 'subscription')
    },
    'subscriptions.cancel'(call, _next, { engine, ports }) {
      const sub = engine.resource('subscription').require(call.scope, call.path.id ?? '')
      if (sub.status === 'canceled') {
        throw tableError('resource_missing', { kind: 'subscription', id: sub.id })
      }
      const { invoice_now: invoiceNow, prorate } = call.params
      return ports.billing.cancel(call.scope, sub.id, { invoiceNow: invoiceNow === true, prorate: prorate === true }, call.origin)
    },
    'subscriptions.create': createSubscription,
    'subscriptions.update': updateSubscription,
  },
}
