import type { ResourceDeclaration } from '../engine/declaration.js'

/** A customer's balance transactions (`/v1/customers/:id/balance_transactions`). */
export const customerBalanceTransactions: ResourceDeclaration = {
  type: 'CustomerBalanceTransaction',
  object: 'customer_balance_transaction',
  idPrefix: 'cbtxn',
  defaults: () => ({ type: 'adjustment' }),
}
