import type { Json } from '../engine/list.js'
import { emitSnapshot, NO_ORIGIN, type Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import type { InvoicingParts } from './invoicing.js'

/**
 * An invoice's event, with the invoice as it is now: always the stored invoice (from `require` or
 * `put`), sealed, so the event holds it without a copy.
 *
 * @example
 * emitInvoice(ctx, scope, 'invoice.paid', invoice, origin)
 */
export function emitInvoice(
  ctx: BillingContext,
  scope: Scope,
  type: string,
  invoice: Json,
  origin: Origin,
  previous?: Record<string, unknown>,
): void {
  emitSnapshot(ctx.events, type, scope, invoice, origin, previous, true)
}

/**
 * An invoice is `overdue` once its due date passes unpaid; its subscription turns `past_due`.
 *
 * @example
 * overdue(ctx, scope, 'in_1') // invoice.overdue
 */
export function overdue(ctx: BillingContext, scope: Scope, id: string): void {
  const { r } = ctx
  const invoice = r.invoice().require(scope, id)
  emitInvoice(ctx, scope, 'invoice.overdue', invoice, NO_ORIGIN)
  const subId = ctx.invoiceStates.get(ctx.key(scope, id))?.subscription ?? null
  const sub = subId === null ? undefined : r.subscription().get(scope, subId)
  if (subId !== null && (sub?.status === 'active' || sub?.status === 'trialing'))
    r.subscription().set(scope, subId, { status: 'past_due' }, NO_ORIGIN)
}

/**
 * `open` -> `uncollectible`: no more automatic attempts (it can still be paid or voided).
 *
 * @example
 * markUncollectible(ctx, scope, 'in_1', origin).status // 'uncollectible'
 */
export function markUncollectible(ctx: BillingContext, scope: Scope, id: string, origin: Origin): Json {
  const { r } = ctx
  const st = ctx.invoiceStates.get(ctx.key(scope, id))
  if (st?.job !== undefined) st.timeline.cancel(st.job)
  if (st !== undefined) st.job = undefined
  const invoice = r.invoice().require(scope, id)
  const now = (st?.timeline ?? ctx.simLine).now()
  const updated = r.invoice().put(scope, id, {
    status: 'uncollectible',
    next_payment_attempt: null,
    status_transitions: { ...(invoice.status_transitions as Json), marked_uncollectible_at: sec(now) },
  })
  emitInvoice(ctx, scope, 'invoice.marked_uncollectible', updated, origin)
  return updated
}

/**
 * `invoices.sendInvoice`: `invoice.sent` again for an open invoice.
 *
 * @example
 * resend(ctx, scope, 'in_1', origin) // invoice.sent
 */
export function resend(ctx: BillingContext, scope: Scope, id: string, origin: Origin): Json {
  const invoice = ctx.r.invoice().require(scope, id)
  emitInvoice(ctx, scope, 'invoice.sent', invoice, origin)
  return invoice
}

/**
 * Voids an invoice: its applied credits given back, its open payments and their intents canceled.
 *
 * @example
 * voidInvoice(parts, scope, 'in_1', origin).status // 'void'
 */
export function voidInvoice(parts: InvoicingParts, scope: Scope, id: string, origin: Origin): Json {
  const { ctx } = parts
  const { r } = ctx
  const st = ctx.invoiceStates.get(ctx.key(scope, id))
  if (st?.job !== undefined) st.timeline.cancel(st.job)
  const invoice = r.invoice().require(scope, id)
  const now = (st?.timeline ?? ctx.simLine).now()
  parts.credits.restore(scope, invoice, now, origin)
  parts.intents.cancelOpen(scope, id, origin)
  const updated = r.invoice().put(scope, id, {
    status: 'void',
    amount_remaining: 0,
    next_payment_attempt: null,
    status_transitions: { ...(invoice.status_transitions as Json), voided_at: sec(now) },
  })
  emitInvoice(ctx, scope, 'invoice.voided', updated, origin)
  return updated
}
