import { errorMessage } from '#catalogue/errors.js'
import { lineAmount } from '../billing/pricing.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import { pageV1 } from '../engine/list.js'
import { invalidRequest } from '../service-error.js'
import type { ResourcePorts } from './ports.js'

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
    'invoiceItems.list'(call, next, { engine }) {
      const { pending, ...params } = call.params
      if (pending === undefined) return next(params)
      // `pending` is no field of the object: true lists the items no invoice has taken yet.
      const items = engine
        .resource('invoiceitem')
        .list(call.scope)
        .filter(
          (ii) =>
            (ii.invoice === null) === (pending === true) &&
            (params.customer === undefined || ii.customer === params.customer) &&
            (params.invoice === undefined || ii.invoice === params.invoice),
        )
      return pageV1(items, params, '/v1/invoiceitems', 'invoiceitem')
    },
    'invoiceItems.create'(call, next, { engine, ports }) {
      const { price: priceId, pricing, ...params } = call.params
      if (typeof params.customer !== 'string') {
        throw invalidRequest(errorMessage('parameter_missing', { param: 'customer' }), {
          code: 'parameter_missing',
          param: 'customer',
        })
      }
      const customer = engine.resource('customer').requireParam(call.scope, params.customer, 'customer')
      const priceParam = typeof priceId === 'string' ? priceId : (pricing as { price?: unknown } | undefined)?.price
      const price =
        typeof priceParam === 'string'
          ? engine.resource('price').requireParam(call.scope, priceParam, 'pricing[price]')
          : undefined
      if (price === undefined && params.amount === undefined && params.unit_amount_decimal === undefined) {
        throw invalidRequest(errorMessage('parameter_missing', { param: 'amount' }), {
          code: 'parameter_missing',
          param: 'amount',
        })
      }
      if (typeof params.invoice === 'string') engine.resource('invoice').requireParam(call.scope, params.invoice, 'invoice')
      const quantity = params.quantity === undefined ? 1 : Number(params.quantity)
      const timeline = ports.billing.timelineOfCustomer(call.scope, customer)
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
      return next(params, fixed)
    },
  },
}
