import { ZERO_DECIMAL } from './currencies.js'

const SYMBOLS: Readonly<Record<string, string>> = { usd: '$', eur: '€', gbp: '£', jpy: '¥', aud: 'A$', cad: 'CA$' }

/**
 * An amount in minor units as the provider's error messages print it: the currency symbol (or the
 * upper-case code) and the major units with the currency's decimals.
 *
 * @example
 * formatMoney(2500, 'usd') // '$25.00'
 * formatMoney(500, 'jpy')  // '¥500'
 * formatMoney(1999, 'sek') // 'SEK 19.99'
 */
export function formatMoney(amount: number, currency: string): string {
  const zero = ZERO_DECIMAL.has(currency)
  const text = zero ? String(amount) : (amount / 100).toFixed(2)
  const symbol = Object.hasOwn(SYMBOLS, currency) ? SYMBOLS[currency] : undefined
  return symbol === undefined ? `${currency.toUpperCase()} ${text}` : `${symbol}${text}`
}
