import type { ResourceDeclaration } from '../engine/declaration.js'

/** Tax rates. */
export const taxRates: ResourceDeclaration = {
  type: 'TaxRate',
  object: 'tax_rate',
  idPrefix: 'txr',
  defaults: () => ({ active: true }),
}
