import { errorMessage } from '#catalogue/errors.js'
import { lineAmount } from '../billing/pricing.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import { invalidRequest } from '../service-error.js'
import type { ResourcePorts } from './ports.js'

const notTheCustomers = (param: string, id: string, customer: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail: `${id} does not belong to customer ${customer}` }), {
    code: 'parameter_invalid',
    param,
  })

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
      if (typeof params.invoice === 'string') {
        const invoice = engine.resource('invoice').requireParam(call.scope, params.invoice, 'invoice')
        // Only a draft takes new items, and only the customer's own.
        if (invoice.customer !== customer.id) throw notTheCustomers('invoice', invoice.id, customer.id)
        if (invoice.status !== 'draft') {
          throw invalidRequest(errorMessage('invoice_unexpected_state', { status: String(invoice.status), action: 'edited' }), {
            code: 'invoice_unexpected_state',
            param: 'invoice',
          })
        }
      }
      if (typeof params.subscription === 'string') {
        const sub = engine.resource('subscription').requireParam(call.scope, params.subscription, 'subscription')
        if (sub.customer !== customer.id) throw notTheCustomers('subscription', sub.id, customer.id)
      }
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
