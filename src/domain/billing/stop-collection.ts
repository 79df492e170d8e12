import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { BillingContext } from './context.js'

/**
 * Stops automatic collection of a customer's unpaid invoices, as the provider does when the
 * subscriptions of a deleted customer are cancelled ("Stripe stops automatic collection of all
 * finalized invoices for the customer", the pinned client on `subscriptions.cancel`): open invoices
 * get no more payment retries (nor an overdue notice), drafts are no longer finalized by
 * themselves. Each keeps its status and can still be paid, finalized or voided by hand;
 * `auto_advance: false` and `next_payment_attempt: null` show it (`invoice.updated`).
 *
 * @example
 * stopCollection(scope, 'cus_123', origin) // its open invoice's next retry is dropped
 */
export function createStopCollection(ctx: BillingContext) {
  const { r, invoiceStates, key } = ctx

  return function stopCollection(scope: Scope, customer: string, origin: Origin): void {
    for (const invoice of r.invoice().list(scope)) {
      if (invoice.customer !== customer || (invoice.status !== 'open' && invoice.status !== 'draft')) continue
      const st = invoiceStates.get(key(scope, String(invoice.id)))
      if (st?.job !== undefined) st.timeline.cancel(st.job)
      if (st !== undefined) st.job = undefined
      if (invoice.auto_advance !== true && invoice.next_payment_attempt == null && invoice.automatically_finalizes_at == null)
        continue
      r.invoice().set(
        scope,
        String(invoice.id),
        { auto_advance: false, next_payment_attempt: null, automatically_finalizes_at: null },
        origin,
      )
    }
  }
}
