import type { ResourceDeclaration } from '../engine/declaration.js'

/** A customer's tax ids (`/v1/customers/:id/tax_ids`). */
export const taxIds: ResourceDeclaration = {
  type: 'TaxId',
  object: 'tax_id',
  idPrefix: 'txi',
  eventPrefix: 'customer.tax_id',
}
