import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Kernel } from '../kernel-parts.js'
import { formulaValue } from '../meters/aggregates.js'
import type { MeterEvents } from '../meters/meter-events.js'
import type { Meters } from '../meters/meters.js'
import type { Scope } from '../mode.js'
import { type LineSpec, type SubState, sec } from './billing-types.js'
import { lineJson, linesJson, pendingItems, pendingLine, totals } from './line-json.js'
import { lineAmount, lineUnitDecimal } from './pricing.js'
import type { AggregateUsage, UsageRecords } from './usage-records.js'

/** What invoice lines read: the ids, the engine's prices and products, meters and usage records. */
export interface LinesDeps {
  readonly kernel: Kernel
  readonly engine: Engine
  readonly meters: Meters
  readonly meterEvents: MeterEvents
  readonly usageRecords: UsageRecords
}

/** Whether a price is billed in arrears from its meter. */
export const isMetered = (price: Json) => (price.recurring as { usage_type?: unknown } | null)?.usage_type === 'metered'

/**
 * Invoice lines: what a subscription item or a pending invoice item bills for a period, as specs
 * and as `line_item` objects, and an invoice's totals from its lines.
 */
export type Lines = ReturnType<typeof createLines>

/**
 * Invoice lines over `deps`: the module's functions with their dependencies bound, made once per
 * billing area (not per call).
 *
 * @example
 * const lines = createLines({ kernel, engine, meters, meterEvents, usageRecords })
 * lines.totals(lineObjects).amount_due
 */
export function createLines(deps: LinesDeps) {
  return {
    productName: productName.bind(null, deps),
    usage: usage.bind(null, deps),
    isMetered,
    itemLine: itemLine.bind(null, deps),
    lineJson: lineJson.bind(null, deps),
    linesJson: linesJson.bind(null, deps),
    pendingItems: pendingItems.bind(null, deps),
    pendingLine: pendingLine.bind(null, deps),
    totals,
    recount: recount.bind(null, deps),
  }
}

function productName(deps: LinesDeps, scope: Scope, price: Json): string {
  const product = typeof price.product === 'string' ? deps.engine.resource('product').get(scope, price.product) : undefined
  return typeof product?.name === 'string' ? product.name : String(price.product)
}

/**
 * A metered item's usage of a period: its meter's aggregate of the customer's events, or for a
 * legacy price of before basil (no meter) its usage records as `aggregate_usage` says.
 */
function usage(deps: LinesDeps, scope: Scope, price: Json, customer: string, start: number, end: number, item?: string): number {
  const recurring = price.recurring as { meter?: unknown; aggregate_usage?: unknown } | null
  const meterId = recurring?.meter
  if (typeof meterId !== 'string') {
    if (item === undefined || typeof recurring?.aggregate_usage !== 'string') return 0
    return deps.usageRecords.total(scope, item, recurring.aggregate_usage as AggregateUsage, sec(start), sec(end))
  }
  const meter = deps.meters.find(scope, meterId)
  if (meter === undefined) return 0
  return formulaValue(meter.default_aggregation.formula, deps.meterEvents.window(meter, customer, start, end))
}

function itemLine(
  deps: LinesDeps,
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
    ? usage(deps, scope, price, s.customer, period.start, period.end, String(item.id))
    : Number(item.quantity ?? 1)
  const full = free ? 0 : lineAmount(price, quantity)
  const amount = prorate === 1 ? full : Math.round(full * prorate)
  const name = productName(deps, scope, price)
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

/** A metered line recounted from the meter (a draft's lines at finalization). */
function recount(deps: LinesDeps, scope: Scope, line: Json, price: Json, customer: string): Json {
  const period = line.period as { start: number; end: number }
  const parent = line.parent as { subscription_item_details?: { subscription_item?: unknown } | null } | null
  const item = parent?.subscription_item_details?.subscription_item
  const quantity = usage(
    deps,
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
    description: `${quantity} × ${productName(deps, scope, price)}`,
    pricing: { ...(line.pricing as Json), unit_amount_decimal: lineUnitDecimal(price, quantity, amount) },
  }
}
