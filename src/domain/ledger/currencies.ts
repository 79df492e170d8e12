import { tableError } from '../service-error.js'

/** Currencies the provider settles card payments in (lower-case ISO 4217), the common subset. */
const SUPPORTED = new Set(
  (
    'usd aed aud bgn brl cad chf clp cny czk dkk eur gbp hkd huf idr ils inr isk jpy krw mxn myr nok nzd php ' +
    'pln ron sek sgd thb try twd ugx vnd xof zar'
  ).split(' '),
)

/** Currencies without a minor unit: amounts are whole units (the provider's list). */
export const ZERO_DECIMAL = new Set('bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' '))

/** Smallest charge per currency, in minor units (the provider's minimums; others default to 50). */
const MINIMUM: Readonly<Record<string, number>> = {
  usd: 50,
  eur: 50,
  gbp: 30,
  aud: 50,
  cad: 50,
  chf: 50,
  jpy: 50,
  dkk: 250,
  nok: 300,
  sek: 300,
  hkd: 400,
  mxn: 1000,
  sgd: 50,
  nzd: 50,
  brl: 50,
  inr: 50,
  pln: 200,
  czk: 1500,
  huf: 17500,
  ron: 200,
  bgn: 100,
  aed: 200,
  thb: 1000,
}

/** Largest amount of one charge, in minor units (eight digits, as the provider allows). */
export const MAX_AMOUNT = 99_999_999

/**
 * Validates a currency code and returns it lower-cased; an unknown one is the provider's 400.
 *
 * @example
 * parseCurrency('USD') // 'usd'
 * parseCurrency('xyz') // throws 400 invalid_request_error, param currency
 */
export function parseCurrency(value: string, param = 'currency'): string {
  const c = value.toLowerCase()
  if (!SUPPORTED.has(c)) {
    throw tableError(
      'parameter_invalid',
      { param: 'currency', detail: `${value}. The simulator supports these currencies: ${[...SUPPORTED].join(', ')}` },
      { param },
    )
  }
  return c
}

/**
 * Validates a charge amount for a currency: a positive integer at least the currency's minimum and
 * at most {@link MAX_AMOUNT}. Refusals carry the provider's codes (`amount_too_small`, `amount_too_large`).
 *
 * @example
 * checkChargeAmount(2000, 'usd') // ok
 * checkChargeAmount(10, 'usd')   // throws 400 amount_too_small
 */
export function checkChargeAmount(amount: number, currency: string, param = 'amount'): void {
  positiveAmount(amount, param)
  const min = (Object.hasOwn(MINIMUM, currency) ? MINIMUM[currency] : undefined) ?? 50
  if (amount < min) {
    throw tableError('amount_too_small', { min, currency }, { param })
  }
  if (amount > MAX_AMOUNT) {
    throw tableError('amount_too_large', { max: MAX_AMOUNT, currency }, { param })
  }
}

/**
 * A money amount param: a positive integer of minor units, or the provider's 400 (missing, or not
 * at least 1).
 *
 * @example
 * positiveAmount(500) // 500
 * positiveAmount(0)   // throws 400 parameter_invalid_integer, param amount
 */
export function positiveAmount(value: unknown, param = 'amount'): number {
  if (value === undefined) throw tableError('parameter_missing', { param }, { param })
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw tableError('value_too_small', { min: 1 }, { param })
  }
  return value
}

/**
 * The provider's card processing fee of a charge: 2.9% plus 30 minor units (zero-decimal
 * currencies: 2.9% plus 0), rounded half up.
 *
 * @example
 * cardFee(2000, 'usd') // 88
 */
export function cardFee(amount: number, currency: string): number {
  return Math.round((amount * 29) / 1000) + (ZERO_DECIMAL.has(currency) ? 0 : 30)
}
