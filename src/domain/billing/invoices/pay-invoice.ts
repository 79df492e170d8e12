import { type CustomerError, type CustomerScope, customerStep, scopeOf } from '../../customer-scope.js'
import type { Json } from '../../engine/list.js'
import { NO_ORIGIN } from '../../events/emit-snapshot.js'
import type { Service } from '../../service.js'
import { resourceMissing, tableError } from '../../service-error.js'

/** The card the customer pays a hosted invoice with. */
export interface PayInvoiceInput extends CustomerScope {
  readonly paymentMethod: string
}

/** The invoice after the customer's attempt, and the card's refusal when it declined. */
export interface PayInvoiceResult {
  readonly invoice: Json
  readonly error?: CustomerError
}

/**
 * Pays an open invoice on its hosted page, as the customer does: the card is charged at once
 * (`invoices.pay` with it); a declined card leaves the invoice open and comes back as `error`.
 *
 * @example
 * payInvoice(service, 'in_1', { paymentMethod: 'pm_card_visa' }).invoice.status // 'paid'
 */
export function payInvoice(service: Service, invoiceId: string, input: PayInvoiceInput): PayInvoiceResult {
  const scope = scopeOf(service, input)
  const found = service.engine.find(scope, invoiceId)
  if (found === undefined || found.object !== 'invoice') throw resourceMissing('invoice', invoiceId)
  // A hosted page shows only a finalized invoice awaiting payment.
  if (found.status !== 'open') {
    throw tableError('invoice_unexpected_state', { status: String(found.status), action: 'paid on its hosted page' })
  }
  const step = customerStep(() =>
    service.engine.run('invoices.pay', {
      scope,
      origin: NO_ORIGIN,
      path: { id: invoiceId },
      params: { payment_method: input.paymentMethod },
    }),
  )
  const invoice = (service.engine.find(scope, invoiceId) ?? found) as Json
  return step.error === undefined ? { invoice } : { invoice, error: step.error }
}
