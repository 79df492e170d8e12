import { errorMessage } from '#catalogue/errors.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import { invalidRequest } from '../service-error.js'
import type { ResourcePorts } from './ports.js'

/**
 * Subscription items. `price` holds the price object; licensed items carry `quantity`, metered
 * ones do not (their usage comes from the meter). `current_period_start`/`current_period_end` are
 * the item's billing period (where the current API version puts them). A quantity change counts
 * against the subscription's quantity-update limit and shows on `customer.subscription.updated`.
 */
export const subscriptionItems: ResourceDeclaration<ResourcePorts> = {
  type: 'SubscriptionItem',
  object: 'subscription_item',
  idPrefix: 'si',
  idLength: 14,
  defaults: () => ({ quantity: 1 }),
  behaviours: {
    'subscriptionItems.update'(call, next, { engine, ports }) {
      const items = engine.resource('subscription_item')
      const item = items.require(call.scope, call.path.id ?? '')
      const subId = String(item.subscription)
      const price = item.price as Json
      const { price: newPrice, quantity, proration_behavior: _p, payment_behavior: _pb, ...params } = call.params
      if (quantity !== undefined && ports.billing.isMetered(price)) {
        throw invalidRequest(
          errorMessage('parameter_invalid', { param: 'quantity', detail: 'quantity cannot be set on a metered price' }),
          { code: 'parameter_invalid', param: 'quantity' },
        )
      }
      if (quantity !== undefined && Number(quantity) !== Number(item.quantity))
        ports.billing.countQuantityUpdate(call.scope, subId)
      const fields: Record<string, unknown> = {}
      if (quantity !== undefined) fields.quantity = Number(quantity)
      if (typeof newPrice === 'string') fields.price = engine.resource('price').requireParam(call.scope, newPrice, 'price')
      void next
      const updated = items.update(call.scope, item.id, params, call.origin, fields)
      const sub = engine.resource('subscription').get(call.scope, subId)
      if (sub !== undefined)
        engine.resource('subscription').set(call.scope, subId, { items: ports.billing.itemList(call.scope, subId) }, call.origin)
      return updated
    },
  },
}
