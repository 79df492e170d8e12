import type { ResourceDeclaration } from '../engine/declaration.js'

/** Products: a caller may choose the id; `updated` follows every change. */
export const products: ResourceDeclaration = {
  type: 'Product',
  object: 'product',
  idPrefix: 'prod',
  idLength: 14,
  callerId: true,
  touch: ['updated'],
  defaults: () => ({
    active: true,
    default_price: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    type: 'service',
    unit_label: null,
    url: null,
  }),
}
