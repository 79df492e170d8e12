import { tableError } from '../service-error.js'
import { type TestCard, testCardByLast4 } from './payment-method.js'

/** Card details as a request gives them (`card[number]`, `card[exp_month]`, ...). */
export interface CardDetails {
  readonly number?: unknown
  readonly exp_month?: unknown
  readonly exp_year?: unknown
  readonly cvc?: unknown
}

/** A card read from a request's details: how it behaves, and its expiry. */
export interface EnteredCard {
  readonly card: TestCard
  readonly expMonth: number
  readonly expYear: number
}

/** The brand a card number's leading digits name (the networks' public ranges). */
function brandOf(digits: string): string {
  if (digits.startsWith('4')) return 'visa'
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard'
  if (/^3[47]/.test(digits)) return 'amex'
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover'
  if (/^35/.test(digits)) return 'jcb'
  if (/^3(0|6|8)/.test(digits)) return 'diners'
  if (/^62/.test(digits)) return 'unionpay'
  return 'unknown'
}

/** The Luhn check every card number passes. */
function luhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/**
 * Reads card details as the provider's card validation does, before anything is made: a number
 * that fails the Luhn check is 402 `incorrect_number`, a month outside 1-12 `invalid_expiry_month`,
 * a year (or month of this year) already past `invalid_expiry_year`. A test card number behaves as
 * its test card (named by its last four digits); any other valid number charges like `4242`.
 *
 * @example
 * enteredCard({ number: '4000000000000002', exp_month: '12', exp_year: '2034' }, 2026, 11).card.outcome.kind // 'decline'
 */
export function enteredCard(details: CardDetails, year: number, month: number): EnteredCard {
  const digits = String(details.number ?? '').replace(/[\s-]/g, '')
  if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) throw tableError('incorrect_number', {}, { param: 'number' })
  const expMonth = Number(details.exp_month)
  if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12) {
    throw tableError('invalid_expiry_month', {}, { param: 'exp_month' })
  }
  const given = Number(details.exp_year)
  const expYear = given < 100 ? 2000 + given : given
  if (!Number.isInteger(expYear) || expYear < year || (expYear === year && expMonth < month)) {
    throw tableError('invalid_expiry_year', {}, { param: 'exp_year' })
  }
  const last4 = digits.slice(-4)
  const known = testCardByLast4(last4)
  const brand = brandOf(digits)
  const card: TestCard = known !== undefined && known.brand === brand ? known : { brand, last4, outcome: { kind: 'succeed' } }
  return { card, expMonth, expYear }
}
