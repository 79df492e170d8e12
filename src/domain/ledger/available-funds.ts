import type { Scope } from '../mode.js'
import { tableError } from '../service-error.js'
import type { Ledger } from './ledger.js'

/**
 * Refuses money leaving an account (a payout, a transfer) beyond its available balance in that
 * currency, with the provider's `balance_insufficient`, before anything changes. Pending funds do
 * not count: in test mode a charge with `pm_card_bypassPending` makes funds available at once.
 *
 * @example
 * requireAvailable(ledger, scope, 'usd', 5000, 'payout') // throws 400 balance_insufficient on an empty balance
 */
export function requireAvailable(ledger: Ledger, scope: Scope, currency: string, amount: number, what: string): void {
  const available = ledger.balance(scope).find((b) => b.currency === currency)?.available ?? 0
  if (amount > available) {
    throw tableError('balance_insufficient', { what, amount, currency, available }, { param: 'amount' })
  }
}
