import type { ResourceDeclaration } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import { parseCurrency } from '../ledger/currencies.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'

/**
 * A customer's balance transactions (`/v1/customers/:id/balance_transactions`). One made through
 * the API is an `adjustment`: it moves the customer's `balance` by its `amount` (negative: a credit
 * the next invoice uses) and shows the balance it left as `ending_balance`; a customer without a
 * currency takes the transaction's. A currency other than the customer's (its balance's, or that of
 * what it will be billed) is refused before anything changes.
 *
 * @example
 * await stripe.customers.createBalanceTransaction('cus_…', { amount: -500, currency: 'usd' }) // ending_balance: -500
 */
export const customerBalanceTransactions: ResourceDeclaration<ResourcePorts> = {
  type: 'CustomerBalanceTransaction',
  object: 'customer_balance_transaction',
  idPrefix: 'cbtxn',
  defaults: () => ({ type: 'adjustment' }),
  behaviours: {
    'customers.createBalanceTransaction'(call, next, { engine, ports }) {
      const customers = engine.resource('customer')
      const customer = customers.require(call.scope, call.path.id ?? '')
      if (typeof call.params.currency === 'string') {
        const currency = parseCurrency(call.params.currency)
        const have = customer.currency
        if (typeof have === 'string' && have !== currency) {
          throw tableError('customer_balance_currency_mismatch', { have, currency }, { param: 'currency' })
        }
        ports.billing.checkCurrency(call.scope, String(customer.id), currency, 'balance transaction', 'currency')
      }
      const ending = Number(customer.balance ?? 0) + Number(call.params.amount)
      const created = next(call.params, { ending_balance: ending }) as Json
      customers.set(
        call.scope,
        String(customer.id),
        { balance: ending, ...(customer.currency == null ? { currency: created.currency } : {}) },
        call.origin,
      )
      return created
    },
  },
}
