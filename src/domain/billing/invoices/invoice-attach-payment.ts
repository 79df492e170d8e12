import { errorMessage } from '#catalogue/errors.js'
import type { Behaviour } from '../../engine/declaration.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { invalidRequest, tableError } from '../../service-error.js'

const invalid = (param: string, detail: string) => tableError('parameter_invalid', { param, detail }, { param })

/**
 * `invoices.attachPayment`: attaches a payment intent of the invoice's customer and currency to
 * an open invoice as an `InvoicePayment` record, `open` until the intent succeeds, then `paid`;
 * the invoice is paid when its payments cover it (at once for an intent that already succeeded).
 * An invoice that is not open, an intent that is canceled, of another customer or currency, or
 * already attached, is refused and nothing changes.
 *
 * @example
 * await stripe.invoices.attachPayment(invoice.id, { payment_intent: pi.id }) // status 'paid' if pi succeeded
 */
export const attachPayment: Behaviour<ResourcePorts> = (call, _next, { engine, ports }) => {
  const invoice = engine.resource('invoice').require(call.scope, call.path.id ?? call.path.invoice ?? '')
  const given = call.params.payment_intent
  if (typeof given !== 'string') {
    throw tableError('parameter_missing', { param: 'payment_intent' }, { param: 'payment_intent' })
  }
  const intent = engine.resource('payment_intent').requireParam(call.scope, given, 'payment_intent')
  if (invoice.status !== 'open') {
    throw invalidRequest(
      errorMessage('invoice_unexpected_state', { status: String(invoice.status), action: 'attached a payment' }),
      { code: 'invoice_unexpected_state' },
    )
  }
  if (intent.status === 'canceled') throw invalid('payment_intent', `the payment intent ${intent.id} is canceled`)
  if (intent.currency !== invoice.currency) {
    throw invalid(
      'payment_intent',
      `the payment intent is in ${String(intent.currency)}, the invoice in ${String(invoice.currency)}`,
    )
  }
  if (typeof intent.customer === 'string' && intent.customer !== invoice.customer) {
    throw invalid('payment_intent', `the payment intent belongs to customer ${intent.customer}, not the invoice's`)
  }
  const attached = engine
    .resource('invoice_payment')
    .list(call.scope)
    .some((p) => (p.payment as Json | undefined)?.payment_intent === intent.id && p.status !== 'canceled')
  if (attached) throw invalid('payment_intent', `the payment intent ${intent.id} is already attached to an invoice`)
  return ports.billing.attachPayment(call.scope, invoice.id, intent, call.origin)
}
