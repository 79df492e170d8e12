import { errorMessage } from '#catalogue/errors.js'
import type { ResourceDeclaration } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import { fieldEquals, type Json, pageV1, passesRange } from '../../engine/list.js'
import type { Scope } from '../../mode.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { invalidRequest } from '../../service-error.js'
import { type PlannedPrice, plannedPrice } from '../catalog/inline-prices.js'
import { lineAmount } from '../pricing.js'
import type { Timeline } from '../timelines.js'

const notTheCustomers = (param: string, id: string, customer: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail: `${id} does not belong to customer ${customer}` }), {
    code: 'parameter_invalid',
    param,
  })

/** An item created on a draft invoice is one of its lines at once: the draft's totals include it. */
function addLine(engine: Engine, ports: ResourcePorts, scope: Scope, invoiceId: string, item: Json): void {
  const invoices = engine.resource('invoice')
  const invoice = invoices.require(scope, invoiceId)
  const parent = invoice.parent as { subscription_details?: { subscription?: string } } | null
  const line = ports.billing.lineJson(
    scope,
    invoiceId,
    String(invoice.currency),
    parent?.subscription_details?.subscription ?? null,
    ports.billing.pendingLine(scope, item),
  )
  const list = invoice.lines as Json & { data: Json[] }
  // The line of an invoice item carries the item's metadata.
  const data = [...list.data, { ...line, metadata: item.metadata ?? {} }]
  invoices.put(scope, invoiceId, { lines: { ...list, data, total_count: data.length }, ...ports.billing.totals(data) })
}

/**
 * Where a new item goes: a draft of the customer's own in its currency, or (pending) the currency
 * the customer is billed in, or no invoice would take it (`currencyParam` names the param at fault).
 */
function checkTarget(
  ports: ResourcePorts,
  scope: Scope,
  customer: Json,
  invoice: Json | undefined,
  currency: string,
  currencyParam: string,
): void {
  if (invoice === undefined) {
    ports.billing.checkCurrency(scope, customer.id, currency, 'invoice item', currencyParam)
    return
  }
  if (invoice.customer !== customer.id) throw notTheCustomers('invoice', invoice.id, customer.id)
  if (invoice.status !== 'draft') {
    throw invalidRequest(errorMessage('invoice_unexpected_state', { status: String(invoice.status), action: 'edited' }), {
      code: 'invoice_unexpected_state',
      param: 'invoice',
    })
  }
  if (currency !== invoice.currency) {
    throw invalidRequest(
      errorMessage('parameter_invalid', {
        param: 'currency',
        detail: `the invoice item is in ${currency}, but invoice ${invoice.id} is in ${String(invoice.currency)}`,
      }),
      { code: 'parameter_invalid', param: 'currency' },
    )
  }
}

/** A new item's fields the params do not set: its date and period on the customer's timeline, and its amount and pricing from its price. */
function fixedFields(
  params: Readonly<Record<string, unknown>>,
  price: Json | undefined,
  quantity: number,
  timeline: Timeline,
): Record<string, unknown> {
  const now = Math.floor(timeline.now() / 1000)
  const fixed: Record<string, unknown> = { test_clock: timeline.clock, date: now }
  if (params.period === undefined) fixed.period = { start: now, end: now }
  if (price !== undefined) {
    fixed.currency = price.currency
    fixed.amount = lineAmount(price, quantity)
    fixed.pricing = {
      type: 'price_details',
      price_details: { price: price.id, product: price.product },
      unit_amount_decimal: price.unit_amount_decimal ?? null,
    }
  } else if (params.unit_amount_decimal !== undefined) {
    fixed.amount = lineAmount({ unit_amount_decimal: params.unit_amount_decimal }, quantity)
  }
  return fixed
}

/**
 * Invoice items: pending (`invoice: null`) until the customer's next invoice takes them (a
 * subscription's next invoice, or a manual one with `pending_invoice_items_behavior=include`).
 * `amount`, or `price` (+ `quantity`) priced like a line.
 */
export const invoiceItems: ResourceDeclaration<ResourcePorts> = {
  type: 'InvoiceItem',
  object: 'invoiceitem',
  idPrefix: 'ii',
  defaults: ({ created }) => ({
    currency: 'usd',
    date: created,
    quantity: 1,
    period: { start: created, end: created },
  }),
  behaviours: {
    'invoiceItems.update'(call, next, { engine }) {
      const { price_data: priceData, ...params } = call.params
      const named = (params.pricing as { price?: unknown } | undefined)?.price
      if (priceData === undefined || typeof named === 'string') return next()
      // `price_data`: a new one-time price billed by the item, made once every check has passed.
      const item = engine.resource('invoiceitem').require(call.scope, call.path.id ?? '')
      const planned = plannedPrice(engine, call, { price_data: priceData }, '', 'price_draft_0') as PlannedPrice
      if (planned.price.currency !== item.currency) {
        throw invalidRequest(
          errorMessage('parameter_invalid', {
            param: 'price_data[currency]',
            detail: `the invoice item is in ${String(item.currency)}, but the price is in ${String(planned.price.currency)}`,
          }),
          { code: 'parameter_invalid', param: 'price_data[currency]' },
        )
      }
      const { quantity: rawQuantity, ...rest } = params
      if (typeof item.invoice === 'string') {
        // On an invoice the item changes with its line (a draft only, its totals with it).
        const invoice = engine.resource('invoice').require(call.scope, item.invoice)
        const line = ((invoice.lines as { data: Json[] }).data ?? []).find(
          (l) =>
            (l.parent as { invoice_item_details?: { invoice_item?: unknown } | null } | null)?.invoice_item_details
              ?.invoice_item === item.id,
        )
        engine.run('invoices.updateLines', {
          ...call,
          path: { id: item.invoice },
          params: {
            lines: [{ id: line?.id, price_data: priceData, ...(rawQuantity === undefined ? {} : { quantity: rawQuantity }) }],
          },
        })
        return next(rest)
      }
      const price = planned.make()
      const quantity = rawQuantity === undefined ? Number(item.quantity ?? 1) : Number(rawQuantity)
      return engine.resource('invoiceitem').update(call.scope, item.id, params, call.origin, {
        amount: lineAmount(price, quantity),
        pricing: {
          type: 'price_details',
          price_details: { price: price.id, product: price.product },
          unit_amount_decimal: price.unit_amount_decimal ?? null,
        },
      })
    },
    'invoiceItems.list'(call, next, { engine }) {
      // `pending` is not a field of the item (it means `invoice: null`), so the engine cannot filter on it.
      const { pending, ...params } = call.params
      if (pending === undefined) return next()
      const wanted = pending === true || pending === 'true'
      const items = engine
        .resource('invoiceitem')
        .list(call.scope)
        .filter(
          (o) =>
            (o.invoice === null || o.invoice === undefined) === wanted &&
            (params.created === undefined || passesRange(o.created, params.created, 'created')) &&
            ['customer', 'invoice'].every((f) => params[f] === undefined || fieldEquals(o[f], params[f])),
        )
      return pageV1(items, params, '/v1/invoiceitems', 'invoiceitem')
    },
    'invoiceItems.create'(call, next, { engine, ports }) {
      const { price: priceId, pricing, price_data: priceData, ...params } = call.params
      if (typeof params.customer !== 'string') {
        throw invalidRequest(errorMessage('parameter_missing', { param: 'customer' }), {
          code: 'parameter_missing',
          param: 'customer',
        })
      }
      const customer = engine.resource('customer').requireParam(call.scope, params.customer, 'customer')
      const priceParam = typeof priceId === 'string' ? priceId : (pricing as { price?: unknown } | undefined)?.price
      // `price_data`: a new one-time price, made once every check has passed.
      const planned =
        typeof priceParam !== 'string' && priceData !== undefined
          ? plannedPrice(engine, call, { price_data: priceData }, '', 'price_draft_0')
          : undefined
      let price =
        typeof priceParam === 'string'
          ? engine.resource('price').requireParam(call.scope, priceParam, 'pricing[price]')
          : planned?.price
      if (price === undefined && params.amount === undefined && params.unit_amount_decimal === undefined) {
        throw invalidRequest(errorMessage('parameter_missing', { param: 'amount' }), {
          code: 'parameter_missing',
          param: 'amount',
        })
      }
      const invoice =
        typeof params.invoice === 'string'
          ? engine.resource('invoice').requireParam(call.scope, params.invoice, 'invoice')
          : undefined
      const currency = String(price?.currency ?? params.currency ?? 'usd').toLowerCase()
      checkTarget(ports, call.scope, customer, invoice, currency, price === undefined ? 'currency' : 'pricing[price]')
      if (typeof params.subscription === 'string') {
        const sub = engine.resource('subscription').requireParam(call.scope, params.subscription, 'subscription')
        if (sub.customer !== customer.id) throw notTheCustomers('subscription', sub.id, customer.id)
      }
      if (planned !== undefined) price = planned.make()
      const quantity = params.quantity === undefined ? 1 : Number(params.quantity)
      const timeline = ports.billing.timelineOfCustomer(call.scope, customer)
      const fixed = fixedFields(params, price, quantity, timeline)
      const created = next(params, fixed) as Json
      if (invoice !== undefined) addLine(engine, ports, call.scope, invoice.id, created)
      return created
    },
  },
}
