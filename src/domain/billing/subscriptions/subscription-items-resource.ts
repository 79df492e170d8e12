import type { OperationCall, ResourceDeclaration } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { tableError } from '../../service-error.js'
import { planOfPrice } from '../catalog/plan-of-price.js'
import type { ItemTerms } from '../prorations.js'
import {
  canceledRefusal,
  checkDistinctPrices,
  checkItemCount,
  checkQuantity,
  invalid,
  itemPrice,
  missing,
  prorationTiming,
  termsOf,
} from './subscription-params.js'

const sec = (ms: number) => Math.floor(ms / 1000)

const isPrice = (v: unknown): v is Json => typeof v === 'object' && v !== null && (v as Json).object === 'price'

/** The live subscription an item call names, refused as the provider refuses an unknown one. */
function liveSubscription(engine: Engine, call: OperationCall, id: unknown): Json {
  if (typeof id !== 'string' || id === '') throw missing('subscription')
  const sub = engine.resource('subscription').requireParam(call.scope, id, 'subscription')
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
    throw invalid('subscription', `the subscription ${id} is ${String(sub.status)}`)
  }
  return sub
}

/** A subscription that no longer changes (its items neither). */
const isEnded = (sub: Json | undefined): boolean => sub?.status === 'canceled' || sub?.status === 'incomplete_expired'

/** The subscription's `items` list follows every item change (`customer.subscription.updated`). */
function touchSubscription(engine: Engine, ports: ResourcePorts, call: OperationCall, subId: string): void {
  if (engine.resource('subscription').get(call.scope, subId) === undefined) return
  engine.resource('subscription').set(call.scope, subId, { items: ports.billing.itemList(call.scope, subId) }, call.origin)
}

/** Prorates one item's change (see billing/prorations.ts) on the subscription's current period. */
function prorate(
  ports: ResourcePorts,
  call: OperationCall,
  subId: string,
  item: string,
  before: ItemTerms | null,
  after: ItemTerms | null,
  timing: ReturnType<typeof prorationTiming>,
): void {
  const state = ports.billing.subState(call.scope, subId)
  if (state === undefined) return
  ports.billing.prorate(call.scope, state, [{ item, before, after }], timing.behavior, timing.at, call.origin)
}

/**
 * Subscription items. `price` holds the price object; licensed items carry `quantity`, metered
 * ones do not (their usage comes from the meter). `current_period_start`/`current_period_end` are
 * the item's billing period (where the current API version puts them). A quantity change counts
 * against the subscription's quantity-update limit and shows on `customer.subscription.updated`.
 * Adding, changing or deleting a licensed item mid-period is prorated (`proration_behavior`,
 * `proration_date`), as on `subscriptions.update`.
 */
export const subscriptionItems: ResourceDeclaration<ResourcePorts> = {
  type: 'SubscriptionItem',
  object: 'subscription_item',
  idPrefix: 'si',
  idLength: 14,
  defaults: () => ({ quantity: 1 }),
  // The provider shows the item's price again as a `plan` (the older form of a recurring price).
  derive: (item) => (isPrice(item.price) ? { plan: planOfPrice(item.price) } : {}),
  behaviours: {
    'subscriptionItems.create'(call, _next, { engine, ports }) {
      const {
        subscription,
        price: priceId,
        quantity: quantityParam,
        proration_behavior: behavior,
        proration_date: date,
        payment_behavior: _pb,
        expand: _e,
        ...params
      } = call.params
      const sub = liveSubscription(engine, call, subscription)
      const planned = itemPrice(engine, call, { price: priceId, price_data: params.price_data }, '', 'price_draft_0')
      let price = planned.price
      if (price.currency !== sub.currency) {
        throw invalid(
          'price',
          `the price ${price.id} is in ${String(price.currency)}, but this subscription is in ${String(sub.currency)}`,
        )
      }
      const quantity = checkQuantity(price, quantityParam, 'quantity')
      const current = ports.billing.itemsOf(call.scope, sub.id).map((i) => String((i.price as Json).id))
      checkItemCount(current.length + 1, 'subscription')
      checkDistinctPrices([...current, price.id], () => 'price')
      const state = ports.billing.subState(call.scope, sub.id)
      const timing = prorationTiming(state, behavior, date, 'proration_date')
      const items = engine.resource('subscription_item')
      const now = state?.timeline.now() ?? 0
      // Every check has passed: a price `price_data` describes is made now.
      price = planned.make()
      const made = items.create(call.scope, params, call.origin, {
        subscription: sub.id,
        price,
        quantity,
        current_period_start: sec(state?.periodStart ?? now),
        current_period_end: sec(state?.periodEnd ?? now),
        created: sec(now),
      })
      if (quantity === undefined) items.put(call.scope, made.id, { quantity: undefined })
      touchSubscription(engine, ports, call, sub.id)
      prorate(ports, call, sub.id, made.id, null, { price, quantity: quantity ?? 1 }, timing)
      return items.require(call.scope, made.id)
    },
    'subscriptionItems.update'(call, next, { engine, ports }) {
      const items = engine.resource('subscription_item')
      const item = items.require(call.scope, call.path.id ?? '')
      const subId = String(item.subscription)
      const price = item.price as Json
      const {
        price: newPrice,
        quantity,
        proration_behavior: behavior,
        proration_date: date,
        payment_behavior: _pb,
        ...params
      } = call.params
      if (isEnded(engine.resource('subscription').get(call.scope, subId))) throw canceledRefusal()
      if (quantity !== undefined && ports.billing.isMetered(price)) {
        throw invalid('quantity', 'quantity cannot be set on a metered price')
      }
      const fields: Record<string, unknown> = {}
      const planned =
        typeof newPrice === 'string' || params.price_data !== undefined
          ? itemPrice(engine, call, { price: newPrice, price_data: params.price_data }, '', 'price_draft_0')
          : undefined
      if (planned !== undefined) fields.price = planned.price
      if (quantity !== undefined) fields.quantity = checkQuantity((fields.price ?? price) as Json, quantity, 'quantity')
      const timing = prorationTiming(ports.billing.subState(call.scope, subId), behavior, date, 'proration_date')
      if (quantity !== undefined && Number(quantity) !== Number(item.quantity))
        ports.billing.countQuantityUpdate(call.scope, subId)
      void next
      if (planned !== undefined) fields.price = planned.make()
      const updated = items.update(call.scope, item.id, params, call.origin, fields)
      touchSubscription(engine, ports, call, subId)
      prorate(ports, call, subId, item.id, termsOf(item), termsOf(updated), timing)
      return updated
    },
    'subscriptionItems.del'(call, _next, { engine, ports }) {
      const items = engine.resource('subscription_item')
      const item = items.require(call.scope, call.path.id ?? '')
      const subId = String(item.subscription)
      const { proration_behavior: behavior, proration_date: date } = call.params
      if (isEnded(engine.resource('subscription').get(call.scope, subId))) throw canceledRefusal()
      // The provider keeps at least one item on a subscription: ending it is `subscriptions.cancel`.
      if (ports.billing.itemsOf(call.scope, subId).length <= 1) {
        throw tableError('subscription_last_item')
      }
      const timing = prorationTiming(ports.billing.subState(call.scope, subId), behavior, date, 'proration_date')
      const deleted = items.delete(call.scope, item.id, call.origin)
      touchSubscription(engine, ports, call, subId)
      prorate(ports, call, subId, item.id, termsOf(item), null, timing)
      return deleted
    },
  },
}
