import type { ResourceDeclaration } from '../engine/declaration.js'

/** Invoice items (plain). */
export const invoiceItems: ResourceDeclaration = {
  type: 'InvoiceItem',
  object: 'invoiceitem',
  idPrefix: 'ii',
  defaults: ({ created }) => ({ currency: 'usd', date: created, quantity: 1 }),
}
