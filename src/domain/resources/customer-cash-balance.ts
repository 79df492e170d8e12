import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'

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
 * Whether a customer has had any cash balance movement (a customer without one answers
 * `cash_balance: null` when it is expanded).
 *
 * @example
 * hasCashBalance(engine, scope, 'cus_1') // true after a funding
 */
export function hasCashBalance(engine: Engine, scope: Scope, customer: string): boolean {
  return engine
    .resource('customer_cash_balance_transaction')
    .list(scope)
    .some((t) => t.customer === customer)
}
