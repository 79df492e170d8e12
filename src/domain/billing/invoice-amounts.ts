import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'
import type { InvoiceState } from './billing-types.js'
import type { InvoicingParts } from './invoicing.js'
import { isMetered } from './lines.js'

/** An invoice's lines with their discounts and taxes, and the invoice fields their amounts set. */
export interface InvoiceAmounts {
  readonly lines: Json[]
  readonly fields: Record<string, unknown>
}

/**
 * An invoice's lines with their discounts and taxes, and the invoice's amounts from them:
 * `total_discount_amounts`, `total_taxes`, subtotal and totals.
 *
 * @example
 * const { lines, fields } = amountsOf(parts, scope, lineObjects, sub.discounts, now, 'usd', sub.default_tax_rates)
 */
export function amountsOf(
  parts: InvoicingParts,
  scope: Scope,
  lineObjects: readonly Json[],
  ids: unknown,
  t: number | null,
  currency: string,
  rates: unknown,
): InvoiceAmounts {
  const applied = parts.discounts.apply(scope, lineObjects, ids, t, currency)
  const taxed = parts.taxes.apply(scope, applied.lines, rates)
  return {
    lines: taxed.lines,
    fields: {
      total_discount_amounts: applied.totalDiscountAmounts,
      total_taxes: taxed.totalTaxes,
      ...parts.lines.totals(taxed.lines, applied.discountTotal, taxed),
    },
  }
}

/**
 * Metered lines of a draft are recounted when it is finalized: usage processed in the grace period counts.
 *
 * @example
 * invoice = refreshDraft(parts, scope, invoice, st) // stored with its recounted lines
 */
export function refreshDraft(parts: InvoicingParts, scope: Scope, invoice: Json, st: InvoiceState): Json {
  const { r, subs, key } = parts.ctx
  if (st.subscription === null) return invoice
  const sub = subs.get(key(scope, st.subscription))
  if (sub === undefined) return invoice
  const list = invoice.lines as { data: Json[] }
  const data = list.data.map((line) => {
    const price = r
      .price()
      .get(scope, String((line.pricing as { price_details?: { price?: unknown } } | null)?.price_details?.price))
    if (
      price === undefined ||
      !isMetered(price) ||
      (Number(line.amount) === 0 && line.description?.toString().startsWith('Trial'))
    )
      return line
    return parts.lines.recount(scope, line, price, sub.customer)
  })
  // The discounts the draft was made with still apply (a `once` discount has ended since).
  const rates = r.subscription().get(scope, st.subscription)?.default_tax_rates
  const amounts = amountsOf(parts, scope, data, invoice.discounts, null, String(invoice.currency), rates)
  return r.invoice().put(scope, String(invoice.id), { lines: { ...list, data: amounts.lines }, ...amounts.fields })
}

/**
 * A draft's lines after an edit (`invoices.addLines`, `updateLines`, `removeLines`): its amounts
 * again from them, with the draft's discounts and its subscription's tax rates, as the fields to
 * set (the caller sets them with the event it owes).
 *
 * @example
 * r.invoice().set(scope, invoice.id, draftLines(parts, scope, invoice, data), origin)
 */
export function draftLines(parts: InvoicingParts, scope: Scope, invoice: Json, data: readonly Json[]): Record<string, unknown> {
  const { r, invoiceStates, key } = parts.ctx
  const subId = invoiceStates.get(key(scope, String(invoice.id)))?.subscription ?? null
  const rates = subId === null ? invoice.default_tax_rates : r.subscription().get(scope, subId)?.default_tax_rates
  const amounts = amountsOf(parts, scope, data, invoice.discounts, null, String(invoice.currency), rates)
  const list = invoice.lines as Json
  return { lines: { ...list, data: amounts.lines, total_count: amounts.lines.length }, ...amounts.fields }
}
