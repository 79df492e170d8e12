import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import {
  cancelIntent,
  cancelRecord,
  defaultPaymentRecord,
  paymentsList,
  paymentsOf,
  releaseIntent,
} from './invoice-payment-records.js'

/**
 * The invoice's `payments` when it is paid by `pi` (null: out of band): that record paid (made
 * when the invoice had none for it), any other open one canceled with its intent. Answers the
 * list and the records paid now.
 *
 * @example
 * const { list, paid } = settleIntent(ctx, scope, invoice, 'pi_1', origin)
 */
export function settleIntent(
  ctx: BillingContext,
  scope: Scope,
  invoice: Json,
  pi: string | null,
  origin: Origin,
): { list: Record<string, unknown>; paid: Json[] } {
  const id = String(invoice.id)
  const st = ctx.invoiceStates.get(ctx.key(scope, id))
  const now = (st?.timeline ?? ctx.simLine).now()
  const paid: Json[] = []
  const data = paymentsOf(invoice).map((p) => {
    const intent = (p.payment as { payment_intent?: unknown }).payment_intent
    if (p.status !== 'open') return p
    if (intent === pi) {
      const done = ctx.r.invoicePayment().put(scope, String(p.id), {
        amount_paid: invoice.amount_due,
        status: 'paid',
        status_transitions: { canceled_at: null, paid_at: sec(now) },
      })
      paid.push(done)
      return done
    }
    cancelIntent(ctx, scope, intent, origin)
    return cancelRecord(ctx, scope, p, now)
  })
  if (pi !== null && paid.length === 0) {
    const made = defaultPaymentRecord(ctx, scope, invoice, pi, now, true)
    paid.push(made)
    data.push(made)
  }
  releaseIntent(ctx, scope, id)
  return { list: paymentsList(id, data), paid }
}

/**
 * A voided invoice's open payments are canceled, their intents too.
 *
 * @example
 * cancelOpenIntents(ctx, scope, 'in_1', origin)
 */
export function cancelOpenIntents(ctx: BillingContext, scope: Scope, invoiceId: string, origin: Origin): void {
  const invoice = ctx.r.invoice().get(scope, invoiceId)
  const st = ctx.invoiceStates.get(ctx.key(scope, invoiceId))
  if (invoice === undefined || st?.intent === undefined) return
  const now = st.timeline.now()
  const data = paymentsOf(invoice).map((p) => {
    if (p.status !== 'open') return p
    cancelIntent(ctx, scope, (p.payment as { payment_intent?: unknown }).payment_intent, origin)
    return cancelRecord(ctx, scope, p, now)
  })
  releaseIntent(ctx, scope, invoiceId)
  ctx.r.invoice().put(scope, invoiceId, { payments: paymentsList(invoiceId, data) })
}

/**
 * Another payment paid the invoice (`invoices.attachPayment`): the intent it waited on, if any, is
 * canceled and its record too, read from the store as it is now. Answers the records given,
 * refreshed.
 *
 * @example
 * const records = cancelOwnIntent(ctx, scope, 'in_1', attached, origin)
 */
export function cancelOwnIntent(
  ctx: BillingContext,
  scope: Scope,
  invoiceId: string,
  records: readonly Json[],
  origin: Origin,
): Json[] {
  const st = ctx.invoiceStates.get(ctx.key(scope, invoiceId))
  const own = st?.intent
  if (st === undefined || own === undefined) return [...records]
  const now = st.timeline.now()
  for (const p of ctx.r.invoicePayment().list(scope)) {
    const intent = (p.payment as { payment_intent?: unknown } | undefined)?.payment_intent
    if (p.invoice !== invoiceId || p.status !== 'open' || intent !== own) continue
    cancelIntent(ctx, scope, own, origin)
    cancelRecord(ctx, scope, p, now)
  }
  releaseIntent(ctx, scope, invoiceId)
  return records.map((p) => ctx.r.invoicePayment().get(scope, String(p.id)) ?? p)
}
