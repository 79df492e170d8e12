import { INVOICE_FINALIZATION_GRACE_MS } from '#catalogue/rules.js'
import { DAY } from '#kernel/time.js'
import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { type InvoiceState, refOf, sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import { hostedInvoiceUrl } from './hosted-invoice-url.js'
import { refreshDraft } from './invoice-amounts.js'
import { emitInvoice } from './invoice-status.js'
import type { InvoicingParts } from './invoicing.js'

/**
 * Finalizes a draft. With `intent`, an invoice charged automatically that is not paid now gets its
 * payment intent before `invoice.finalized`, as the provider makes it at finalization.
 *
 * @example
 * finalize(parts, scope, 'in_1', origin).status // 'open'
 */
export function finalize(parts: InvoicingParts, scope: Scope, id: string, origin: Origin, intent = false): Json {
  const { ctx } = parts
  const { r } = ctx
  const st = ctx.invoiceStates.get(ctx.key(scope, id))
  let invoice = r.invoice().require(scope, id)
  if (invoice.status !== 'draft') return invoice
  if (st !== undefined) {
    if (st.job !== undefined) st.timeline.cancel(st.job)
    st.job = undefined
    invoice = refreshDraft(parts, scope, invoice, st)
  }
  const now = (st?.timeline ?? ctx.simLine).now()
  // Billing credits first: the customer's balance covers what they leave.
  const credited = parts.credits.apply(scope, invoice, now, origin)
  if (Object.keys(credited).length > 0) invoice = r.invoice().put(scope, id, credited)
  const balance = applyBalance(ctx, scope, invoice, origin)
  invoice = r.invoice().put(scope, id, {
    ...balance,
    status: 'open',
    number: nextNumber(ctx, scope, String(invoice.customer)),
    effective_at: sec(now),
    automatically_finalizes_at: null,
    hosted_invoice_url: hostedInvoiceUrl(scope, id),
    status_transitions: { ...(invoice.status_transitions as Json), finalized_at: sec(now) },
  })
  if (intent && invoice.collection_method === 'charge_automatically' && Number(invoice.amount_due) > 0) {
    parts.intents.open(scope, id, origin)
    invoice = r.invoice().require(scope, id)
  }
  emitInvoice(ctx, scope, 'invoice.finalized', invoice, origin)
  if (invoice.collection_method === 'send_invoice') invoice = send(parts, scope, invoice, st, now, origin)
  return invoice
}

/**
 * Queues a draft's finalization at the end of the grace period, on the invoice's timeline.
 *
 * @example
 * scheduleFinalize(parts, scope, 'in_1') // finalized an hour later
 */
export function scheduleFinalize(parts: InvoicingParts, scope: Scope, id: string): void {
  const st = parts.ctx.invoiceStates.get(parts.ctx.key(scope, id))
  if (st === undefined) return
  st.job = st.timeline.at(st.timeline.now() + INVOICE_FINALIZATION_GRACE_MS, parts.jobs.finalize, refOf(scope, id))
}

/** The customer's next invoice number (their `invoice_prefix` and sequence), the sequence moved on. */
function nextNumber(ctx: BillingContext, scope: Scope, customerId: string): string {
  const customer = ctx.r.customer().get(scope, customerId)
  const prefix = typeof customer?.invoice_prefix === 'string' ? customer.invoice_prefix : 'INV'
  const seq = Number(customer?.next_invoice_sequence ?? 1)
  if (customer !== undefined) ctx.r.customer().put(scope, customerId, { next_invoice_sequence: seq + 1 })
  return `${prefix}-${String(seq).padStart(4, '0')}`
}

/**
 * The customer's balance at finalization, as the provider applies it: a credit (negative) lowers
 * `amount_due`, a negative total (a downgrade's prorations) becomes a credit, and the customer's
 * `balance` becomes the invoice's `ending_balance`. Nothing changes for a customer without a
 * balance and an invoice that is not negative.
 */
function applyBalance(ctx: BillingContext, scope: Scope, invoice: Json, origin: Origin): Record<string, unknown> {
  const customerId = String(invoice.customer)
  const starting = Number(ctx.r.customer().get(scope, customerId)?.balance ?? 0)
  const total = Number(invoice.total)
  if (starting === 0 && total >= 0) return {}
  const sum = total + starting
  const ending = Math.min(0, sum)
  if (ending !== starting) ctx.r.customer().set(scope, customerId, { balance: ending }, origin)
  return {
    starting_balance: starting,
    ending_balance: ending,
    amount_due: Math.max(0, sum),
    amount_remaining: Math.max(0, sum),
  }
}

/**
 * A `send_invoice` invoice at finalization: due `days_until_due` days later (the subscription's,
 * unless the invoice has its own `due_date`), `invoice.sent` (the provider emails it), and
 * `invoice.overdue` queued for the due date.
 */
function send(
  parts: InvoicingParts,
  scope: Scope,
  invoice: Json,
  st: InvoiceState | undefined,
  now: number,
  origin: Origin,
): Json {
  const { ctx } = parts
  let due = typeof invoice.due_date === 'number' ? invoice.due_date * 1000 : null
  if (due === null && st?.subscription != null) {
    const days = Number(ctx.r.subscription().get(scope, st.subscription)?.days_until_due ?? 0)
    due = now + days * DAY
  }
  const sent = due === null ? invoice : ctx.r.invoice().put(scope, String(invoice.id), { due_date: sec(due) })
  emitInvoice(ctx, scope, 'invoice.sent', sent, origin)
  if (st !== undefined && due !== null) st.job = st.timeline.at(due, parts.jobs.overdue, refOf(scope, String(invoice.id)))
  return sent
}
