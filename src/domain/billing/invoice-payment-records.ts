import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { CANCELABLE } from '../payments/payment-intent.js'
import { sec } from './billing-types.js'
import type { BillingContext } from './context.js'

/**
 * What the provider writes on an invoice's payment intent.
 *
 * @example
 * intentDescription({ id: 'in_1', billing_reason: 'manual' }) // 'Invoice'
 */
export function intentDescription(invoice: Json): string {
  return invoice.billing_reason === 'manual' ? 'Invoice' : 'Subscription update'
}

/**
 * The records an invoice's `payments` list shows (a copy).
 *
 * @example
 * paymentsOf(invoice).filter((p) => p.status === 'open')
 */
export function paymentsOf(invoice: Json | undefined): Json[] {
  return ((invoice?.payments as { data?: Json[] } | undefined)?.data ?? []).slice()
}

/**
 * An invoice's `payments` list as the invoice object carries it.
 *
 * @example
 * paymentsList('in_1', []) // { object: 'list', data: [], has_more: false, total_count: 0, url: '/v1/invoice_payments?invoice=in_1' }
 */
export function paymentsList(id: string, data: readonly Json[]): Record<string, unknown> {
  return { object: 'list', data, has_more: false, total_count: data.length, url: `/v1/invoice_payments?invoice=${id}` }
}

/**
 * The invoice's own payment record (`is_default`) for `pi`: `open` while the invoice waits on it, or
 * `paid` at once (a new `inpay_` id of the seeded sequence).
 *
 * @example
 * defaultPaymentRecord(ctx, scope, invoice, 'pi_1', now, false).status // 'open'
 */
export function defaultPaymentRecord(
  ctx: BillingContext,
  scope: Scope,
  invoice: Json,
  pi: string,
  now: number,
  paid: boolean,
): Json {
  const id = ctx.kernel.ids.next('inpay', 24)
  const made = ctx.r.invoicePayment().build(scope, id, {})
  Object.assign(made, {
    created: sec(now),
    amount_paid: paid ? invoice.amount_due : null,
    amount_requested: invoice.amount_due,
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    payment: { type: 'payment_intent', payment_intent: pi },
    status: paid ? 'paid' : 'open',
    status_transitions: { canceled_at: null, paid_at: paid ? sec(now) : null },
  })
  return ctx.r.invoicePayment().insert(scope, made)
}

/**
 * The invoice no longer waits on its intent (paid, voided).
 *
 * @example
 * releaseIntent(ctx, scope, 'in_1') // the invoice's intent no longer names it
 */
export function releaseIntent(ctx: BillingContext, scope: Scope, invoiceId: string): void {
  const st = ctx.invoiceStates.get(ctx.key(scope, invoiceId))
  if (st?.intent === undefined) return
  ctx.intentInvoices.delete(ctx.key(scope, st.intent))
  st.intent = undefined
}

/**
 * Cancels a payment intent an invoice no longer waits on, when it still can be canceled.
 *
 * @example
 * cancelIntent(ctx, scope, 'pi_1', origin) // payment_intent.canceled unless it already succeeded
 */
export function cancelIntent(ctx: BillingContext, scope: Scope, intent: unknown, origin: Origin): void {
  if (typeof intent !== 'string') return
  const p = ctx.options.paymentIntents().get(scope, intent)
  if (p === undefined || !CANCELABLE.has(String(p.status))) return
  ctx.engine.run('paymentIntents.cancel', { scope, origin, path: { id: intent }, params: {} })
}

/**
 * An open payment record canceled at `now`.
 *
 * @example
 * cancelRecord(ctx, scope, record, now).status // 'canceled'
 */
export function cancelRecord(ctx: BillingContext, scope: Scope, p: Json, now: number): Json {
  return ctx.r.invoicePayment().put(scope, String(p.id), {
    status: 'canceled',
    status_transitions: { canceled_at: sec(now), paid_at: null },
  })
}
