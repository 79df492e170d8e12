import type { ResourceDeclaration } from '../../engine/declaration.js'
import { fieldEquals, pageV1, passesRange } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'

/**
 * Invoice payments: one record per payment that paid an invoice, linking the invoice and the
 * payment intent (whose `latest_charge` is the charge). Billing makes them when an invoice is paid
 * (`../invoice-payment-records.ts`); the client only reads them, by id or by invoice.
 *
 * @example
 * await stripe.invoicePayments.list({ invoice: invoice.id }) // [{ payment: { type: 'payment_intent', payment_intent: 'pi_…' }, status: 'paid' }]
 */
export const invoicePayments: ResourceDeclaration<ResourcePorts> = {
  type: 'InvoicePayment',
  object: 'invoice_payment',
  idPrefix: 'inpay',
  only: ['retrieve', 'list'],
  behaviours: {
    'invoicePayments.list'(call, next, { engine }) {
      // `payment` filters on a nested object (`payment[type]`, `payment[payment_intent]`), which the engine's equality filters do not reach.
      const { payment, ...params } = call.params
      if (payment === undefined || payment === null || typeof payment !== 'object') return next()
      const wanted = payment as Record<string, unknown>
      const items = engine
        .resource('invoice_payment')
        .list(call.scope)
        .filter((o) => {
          const p = o.payment as Record<string, unknown>
          return (
            ['type', 'payment_intent', 'payment_record'].every((f) => wanted[f] === undefined || fieldEquals(p[f], wanted[f])) &&
            (params.created === undefined || passesRange(o.created, params.created, 'created')) &&
            ['invoice', 'status'].every((f) => params[f] === undefined || fieldEquals(o[f], params[f]))
          )
        })
      return pageV1(items, params, '/v1/invoice_payments', 'invoice_payment')
    },
  },
}
