import type { ResourceDeclaration } from '../engine/declaration.js'

/** Shipping rates. */
export const shippingRates: ResourceDeclaration = {
  type: 'ShippingRate',
  object: 'shipping_rate',
  idPrefix: 'shr',
  defaults: () => ({ active: true, type: 'fixed_amount', tax_behavior: 'unspecified' }),
  // Includable: answered only when `expand[]` names it.
  withheld: ['fixed_amount.currency_options'],
}
