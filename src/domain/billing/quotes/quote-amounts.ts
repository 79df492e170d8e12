import type { Json } from '../../engine/list.js'
import { lineTax } from '../../tax/tax-math.js'
import { lineAmount, type PriceTerms } from '../pricing.js'

/** One checked line of a quote: a price, its quantity and the tax rates it is taxed at. */
export interface QuoteLine {
  readonly id: string
  readonly price: Json
  readonly quantity: number
  readonly taxRates: readonly Json[]
  /** The line's description: its product's name, as the provider defaults it. */
  readonly description?: string | null
}

/** Amounts of a group of lines (the upfront ones, or the recurring ones). */
export interface QuoteTotals {
  readonly amount_subtotal: number
  readonly amount_total: number
  readonly total_details: { amount_discount: number; amount_shipping: number; amount_tax: number }
}

const isRecurring = (l: QuoteLine) => l.price.recurring !== null && l.price.recurring !== undefined

/**
 * A discount's share of each line: `percent_off` of every line (rounded half up), `amount_off`
 * spread over the lines by their amounts (the last takes the rounding), never more than a line.
 */
function discountShares(subtotals: readonly number[], coupon: Json): number[] {
  if (typeof coupon.percent_off === 'number') return subtotals.map((s) => Math.round((s * Number(coupon.percent_off)) / 100))
  const off = Math.min(
    Number(coupon.amount_off ?? 0),
    subtotals.reduce((n, s) => n + s, 0),
  )
  const sum = subtotals.reduce((n, s) => n + s, 0)
  let left = off
  return subtotals.map((s, i) => {
    const share = i === subtotals.length - 1 ? left : sum === 0 ? 0 : Math.min(left, Math.round((off * s) / sum))
    left -= share
    return share
  })
}

/**
 * The line items (`object: 'item'`) of some quote lines with their amounts: the price's amount for
 * the quantity, the discounts (each of the quote's discounts on every line), then the taxes on what
 * is left (exclusive rates add to the total, inclusive ones are inside it).
 *
 * @example
 * lineItems(lines, [discount], 'usd').map((i) => i.amount_total)
 */
export function lineItems(lines: readonly QuoteLine[], discounts: readonly Json[], currency: string): Json[] {
  const subtotals = lines.map((l) => lineAmount(l.price as PriceTerms, l.quantity))
  const shares = discounts.map((d) => discountShares(subtotals, (d.source as { coupon: Json }).coupon))
  return lines.map((l, i) => {
    const subtotal = subtotals[i] ?? 0
    const lineDiscounts = discounts.map((d, j) => ({ amount: shares[j]?.[i] ?? 0, discount: d }))
    const discounted = Math.max(0, subtotal - lineDiscounts.reduce((n, d) => n + d.amount, 0))
    const exclusiveRates = l.taxRates.filter((r) => r.inclusive !== true)
    const inclusiveRates = l.taxRates.filter((r) => r.inclusive === true)
    const exclusive = lineTax(discounted, 'exclusive', exclusiveRates)
    const inclusive = lineTax(discounted, 'inclusive', inclusiveRates)
    const taxes = [...inclusive.shares, ...exclusive.shares].map((s) => ({
      amount: s.amount,
      rate: s.rate,
      taxability_reason: null,
      taxable_amount: s.taxable,
    }))
    return {
      id: l.id,
      object: 'item',
      adjustable_quantity: null,
      amount_discount: subtotal - discounted,
      amount_subtotal: subtotal,
      amount_tax: exclusive.tax + inclusive.tax,
      amount_total: discounted + exclusive.tax,
      currency,
      description: l.description ?? null,
      discounts: lineDiscounts,
      metadata: {},
      price: l.price,
      quantity: l.quantity,
      taxes,
    } as unknown as Json
  })
}

/** The totals of some line items. */
export function totalsOf(items: readonly Json[]): QuoteTotals {
  const sum = (k: string) => items.reduce((n, i) => n + Number(i[k] ?? 0), 0)
  return {
    amount_subtotal: sum('amount_subtotal'),
    amount_total: sum('amount_total'),
    total_details: { amount_discount: sum('amount_discount'), amount_shipping: 0, amount_tax: sum('amount_tax') },
  }
}

/**
 * A quote's computed amounts: every line is due upfront (the first period of recurring lines, and
 * the one-time lines); `computed.recurring` is what each later period of the recurring lines costs.
 *
 * @example
 * quoteAmounts(lines, discounts, 'usd', '/v1/quotes/qt_1').amount_total
 */
export function quoteAmounts(
  lines: readonly QuoteLine[],
  discounts: readonly Json[],
  currency: string,
  url: string,
): Record<string, unknown> {
  const items = lineItems(lines, discounts, currency)
  const upfront = totalsOf(items)
  const recurringLines = lines.filter(isRecurring)
  const first = recurringLines[0]?.price.recurring as { interval: string; interval_count: number } | undefined
  const recurring =
    first === undefined
      ? null
      : {
          ...totalsOf(items.filter((_, i) => lines[i] !== undefined && isRecurring(lines[i] as QuoteLine))),
          interval: first.interval,
          interval_count: first.interval_count,
        }
  const list = (path: string, data: readonly Json[]) => ({
    object: 'list',
    data,
    has_more: false,
    total_count: data.length,
    url: `${url}/${path}`,
  })
  return {
    amount_subtotal: upfront.amount_subtotal,
    amount_total: upfront.amount_total,
    total_details: upfront.total_details,
    line_items: list('line_items', items),
    computed: {
      recurring,
      upfront: { ...upfront, line_items: list('computed_upfront_line_items', items) },
    },
  }
}
