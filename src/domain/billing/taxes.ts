import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'
import type { BillingContext } from './context.js'

/** One tax amount as the wire's `taxes` / `total_taxes` entries write it. */
interface TaxAmount {
  amount: number
  tax_behavior: 'exclusive' | 'inclusive'
  tax_rate_details: { tax_rate: string }
  taxability_reason: 'standard_rated'
  taxable_amount: number
  type: 'tax_rate_details'
}

/** What taxes add to (exclusive) or take from inside (inclusive) one invoice's lines. */
export interface Taxed {
  readonly lines: Json[]
  readonly totalTaxes: TaxAmount[]
  readonly exclusive: number
  readonly inclusive: number
}

const idOf = (x: unknown) => (typeof x === 'string' ? x : String((x as Json | null)?.id))

/**
 * Tax rates on invoices: a line is taxed at its own rates (the subscription item's or the invoice
 * item's `tax_rates`), else at the subscription's `default_tax_rates`. The taxable amount is the
 * line after its discounts; an exclusive rate adds `round(taxable × p / 100)` to the total, an
 * inclusive one is inside the amount: `taxable − round(taxable / (1 + p / 100))`. Rounded half up
 * per line and rate.
 */
export type Taxes = ReturnType<typeof createTaxes>

export function createTaxes(ctx: BillingContext) {
  const { r } = ctx

  /** The rates a line is taxed at: its own, else the defaults. */
  function ratesOf(scope: Scope, line: Json, defaults: unknown): unknown[] {
    const parent = line.parent as {
      subscription_item_details?: { subscription_item?: unknown; invoice_item?: unknown } | null
      invoice_item_details?: { invoice_item?: unknown } | null
    }
    const iiId = parent.subscription_item_details?.invoice_item ?? parent.invoice_item_details?.invoice_item
    const siId = parent.subscription_item_details?.subscription_item
    const own =
      typeof iiId === 'string'
        ? r.invoiceItem().get(scope, iiId)?.tax_rates
        : typeof siId === 'string'
          ? r.item().get(scope, siId)?.tax_rates
          : undefined
    if (Array.isArray(own) && own.length > 0) return own
    return Array.isArray(defaults) ? defaults : []
  }

  return {
    /** Taxes the (discounted) lines of an invoice; `defaults` are the subscription's `default_tax_rates`. */
    apply(scope: Scope, lines: readonly Json[], defaults: unknown): Taxed {
      const totals = new Map<string, TaxAmount>()
      let exclusive = 0
      let inclusive = 0
      const out = lines.map((line) => {
        const discounted = ((line.discount_amounts as { amount: number }[] | undefined) ?? []).reduce((n, d) => n + d.amount, 0)
        const taxable = Number(line.amount) - discounted
        const taxes: TaxAmount[] = []
        for (const ref of ratesOf(scope, line, defaults)) {
          const rate = r.taxRate().get(scope, idOf(ref))
          if (rate === undefined) continue
          const p = Number(rate.percentage)
          const inc = rate.inclusive === true
          const amount = inc ? taxable - Math.round(taxable / (1 + p / 100)) : Math.round((taxable * p) / 100)
          const entry: TaxAmount = {
            amount,
            tax_behavior: inc ? 'inclusive' : 'exclusive',
            tax_rate_details: { tax_rate: String(rate.id) },
            taxability_reason: 'standard_rated',
            taxable_amount: inc ? taxable - amount : taxable,
            type: 'tax_rate_details',
          }
          taxes.push(entry)
          if (inc) inclusive += amount
          else exclusive += amount
          const sum = totals.get(String(rate.id))
          totals.set(
            String(rate.id),
            sum === undefined
              ? { ...entry }
              : { ...sum, amount: sum.amount + amount, taxable_amount: sum.taxable_amount + entry.taxable_amount },
          )
        }
        return taxes.length === 0 ? line : { ...line, taxes }
      })
      return { lines: out, totalTaxes: [...totals.values()], exclusive, inclusive }
    },
  }
}
