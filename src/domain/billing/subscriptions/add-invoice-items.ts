import { errorMessage } from '#catalogue/errors.js'
import type { OperationCall } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import { invalidRequest } from '../../service-error.js'
import { plannedPrice } from '../catalog/inline-prices.js'
import { entriesOf, invalid, missing } from './subscription-params.js'

/** The provider's limit on `add_invoice_items` entries of one request. */
const MAX_ADD_INVOICE_ITEMS = 20

/** One checked entry of `add_invoice_items`. */
export interface PlannedInvoiceItem {
  /** What `invoiceItems.create` is asked, less customer and subscription. */
  readonly params: Readonly<Record<string, unknown>>
  readonly quantity: number
  readonly metadata: unknown
  /** Its price: the named one, or the one `price_data` describes, made now (a schedule's phase keeps it). */
  readonly make: () => Json
}

/**
 * Checks `add_invoice_items` (on a subscription or a schedule's phase: `param` says where) as the
 * provider does, before anything is made: at most 20 entries, each with `price` (an existing
 * one-time price) or `price_data` (currency, product and amount), in the subscription's `currency`,
 * and a quantity of at least 1. Answers what each item will be made of.
 *
 * @example
 * checkAddInvoiceItems(engine, call, [{ price: 'price_setup' }], 'add_invoice_items', 'usd')[0].params // { pricing: { price: 'price_setup' }, quantity: 1 }
 */
export function checkAddInvoiceItems(
  engine: Engine,
  call: OperationCall,
  raw: unknown,
  param: string,
  currency: string | undefined,
): PlannedInvoiceItem[] {
  const entries = entriesOf(raw)
  if (entries.length > MAX_ADD_INVOICE_ITEMS) {
    throw invalid(param, `must have at most ${MAX_ADD_INVOICE_ITEMS} entries, got ${entries.length}`)
  }
  return entries.map((entry, i) => {
    const at = `${param}[${i}]`
    const planned = plannedPrice(engine, call, entry, at, `price_draft_aii_${i}`)
    if (planned === undefined) throw missing(`${at}[price]`)
    const { price } = planned
    if (price.type === 'recurring' || (price.recurring !== null && price.recurring !== undefined)) {
      throw invalidRequest(
        'The price specified is set to `type=recurring` but this field only accepts prices with `type=one_time`.',
        { param: `${at}[price]` },
      )
    }
    if (currency !== undefined && String(price.currency).toLowerCase() !== currency.toLowerCase()) {
      throw invalidRequest(
        errorMessage('parameter_invalid', { param: `${at}[price]`, detail: `its currency must be ${currency}` }),
        {
          code: 'parameter_invalid',
          param: `${at}[price]`,
        },
      )
    }
    const quantity = entry.quantity === undefined ? 1 : Number(entry.quantity)
    if (!Number.isSafeInteger(quantity) || quantity < 1) throw invalid(`${at}[quantity]`, 'must be a positive integer')
    const source = typeof entry.price === 'string' ? { pricing: { price: entry.price } } : { price_data: entry.price_data }
    const params = { ...source, quantity, ...(entry.metadata === undefined ? {} : { metadata: entry.metadata }) }
    return { params, quantity, metadata: entry.metadata ?? {}, make: planned.make }
  })
}

/**
 * Makes the checked items as pending invoice items of the subscription's customer, so the next
 * invoice made for it (the first invoice on create, the update's proration invoice or the next
 * cycle's) bills them, as the provider does.
 *
 * @example
 * addInvoiceItems(engine, call, 'cus_1', 'sub_1', planned) // invoiceitem.created for each
 */
export function addInvoiceItems(
  engine: Engine,
  call: OperationCall,
  customer: string,
  subscription: string,
  planned: readonly PlannedInvoiceItem[],
): Json[] {
  return planned.map(
    (item) =>
      engine.run('invoiceItems.create', {
        ...call,
        path: {},
        params: { ...item.params, customer, subscription },
      }) as Json,
  )
}

/**
 * A schedule phase's `add_invoice_items` as the phase shows them, their prices made: the items
 * the phase's first invoice bills.
 *
 * @example
 * phaseInvoiceItems(planned)[0].price // 'price_…'
 */
export function phaseInvoiceItems(planned: readonly PlannedInvoiceItem[]): Record<string, unknown>[] {
  return planned.map((item) => ({
    discountable: null,
    discounts: [],
    metadata: item.metadata,
    period: { end: { type: 'min_item_period_end' }, start: { type: 'max_item_period_start' } },
    price: String(item.make().id),
    quantity: item.quantity,
    tax_rates: [],
  }))
}

/**
 * A stored phase's `add_invoice_items` as params of the subscription call that starts the phase.
 *
 * @example
 * phaseAddParams(phase) // [{ price: 'price_…', quantity: 1 }]
 */
export function phaseAddParams(phase: Readonly<Record<string, unknown>>): Record<string, unknown>[] {
  const items = Array.isArray(phase.add_invoice_items) ? (phase.add_invoice_items as Record<string, unknown>[]) : []
  return items.map((i) => ({ price: i.price, quantity: i.quantity ?? 1, metadata: i.metadata ?? {} }))
}
