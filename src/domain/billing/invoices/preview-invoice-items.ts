import type { OperationCall } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import { tableError } from '../../service-error.js'
import type { LineSpec } from '../billing-types.js'
import { entriesOf, invalid } from '../subscriptions/subscription-params.js'

type Params = Readonly<Record<string, unknown>>

/** Turns the pending items' lines of a preview into the lines it shows. */
export type PreviewItems = (pending: readonly LineSpec[]) => LineSpec[]

/**
 * `invoices.createPreview`'s `invoice_items`, checked now (before anything is previewed) and
 * applied to the preview's pending lines: an entry with `invoiceitem` changes that pending item as
 * if updated (its amount, description, quantity, price, period); any other entry adds a line, as
 * `invoiceItems.create` would (`price`, `price_data` left a draft, `amount`, or `unit_amount` ×
 * `quantity`). Each is in the invoice's `currency`. Nothing is stored. Undefined without
 * `invoice_items`.
 *
 * @example
 * const items = previewItems(engine, call, 'usd', now)
 * items?.(pendingLines) // pending lines changed, then the new ones
 */
export function previewItems(engine: Engine, call: OperationCall, currency: string, now: number): PreviewItems | undefined {
  const entries = entriesOf(call.params.invoice_items)
  if (entries.length === 0) return undefined
  const specs = entries.map((entry, i) => entrySpec(engine, call, entry, `invoice_items[${i}]`, currency, now))
  return (pending) => {
    for (const s of specs) {
      if (s.replaces !== null && !pending.some((line) => line.invoiceItem === s.replaces)) {
        throw tableError('resource_missing', { kind: 'invoiceitem', id: s.replaces }, { param: 'invoice_items', status: 400 })
      }
    }
    const changed = pending.map((line) => specs.find((s) => s.replaces !== null && s.replaces === line.invoiceItem)?.line ?? line)
    return [...changed, ...specs.filter((s) => s.replaces === null).map((s) => s.line)]
  }
}

/** An entry's line, and the pending item it changes (null: a new line). */
interface EntrySpec {
  readonly line: LineSpec
  readonly replaces: string | null
}

/** One entry of `invoice_items` as a line (`replaces`: the pending item it changes). */
function entrySpec(engine: Engine, call: OperationCall, entry: Params, prefix: string, currency: string, now: number): EntrySpec {
  const replaces = typeof entry.invoiceitem === 'string' ? entry.invoiceitem : null
  const existing = replaces === null ? undefined : engine.resource('invoiceitem').get(call.scope, replaces)
  if (replaces !== null && existing === undefined) {
    throw tableError('resource_missing', { kind: 'invoiceitem', id: replaces }, { param: `${prefix}[invoiceitem]`, status: 400 })
  }
  const given = typeof entry.currency === 'string' ? entry.currency.toLowerCase() : currency
  if (given !== currency) throw invalid(`${prefix}[currency]`, `must be ${currency}, the currency of the invoice previewed`)
  const price = priceOf(engine, call, entry, prefix, currency)
  const quantity = entry.quantity === undefined ? Number(existing?.quantity ?? 1) : Number(entry.quantity)
  if (!Number.isSafeInteger(quantity) || quantity < 1) throw invalid(`${prefix}[quantity]`, 'must be a positive integer')
  const unit = entry.unit_amount ?? price?.unit_amount
  const amount =
    entry.amount !== undefined
      ? Number(entry.amount)
      : typeof unit === 'number'
        ? unit * quantity
        : Number(existing?.amount ?? NaN)
  if (!Number.isSafeInteger(amount)) throw invalid(`${prefix}[amount]`, 'an amount, a price or a unit_amount is required')
  const period = entry.period as { start?: unknown; end?: unknown } | undefined
  const product = price === null ? undefined : engine.resource('product').get(call.scope, String(price.product))
  const name = typeof product?.name === 'string' ? product.name : undefined
  const description =
    typeof entry.description === 'string'
      ? entry.description
      : typeof existing?.description === 'string'
        ? existing.description
        : (name ?? 'Invoice item')
  const line: LineSpec = {
    price,
    quantity,
    amount,
    period:
      period === undefined ? { start: now, end: now } : { start: Number(period.start) * 1000, end: Number(period.end) * 1000 },
    subscriptionItem: null,
    invoiceItem: replaces,
    description,
  }
  return { line, replaces }
}

/** The entry's price: a stored one (any type), a draft from `price_data`, or none. */
function priceOf(engine: Engine, call: OperationCall, entry: Params, prefix: string, currency: string): Json | null {
  if (typeof entry.price === 'string') {
    const price = engine.resource('price').requireParam(call.scope, entry.price, `${prefix}[price]`)
    if (price.currency !== currency) throw invalid(`${prefix}[price]`, `must be a price in ${currency}`)
    return price
  }
  const data = entry.price_data as Params | undefined
  if (data === undefined) return null
  engine.resource('product').requireParam(call.scope, String(data.product), `${prefix}[price_data][product]`)
  return {
    id: `price_draft_item_${prefix.replace(/\D/g, '')}`,
    object: 'price',
    currency: String(data.currency ?? currency).toLowerCase(),
    product: data.product,
    type: 'one_time',
    recurring: null,
    unit_amount: data.unit_amount === undefined ? null : Number(data.unit_amount),
    billing_scheme: 'per_unit',
    tax_behavior: data.tax_behavior ?? 'unspecified',
  } as unknown as Json
}
