import type { ResourceDeclaration } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import { parseCurrency } from '../ledger/currencies.js'
import type { Scope } from '../mode.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'

/**
 * A customer's cash balance in one currency: the sum of its cash balance transactions.
 *
 * @example
 * cashAvailable(engine, scope, 'cus_1', 'usd') // 5000 after a 50.00 funding
 */
export function cashAvailable(engine: Engine, scope: Scope, customer: string, currency: string): number {
  return engine
    .resource('customer_cash_balance_transaction')
    .list(scope)
    .filter((t) => t.customer === customer && t.currency === currency)
    .reduce((sum, t) => sum + (t.net_amount as number), 0)
}

/**
 * A customer's cash balance as the provider answers it (`customers.retrieveCashBalance`, and the
 * customer's includable `cash_balance`): the sum of its cash balance transactions by currency
 * (`available` null before the first one), reconciled automatically as the account's default.
 *
 * @example
 * cashBalanceOf(engine, scope, customer) // { object: 'cash_balance', available: { usd: 5000 }, customer: 'cus_1', ... }
 */
export function cashBalanceOf(engine: Engine, scope: Scope, customer: Json): Record<string, unknown> {
  let available: Record<string, number> | null = null
  for (const t of engine.resource('customer_cash_balance_transaction').list(scope)) {
    if (t.customer !== customer.id || typeof t.currency !== 'string') continue
    available ??= {}
    available[t.currency] = (available[t.currency] ?? 0) + Number(t.net_amount ?? 0)
  }
  return {
    object: 'cash_balance',
    available,
    customer: customer.id,
    customer_account: null,
    livemode: scope.mode === 'live',
    settings: { reconciliation_mode: 'automatic', using_merchant_default: true },
  }
}

/**
 * Records a movement of a customer's cash balance (`funded`, `applied_to_payment`) with its
 * `ending_balance`; emits `customer_cash_balance_transaction.created`.
 *
 * @example
 * recordCash(engine, scope, origin, { customer: 'cus_1', currency: 'usd', net: 5000, type: 'funded', details: { bank_transfer: { ... } } })
 */
export function recordCash(
  engine: Engine,
  scope: Scope,
  origin: Origin,
  m: { customer: string; currency: string; net: number; type: string; details: Readonly<Record<string, unknown>> },
): Json {
  const ending = cashAvailable(engine, scope, m.customer, m.currency) + m.net
  return engine.resource('customer_cash_balance_transaction').create(scope, {}, origin, {
    currency: m.currency,
    customer: m.customer,
    customer_account: null,
    ending_balance: ending,
    net_amount: m.net,
    type: m.type,
    [m.type]: m.details,
  })
}

/**
 * Customer cash balance transactions: what a bank transfer funds (the test helper
 * `fundCashBalance`) and what `paymentIntents.applyCustomerBalance` takes from it; listed and
 * retrieved per customer by the engine.
 *
 * @example
 * await stripe.testHelpers.customers.fundCashBalance('cus_1', { amount: 5000, currency: 'usd' })
 */
export const customerCashBalanceTransactions: ResourceDeclaration<ResourcePorts> = {
  type: 'CustomerCashBalanceTransaction',
  object: 'customer_cash_balance_transaction',
  idPrefix: 'ccsbtxn',
  only: ['retrieve', 'list'],
  behaviours: {
    'testHelpers.customers.fundCashBalance'(call, _next, { engine }) {
      const customer = engine.resource('customer').require(call.scope, call.path.id ?? '')
      const currency = parseCurrency(call.params.currency as string)
      const amount = call.params.amount as number
      if (!Number.isSafeInteger(amount) || amount < 1) throw tableError('value_too_small', { min: 1 }, { param: 'amount' })
      const reference = typeof call.params.reference === 'string' ? call.params.reference : null
      return recordCash(engine, call.scope, call.origin, {
        customer: customer.id,
        currency,
        net: amount,
        type: 'funded',
        details: {
          bank_transfer: { reference, type: 'us_bank_transfer', us_bank_transfer: { network: 'ach', sender_name: null } },
        },
      })
    },
  },
}
