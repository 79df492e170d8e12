import type { Json } from '../engine/list.js'

/** An address as the tax APIs take it (`customer_details.address`). */
export interface TaxAddress {
  readonly country: string
  readonly state: string | null
}

/** One rate's share of a line: what the rate adds or holds inside, on what amount. */
export interface RateShare {
  readonly rate: Json
  readonly amount: number
  readonly taxable: number
}

/** A line's tax: its shares per rate and their sum. */
export interface LineTax {
  readonly shares: RateShare[]
  readonly tax: number
  readonly taxable: number
}

const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : null)

/**
 * The account's tax rates that apply at an address: active rates of its country, and of its
 * state where the rate names one. A rate without a country names no place and applies nowhere.
 *
 * @example
 * ratesAt(rates, { country: 'US', state: 'CA' }) // the US rates with no state or state CA
 */
export function ratesAt(rates: readonly Json[], at: TaxAddress): Json[] {
  return rates
    .filter((r) => r.active !== false && upper(r.country) === upper(at.country))
    .filter((r) => r.state === null || r.state === undefined || upper(r.state) === upper(at.state))
    .sort((a, b) => String(a.id).localeCompare(String(b.id)))
}

/**
 * A line's tax at some rates. Exclusive: each rate adds `round(amount × p / 100)`. Inclusive: the
 * amount holds the tax; the taxable part is `round(amount / (1 + Σp / 100))`, each rate takes its
 * share of the rest and the last absorbs the rounding, so the parts add up to the amount.
 *
 * @example
 * lineTax(1000, 'exclusive', [rate8]).tax // 80
 */
export function lineTax(amount: number, behavior: 'exclusive' | 'inclusive', rates: readonly Json[]): LineTax {
  const pct = (r: Json) => Number(r.percentage ?? 0)
  if (behavior === 'exclusive') {
    const shares = rates.map((rate) => ({ rate, amount: Math.round((amount * pct(rate)) / 100), taxable: amount }))
    return { shares, tax: shares.reduce((n, s) => n + s.amount, 0), taxable: amount }
  }
  const total = rates.reduce((n, r) => n + pct(r), 0)
  const taxable = Math.round(amount / (1 + total / 100))
  const held = amount - taxable
  let left = held
  const shares = rates.map((rate, i) => {
    const share = i === rates.length - 1 ? left : Math.round((taxable * pct(rate)) / 100)
    left -= share
    return { rate, amount: share, taxable }
  })
  return { shares, tax: held, taxable }
}
