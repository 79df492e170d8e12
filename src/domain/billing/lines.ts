import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Kernel } from '../kernel-parts.js'
import { formulaValue } from '../meters/aggregates.js'
import type { MeterEvents } from '../meters/meter-events.js'
import type { Meters } from '../meters/meters.js'
import type { Scope } from '../mode.js'
import { type CreditedLines, type LineSpec, type SubState, sec } from './billing-types.js'
import { lineAmount, lineUnitDecimal } from './pricing.js'
import type { AggregateUsage, UsageRecords } from './usage-records.js'

/** A pending invoice item's line spec also names the invoice item a credit proration applies to. */
interface PendingSpec extends LineSpec {
  readonly creditedInvoiceItem?: string
}

/** Whether a price is billed in arrears from its meter. */
export const isMetered = (price: Json) => (price.recurring as { usage_type?: unknown } | null)?.usage_type === 'metered'

/**
 * Invoice lines: what a subscription item or a pending invoice item bills for a period, as specs
 * and as `line_item` objects, and an invoice's totals from its lines.
 */
export type Lines = ReturnType<typeof createLines>

export function createLines(deps: {
  readonly kernel: Kernel
  readonly engine: Engine
  readonly meters: Meters
  readonly meterEvents: MeterEvents
  readonly usageRecords: UsageRecords
}) {
  const { kernel, engine, meters, meterEvents, usageRecords } = deps

  function productName(scope: Scope, price: Json): string {
    const product = typeof price.product === 'string' ? engine.resource('product').get(scope, price.product) : undefined
    return typeof product?.name === 'string' ? product.name : String(price.product)
  }

  /**
   * A metered item's usage of a period: its meter's aggregate of the customer's events, or for a
   * legacy price of before basil (no meter) its usage records as `aggregate_usage` says.
   */
  function usage(scope: Scope, price: Json, customer: string, start: number, end: number, item?: string): number {
    const recurring = price.recurring as { meter?: unknown; aggregate_usage?: unknown } | null
    const meterId = recurring?.meter
    if (typeof meterId !== 'string') {
      if (item === undefined || typeof recurring?.aggregate_usage !== 'string') return 0
      return usageRecords.total(scope, item, recurring.aggregate_usage as AggregateUsage, sec(start), sec(end))
    }
    const meter = meters.find(scope, meterId)
    if (meter === undefined) return 0
    return formulaValue(meter.default_aggregation.formula, meterEvents.window(meter, customer, start, end))
  }

  function itemLine(
    scope: Scope,
    s: SubState,
    item: Json,
    period: { start: number; end: number },
    free: boolean,
    prorate = 1,
  ): LineSpec {
    const price = item.price as Json
    const metered = isMetered(price)
    const quantity = metered
      ? usage(scope, price, s.customer, period.start, period.end, String(item.id))
      : Number(item.quantity ?? 1)
    const full = free ? 0 : lineAmount(price, quantity)
    const amount = prorate === 1 ? full : Math.round(full * prorate)
    const name = productName(scope, price)
    return {
      price,
      quantity,
      amount,
      period,
      subscriptionItem: String(item.id),
      invoiceItem: null,
      description: free ? `Trial period for ${name}` : `${quantity} × ${name}`,
    }
  }

  function lineJson(scope: Scope, invoice: string, currency: string, sub: string | null, spec: LineSpec): Json {
    const price = spec.price
    const unitDecimal = price === null ? null : lineUnitDecimal(price, spec.quantity, spec.amount)
    const proration = spec.proration === true
    const prorationDetails = { credited_items: spec.creditedItems ?? null }
    return engine.build('InvoiceLineItem', 'line_item', scope, {
      id: kernel.ids.next('il', 24),
      object: 'line_item',
      amount: spec.amount,
      currency,
      description: spec.description,
      discount_amounts: [],
      discountable: !proration,
      discounts: [],
      invoice,
      metadata: {},
      parent:
        spec.subscriptionItem !== null
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
            },
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

  /**
   * The lines of one invoice, in order. A credit proration whose debit is a pending invoice item
   * on the same invoice names the debit's line (`proration_details.credited_items`).
   */
  function linesJson(scope: Scope, invoice: string, currency: string, sub: string | null, specs: readonly LineSpec[]): Json[] {
    const lineOfItem = new Map<string, string>()
    const lines: Json[] = []
    for (const spec of specs as readonly PendingSpec[]) {
      let resolved: LineSpec = spec
      if (spec.creditedInvoiceItem !== undefined) {
        const line = lineOfItem.get(spec.creditedInvoiceItem)
        const creditedItems: CreditedLines | null = line === undefined ? null : { invoice, invoice_line_items: [line] }
        resolved = { ...spec, creditedItems }
      }
      const json = lineJson(scope, invoice, currency, sub, resolved)
      if (spec.invoiceItem !== null) lineOfItem.set(spec.invoiceItem, String(json.id))
      lines.push(json)
    }
    return lines
  }

  function pendingItems(scope: Scope, customer: string, currency: string): Json[] {
    return engine
      .resource('invoiceitem')
      .list(scope)
      .filter((ii) => ii.customer === customer && ii.invoice === null && ii.currency === currency)
      .reverse()
  }

  function pendingLine(scope: Scope, ii: Json): LineSpec {
    const pricing = ii.pricing as { price_details?: { price?: unknown } } | null
    const priceId = pricing?.price_details?.price
    const price = typeof priceId === 'string' ? (engine.resource('price').get(scope, priceId) ?? null) : null
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

  /** An invoice's amounts from its lines, less `discount` (the sum of its discount amounts), with its taxes. */
  function totals(lines: readonly Json[], discount = 0, tax = { exclusive: 0, inclusive: 0 }) {
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

  /** A metered line recounted from the meter (a draft's lines at finalization). */
  function recount(scope: Scope, line: Json, price: Json, customer: string): Json {
    const period = line.period as { start: number; end: number }
    const parent = line.parent as { subscription_item_details?: { subscription_item?: unknown } | null } | null
    const item = parent?.subscription_item_details?.subscription_item
    const quantity = usage(
      scope,
      price,
      customer,
      period.start * 1000,
      period.end * 1000,
      typeof item === 'string' ? item : undefined,
    )
    if (quantity === line.quantity) return line
    const amount = lineAmount(price, quantity)
    return {
      ...line,
      quantity,
      quantity_decimal: String(quantity),
      amount,
      subtotal: amount,
      description: `${quantity} × ${productName(scope, price)}`,
      pricing: { ...(line.pricing as Json), unit_amount_decimal: lineUnitDecimal(price, quantity, amount) },
    }
  }

  return { productName, usage, isMetered, itemLine, lineJson, linesJson, pendingItems, pendingLine, totals, recount }
}
