import type { Ledger } from '../ledger/ledger.js'
import type { Scope } from '../mode.js'
import { invalidRequest } from '../service-error.js'

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
    throw invalidRequest(
      `You have insufficient funds in your account for this ${what}: ${amount} ${currency} minor units requested, ${available} available. Funds of a test charge become available after 2 days, or at once with pm_card_bypassPending.`,
      { code: 'balance_insufficient', param: 'amount' },
    )
  }
}
