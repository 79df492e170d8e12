import type { ResourceDeclaration } from '../engine/declaration.js'

/** Subscription items (plain CRUD; billing behaviour comes later). `price` holds the price object. */
export const subscriptionItems: ResourceDeclaration = {
  type: 'SubscriptionItem',
  object: 'subscription_item',
  idPrefix: 'si',
  idLength: 14,
  defaults: () => ({ quantity: 1 }),
}
