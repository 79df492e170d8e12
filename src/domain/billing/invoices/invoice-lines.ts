import { errorMessage } from '#catalogue/errors.js'
import { isPlainObject, mergeMetadata } from '../../engine/apply-params.js'
import type { Behaviour, OperationCall } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { invalidRequest } from '../../service-error.js'
import { plannedPrice } from '../catalog/inline-prices.js'
import { lineAmount } from '../pricing.js'

type Params = Record<string, unknown>

const invalid = (param: string, detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail }), { code: 'parameter_invalid', param })
const missing = (param: string) =>
  invalidRequest(errorMessage('parameter_missing', { param }), { code: 'parameter_missing', param })

/** The line entries of a call (`lines[]`), each a plain object, else 400 on it. */
function entriesOf(call: OperationCall): Params[] {
  const lines = call.params.lines
  const list = Array.isArray(lines) ? lines : isPlainObject(lines) ? Object.values(lines) : undefined
  if (list === undefined || list.length === 0) throw missing('lines')
  return list.map((l, i) => {
    if (!isPlainObject(l)) throw invalid(`lines[${i}]`, 'must be an object')
    return l
  })
}

/** The draft a call edits: only a draft's lines change ("You can only edit draft invoices"). */
function draftOf(engine: Engine, call: OperationCall): Json {
  const invoice = engine.resource('invoice').require(call.scope, call.path.id ?? '')
  if (invoice.status !== 'draft') {
    throw invalidRequest(errorMessage('invoice_unexpected_state', { status: String(invoice.status), action: 'edited' }), {
      code: 'invoice_unexpected_state',
    })
  }
  return invoice
}

const linesOf = (invoice: Json) => (invoice.lines as { data: Json[] }).data

/** The invoice item a line bills, or null (a subscription item's line). */
function itemOfLine(line: Json): string | null {
  const parent = line.parent as {
    invoice_item_details?: { invoice_item?: unknown } | null
    subscription_item_details?: { invoice_item?: unknown } | null
  } | null
  const id = parent?.invoice_item_details?.invoice_item ?? parent?.subscription_item_details?.invoice_item
  return typeof id === 'string' ? id : null
}

/** The line of `id` on the draft, else 400 `resource_missing` on `lines[i][id]`. */
function lineOf(invoice: Json, id: unknown, i: number): Json {
  const line = linesOf(invoice).find((l) => l.id === id)
  if (line === undefined) {
    throw invalidRequest(errorMessage('resource_missing', { kind: 'line_item', id: String(id) }), {
      code: 'resource_missing',
      param: `lines[${i}][id]`,
    })
  }
  return line
}

/**
 * Sets the draft's lines (and `invoice_metadata` merged into its metadata), its amounts again, and
 * emits `invoice.updated` with what changed.
 */
function finish(engine: Engine, ports: ResourcePorts, call: OperationCall, id: string, data: readonly Json[]): Json {
  const invoices = engine.resource('invoice')
  const invoice = invoices.require(call.scope, id)
  const fields = ports.billing.draftLines(call.scope, invoice, data)
  const meta = call.params.invoice_metadata
  if (meta !== undefined) fields.metadata = mergeMetadata(invoice.metadata, meta)
  return invoices.set(call.scope, id, fields, call.origin)
}

/** The line of an invoice item, as billing draws it, with the line's own metadata. */
function lineOfItem(
  engine: Engine,
  ports: ResourcePorts,
  call: OperationCall,
  invoice: Json,
  itemId: string,
  keepId?: string,
): Json {
  const item = engine.resource('invoiceitem').require(call.scope, itemId)
  const parent = invoice.parent as { subscription_details?: { subscription?: string } } | null
  const line = ports.billing.lineJson(
    call.scope,
    String(invoice.id),
    String(invoice.currency),
    parent?.subscription_details?.subscription ?? null,
    ports.billing.pendingLine(call.scope, item),
  )
  return { ...line, ...(keepId === undefined ? {} : { id: keepId }), metadata: item.metadata ?? {} }
}

/**
 * `invoices.addLines`: each entry is a pending invoice item of the customer (`invoice_item`) or a
 * new one (`amount`, `pricing[price]` or `price_data`, made through `invoiceItems.create` with its
 * `invoiceitem.created`). Every entry is checked before anything is made.
 */
const addLines: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
  const invoice = draftOf(engine, call)
  const entries = entriesOf(call)
  const items = engine.resource('invoiceitem')
  const plans = entries.map((entry, i) => {
    const at = `lines[${i}]`
    if (typeof entry.invoice_item === 'string') {
      const item = items.requireParam(call.scope, entry.invoice_item, `${at}[invoice_item]`)
      if (item.customer !== invoice.customer || (item.invoice !== null && item.invoice !== undefined)) {
        throw invalid(`${at}[invoice_item]`, `${item.id} is not a pending invoice item of customer ${String(invoice.customer)}`)
      }
      return { existing: item.id }
    }
    const pricing = entry.pricing as { price?: unknown } | undefined
    const priceId = pricing?.price
    const price =
      typeof priceId === 'string'
        ? engine.resource('price').requireParam(call.scope, priceId, `${at}[pricing][price]`)
        : plannedPrice(engine, call, { price_data: entry.price_data }, at, `price_draft_${i}`)?.price
    if (price === undefined && entry.amount === undefined) throw missing(`${at}[amount]`)
    if (price !== undefined && price.currency !== invoice.currency) {
      throw invalid(
        `${at}[pricing][price]`,
        `the price is in ${String(price.currency)}, but the invoice is in ${String(invoice.currency)}`,
      )
    }
    return { entry }
  })
  for (const plan of plans) {
    if (plan.existing !== undefined) items.set(call.scope, plan.existing, { invoice: invoice.id }, call.origin)
    else {
      const { tax_amounts: _t, discounts: _d, ...params } = plan.entry
      engine.run('invoiceItems.create', {
        ...call,
        path: {},
        params: { ...params, customer: invoice.customer, invoice: invoice.id, currency: invoice.currency },
      })
    }
  }
  const after = engine.resource('invoice').require(call.scope, invoice.id)
  const existing = plans.flatMap((p) => (p.existing === undefined ? [] : [lineOfItem(engine, ports, call, after, p.existing)]))
  return finish(engine, ports, call, invoice.id, [...linesOf(after), ...existing])
}

/** Fields a subscription item's line takes; the others live on the invoice item a line bills. */
const LINE_ONLY = new Set(['id', 'description', 'metadata', 'discountable', 'tax_amounts', 'tax_rates', 'discounts'])

/**
 * `invoices.updateLines`: a line of an invoice item changes with its item (`amount`, `quantity`,
 * `pricing`, `price_data` made inline once every entry is checked, `period`, `description`,
 * `metadata`, `invoiceitem.updated`); a subscription item's line takes only its `description` and
 * `metadata`.
 */
const updateLines: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
  const invoice = draftOf(engine, call)
  const entries = entriesOf(call)
  const items = engine.resource('invoiceitem')
  const plans = entries.map((entry, i) => {
    const line = lineOf(invoice, entry.id, i)
    const itemId = itemOfLine(line)
    if (itemId === null) {
      const other = Object.keys(entry).find((k) => !LINE_ONLY.has(k))
      if (other !== undefined) throw invalid(`lines[${i}][${other}]`, "cannot be changed on a subscription item's line")
      return { line, itemId, entry, fields: {} }
    }
    const item = items.require(call.scope, itemId)
    const priceId = (entry.pricing as { price?: unknown } | undefined)?.price
    const planned =
      typeof priceId !== 'string' && entry.price_data !== undefined
        ? plannedPrice(engine, call, { price_data: entry.price_data }, `lines[${i}]`, `price_draft_${i}`)
        : undefined
    const price =
      typeof priceId === 'string'
        ? engine.resource('price').requireParam(call.scope, priceId, `lines[${i}][pricing][price]`)
        : planned !== undefined
          ? planned.price
          : (() => {
              const current = (item.pricing as { price_details?: { price?: unknown } } | null)?.price_details?.price
              return typeof current === 'string' ? engine.resource('price').get(call.scope, current) : undefined
            })()
    if (price !== undefined && price.currency !== invoice.currency) {
      throw invalid(
        `lines[${i}][pricing][price]`,
        `the price is in ${String(price.currency)}, but the invoice is in ${String(invoice.currency)}`,
      )
    }
    const quantity = entry.quantity === undefined ? Number(item.quantity ?? 1) : Number(entry.quantity)
    const fields: Params = { quantity }
    if (price !== undefined && entry.amount === undefined) {
      fields.amount = lineAmount(price, quantity)
      fields.pricing = {
        type: 'price_details',
        price_details: { price: price.id, product: price.product },
        unit_amount_decimal: price.unit_amount_decimal ?? null,
      }
    } else if (entry.amount !== undefined) fields.amount = Number(entry.amount)
    if (typeof entry.description === 'string') fields.description = entry.description
    if (isPlainObject(entry.period)) fields.period = { start: Number(entry.period.start), end: Number(entry.period.end) }
    if (entry.metadata !== undefined) fields.metadata = mergeMetadata(item.metadata, entry.metadata)
    return { line, itemId, entry, fields, planned }
  })
  const data = linesOf(invoice).slice()
  for (const { line, itemId, entry, fields, planned } of plans) {
    const at = data.findIndex((l) => l.id === line.id)
    if (planned !== undefined && entry.amount === undefined) {
      const made = planned.make()
      fields.pricing = {
        type: 'price_details',
        price_details: { price: made.id, product: made.product },
        unit_amount_decimal: made.unit_amount_decimal ?? null,
      }
    }
    if (itemId !== null) {
      items.set(call.scope, itemId, fields, call.origin)
      data[at] = lineOfItem(engine, ports, call, invoice, itemId, line.id)
    } else {
      data[at] = {
        ...line,
        ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
        ...(entry.metadata !== undefined ? { metadata: mergeMetadata(line.metadata, entry.metadata) } : {}),
      }
    }
  }
  return finish(engine, ports, call, invoice.id, data)
}

/**
 * `invoices.updateLineItem`: one line of a draft changed as `invoices.updateLines` changes it;
 * answers the line.
 */
const updateLineItem: Behaviour<ResourcePorts> = (call, next, env) => {
  const { expand: _expand, ...params } = call.params
  const lineId = call.path.id ?? ''
  const invoice = updateLines(
    { ...call, path: { id: call.path.invoiceId ?? '' }, params: { lines: [{ ...params, id: lineId }] } },
    next,
    env,
  ) as Json
  return linesOf(invoice).find((l) => l.id === lineId) as Json
}

/**
 * `invoices.removeLines`: a line of an invoice item leaves the draft, the item deleted
 * (`behavior: 'delete'`) or pending again for the next invoice (`unassign`); a subscription
 * item's line stays (the subscription bills it).
 */
const removeLines: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
  const invoice = draftOf(engine, call)
  const entries = entriesOf(call)
  const plans = entries.map((entry, i) => {
    const line = lineOf(invoice, entry.id, i)
    const itemId = itemOfLine(line)
    if (itemId === null) throw invalid(`lines[${i}][id]`, "a subscription item's line cannot be removed from its invoice")
    if (entry.behavior !== 'delete' && entry.behavior !== 'unassign') {
      if (entry.behavior === undefined) throw missing(`lines[${i}][behavior]`)
      throw invalid(`lines[${i}][behavior]`, "must be one of 'delete', 'unassign'")
    }
    return { line, itemId, behavior: entry.behavior }
  })
  const items = engine.resource('invoiceitem')
  for (const { itemId, behavior } of plans) {
    if (behavior === 'delete') items.delete(call.scope, itemId, call.origin)
    else items.set(call.scope, itemId, { invoice: null }, call.origin)
  }
  const removed = new Set(plans.map((p) => p.line.id))
  return finish(
    engine,
    ports,
    call,
    invoice.id,
    linesOf(invoice).filter((l) => !removed.has(l.id)),
  )
}

/**
 * The line-editing behaviours of `invoices` (drafts only), by operation name.
 *
 * @example
 * await stripe.invoices.addLines(draft.id, { lines: [{ amount: 500, description: 'Setup' }] })
 * await stripe.invoices.removeLines(draft.id, { lines: [{ id: line.id, behavior: 'unassign' }] })
 */
export const invoiceLineBehaviours: Readonly<Record<string, Behaviour<ResourcePorts>>> = {
  'invoices.addLines': addLines,
  'invoices.updateLines': updateLines,
  'invoices.updateLineItem': updateLineItem,
  'invoices.removeLines': removeLines,
}
