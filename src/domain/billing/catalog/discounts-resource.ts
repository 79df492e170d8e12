import type { ResourceDeclaration } from '../../engine/declaration.js'

/**
 * Discounts: a coupon applied to a subscription (src/domain/billing/discounts.ts makes them). No
 * operation of their own here; they are kept so subscriptions and invoices can name and expand them.
 */
export const discounts: ResourceDeclaration = {
  type: 'Discount',
  object: 'discount',
  idPrefix: 'di',
}
