import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'
import { type CreditedLines, type LineSpec, sec } from './billing-types.js'
import type { LinesDeps } from './lines.js'
import { lineUnitDecimal } from './pricing.js'

/** A pending invoice item's line spec also names the invoice item a credit proration applies to. */
interface PendingSpec extends LineSpec {
  readonly creditedInvoiceItem?: string
}

/**
 * A line spec as the `line_item` object an invoice lists (a new `il_` id of the seeded sequence).
 *
 * @example
 * lineJson(deps, scope, 'in_1', 'usd', 'sub_1', spec).object // 'line_item'
 */
export function lineJson(
  deps: LinesDeps,
  scope: Scope,
  invoice: string,
  currency: string,
  sub: string | null,
  spec: LineSpec,
): Json {
  const price = spec.price
  const unitDecimal = price === null ? null : lineUnitDecimal(price, spec.quantity, spec.amount)
  const proration = spec.proration === true
  return deps.engine.build('InvoiceLineItem', 'line_item', scope, {
    id: deps.kernel.ids.next('il', 24),
    object: 'line_item',
    amount: spec.amount,
    currency,
    description: spec.description,
    discount_amounts: [],
    discountable: !proration,
    discounts: [],
    invoice,
    metadata: {},
    parent: lineParent(spec, sub, proration),
    period: { start: sec(spec.period.start), end: sec(spec.period.end) },
    pretax_credit_amounts: [],
    pricing:
      price === null
        ? null
        : {
            type: 'price_details',
            price_details: { price: price.id, product: price.product },
            unit_amount_decimal: unitDecimal,
          },
    quantity: spec.quantity,
    quantity_decimal: String(spec.quantity),
    subtotal: spec.amount,
    taxes: [],
  })
}

/** What a line bills for: a subscription item, or an invoice item. */
function lineParent(spec: LineSpec, sub: string | null, proration: boolean): Record<string, unknown> {
  const prorationDetails = { credited_items: spec.creditedItems ?? null }
  return spec.subscriptionItem !== null
    ? {
        type: 'subscription_item_details',
        invoice_item_details: null,
        subscription_item_details: {
          invoice_item: spec.invoiceItem,
          proration,
          proration_details: prorationDetails,
          subscription: sub,
          subscription_item: spec.subscriptionItem,
        },
      }
    : {
        type: 'invoice_item_details',
        subscription_item_details: null,
        invoice_item_details: {
          invoice_item: spec.invoiceItem,
          proration,
          proration_details: prorationDetails,
          subscription: sub,
        },
      }
}

/**
 * The lines of one invoice, in order. A credit proration whose debit is a pending invoice item
 * on the same invoice names the debit's line (`proration_details.credited_items`).
 *
 * @example
 * linesJson(deps, scope, 'in_1', 'usd', null, specs).length === specs.length
 */
export function linesJson(
  deps: LinesDeps,
  scope: Scope,
  invoice: string,
  currency: string,
  sub: string | null,
  specs: readonly LineSpec[],
): Json[] {
  const lineOfItem = new Map<string, string>()
  const lines: Json[] = []
  for (const spec of specs as readonly PendingSpec[]) {
    let resolved: LineSpec = spec
    if (spec.creditedInvoiceItem !== undefined) {
      const line = lineOfItem.get(spec.creditedInvoiceItem)
      const creditedItems: CreditedLines | null = line === undefined ? null : { invoice, invoice_line_items: [line] }
      resolved = { ...spec, creditedItems }
    }
    const json = lineJson(deps, scope, invoice, currency, sub, resolved)
    if (spec.invoiceItem !== null) lineOfItem.set(spec.invoiceItem, String(json.id))
    lines.push(json)
  }
  return lines
}

/**
 * A customer's invoice items not on an invoice yet, in `currency`, oldest first.
 *
 * @example
 * pendingItems(deps, scope, 'cus_1', 'usd').map((ii) => pendingLine(deps, scope, ii))
 */
export function pendingItems(deps: LinesDeps, scope: Scope, customer: string, currency: string): Json[] {
  return deps.engine
    .resource('invoiceitem')
    .list(scope)
    .filter((ii) => ii.customer === customer && ii.invoice === null && ii.currency === currency)
    .reverse()
}

/**
 * A pending invoice item as a line spec.
 *
 * @example
 * pendingLine(deps, scope, invoiceItem).invoiceItem // the item's id
 */
export function pendingLine(deps: LinesDeps, scope: Scope, ii: Json): LineSpec {
  const pricing = ii.pricing as { price_details?: { price?: unknown } } | null
  const priceId = pricing?.price_details?.price
  const price = typeof priceId === 'string' ? (deps.engine.resource('price').get(scope, priceId) ?? null) : null
  const period = ii.period as { start: number; end: number }
  const parent = ii.parent as { subscription_details?: { subscription_item?: unknown } } | null
  const subItem = parent?.subscription_details?.subscription_item
  const credited = (ii.proration_details as { credited_items?: Record<string, unknown> | null } | undefined)?.credited_items
  const spec: PendingSpec = {
    price,
    quantity: Number(ii.quantity ?? 1),
    amount: Number(ii.amount ?? 0),
    period: { start: period.start * 1000, end: period.end * 1000 },
    subscriptionItem: typeof subItem === 'string' ? subItem : null,
    invoiceItem: String(ii.id),
    description: typeof ii.description === 'string' ? ii.description : 'Invoice item',
    proration: ii.proration === true,
    creditedItems: credited?.type === 'invoice_line_items' ? (credited.invoice_line_item_details as CreditedLines) : null,
    ...(credited?.type === 'invoice_item' ? { creditedInvoiceItem: String(credited.invoice_item) } : {}),
  }
  return spec
}

/**
 * An invoice's amounts from its lines, less `discount` (the sum of its discount amounts), with its taxes.
 *
 * @example
 * totals([{ amount: 500 }], 100).amount_due // 400
 */
export function totals(lines: readonly Json[], discount = 0, tax = { exclusive: 0, inclusive: 0 }) {
  const subtotal = lines.reduce((n, l) => n + Number(l.amount), 0)
  const total = subtotal - discount + tax.exclusive
  return {
    subtotal,
    subtotal_excluding_tax: subtotal - tax.inclusive,
    total,
    total_excluding_tax: total - tax.exclusive - tax.inclusive,
    amount_due: Math.max(0, total),
    amount_remaining: Math.max(0, total),
    amount_paid: 0,
  }
}
