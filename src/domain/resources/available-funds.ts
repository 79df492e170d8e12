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

/**
 * A money amount param: a positive integer of minor units, or the provider's 400.
 *
 * @example
 * positiveAmount(500) // 500
 * positiveAmount(0)   // throws 400 parameter_invalid_integer, param amount
 */
export function positiveAmount(value: unknown): number {
  if (value === undefined) throw invalidRequest('Missing required param: amount.', { code: 'parameter_missing', param: 'amount' })
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw invalidRequest('This value must be greater than or equal to 1.', { code: 'parameter_invalid_integer', param: 'amount' })
  }
  return value
}
