import type { Field } from './types.js'

/**
 * Whether a field of an answered object is one the provider includes only when asked (`expand[]`):
 * the official client declares those optional (`Price.tiers`, `Checkout.Session.line_items`,
 * `Customer.subscriptions`); `deleted`, optional on every deletable object, is not one.
 *
 * @example
 * isIncludable('tiers', fieldsOf(view, 'Price').tiers) // true
 */
export function isIncludable(name: string, field: Field | undefined): boolean {
  return field?.optional === true && name !== 'deleted'
}
