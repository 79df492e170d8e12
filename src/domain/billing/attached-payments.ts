import type { Json } from '../engine/list.js'
import { emitSnapshot, NO_ORIGIN, type Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import { paymentsList } from './invoice-payment-records.js'
import type { Payments } from './payments.js'

/** What attached payments share: the billing context and the payments that mark an invoice paid. */
interface AttachedParts {
  readonly ctx: BillingContext
  readonly payments: Payments
}

/**
 * Payments attached to an invoice by hand (`invoices.attachPayment`): each is an `open`
 * `InvoicePayment` record until its payment intent succeeds (now or later, however it succeeds),
 * then `paid` (`invoice_payment.paid`) and counted in the invoice's `amount_paid`; the invoice is
 * paid once they cover what it asks.
 *
 * @example
 * const attached = createAttachedPayments(ctx, payments)
 * attached.attach(scope, 'in_1', intent, origin).payments.data[0].status // 'open' until the intent succeeds
 */
export type AttachedPayments = ReturnType<typeof createAttachedPayments>

/**
 * Attached payments over billing's parts: the module functions with their parts bound, made once
 * per billing area.
 *
 * @example
 * createAttachedPayments(ctx, payments).intentSucceeded(scope, 'pi_1') // settles the records waiting on it
 */
export function createAttachedPayments(ctx: BillingContext, payments: Payments) {
  const parts: AttachedParts = { ctx, payments }
  return {
    attach: attach.bind(null, parts),
    /**
     * Hears a `payment_intent.succeeded` (which billing filters for): however an attached intent
     * succeeds later (a confirm, a capture, a bank debit settling), its invoice hears of it.
     */
    intentSucceeded: intentSucceeded.bind(null, parts),
  }
}

function nowOf(ctx: BillingContext, scope: Scope, invoice: string): number {
  return (ctx.invoiceStates.get(ctx.key(scope, invoice))?.timeline ?? ctx.simLine).now()
}

function recordsOf(ctx: BillingContext, scope: Scope, invoice: string): Json[] {
  return ctx.r
    .invoicePayment()
    .list(scope)
    .filter((p) => p.invoice === invoice)
}

/** The intent succeeded: its record is paid, and the invoice too once its records cover it. */
function settle(parts: AttachedParts, scope: Scope, record: Json, intent: Json, origin: Origin): void {
  const { ctx } = parts
  const { r } = ctx
  const invoiceId = String(record.invoice)
  const invoice = r.invoice().get(scope, invoiceId)
  if (invoice?.status !== 'open') return
  const paid = r.invoicePayment().put(scope, record.id, {
    amount_paid: Number(intent.amount_received ?? intent.amount),
    status: 'paid',
    status_transitions: { canceled_at: null, paid_at: sec(nowOf(ctx, scope, invoiceId)) },
  })
  const records = recordsOf(ctx, scope, invoiceId)
  const total = records.reduce((sum, p) => sum + (p.status === 'paid' ? Number(p.amount_paid) : 0), 0)
  if (total >= Number(invoice.amount_due)) {
    parts.payments.markPaid(scope, invoiceId, String(intent.id), origin, records)
    return
  }
  r.invoice().set(
    scope,
    invoiceId,
    {
      amount_paid: total,
      amount_remaining: Number(invoice.amount_due) - total,
      payments: paymentsList(invoiceId, records),
    },
    origin,
  )
  emitSnapshot(ctx.events, 'invoice_payment.paid', scope, paid, origin, undefined, true)
}

/** Records `intent` as a payment of the open invoice; settles it at once if it already succeeded. */
function attach(parts: AttachedParts, scope: Scope, invoiceId: string, intent: Json, origin: Origin): Json {
  const { ctx } = parts
  const { r } = ctx
  const invoice = r.invoice().require(scope, invoiceId)
  const record = r.invoicePayment().build(scope, ctx.kernel.ids.next('inpay', 24), {})
  Object.assign(record, {
    created: sec(nowOf(ctx, scope, invoiceId)),
    amount_paid: null,
    amount_requested: Number(invoice.amount_remaining ?? invoice.amount_due),
    currency: invoice.currency,
    invoice: invoiceId,
    is_default: false,
    payment: { type: 'payment_intent', payment_intent: intent.id },
    status: 'open',
    status_transitions: { canceled_at: null, paid_at: null },
  })
  const stored = r.invoicePayment().insert(scope, record)
  r.invoice().set(scope, invoiceId, { payments: paymentsList(invoiceId, recordsOf(ctx, scope, invoiceId)) }, origin)
  if (intent.status === 'succeeded') settle(parts, scope, stored, intent, origin)
  return r.invoice().require(scope, invoiceId)
}

function intentSucceeded(parts: AttachedParts, scope: Scope, intentId: string): void {
  const { ctx } = parts
  const waiting = ctx.r
    .invoicePayment()
    .list(scope)
    .filter(
      (p) =>
        // Attached by hand only: the invoice's own intent (`is_default`) is settled by billing's payments.
        p.status === 'open' && p.is_default === false && (p.payment as Json | undefined)?.payment_intent === intentId,
    )
  if (waiting.length === 0) return
  const intent = ctx.engine.resource('payment_intent').get(scope, intentId)
  if (intent === undefined) return
  for (const record of waiting) settle(parts, scope, record, intent, NO_ORIGIN)
}
