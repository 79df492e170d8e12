import type { Json } from '../engine/list.js'
import { emitSnapshot, type Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import { paymentsList } from './invoice-payment-records.js'
import type { PaymentsParts } from './payments.js'

/** The `payments` of an invoice paid by records attached by hand, and those paid. */
function attachedPaid(invoiceId: string, records: readonly Json[]) {
  return { list: paymentsList(invoiceId, records), paid: records.filter((p) => p.status === 'paid') }
}

/**
 * Marks the invoice paid by `pi`; `attached` are its payment records when made before (`invoices.attachPayment`).
 *
 * @example
 * markPaid(parts, scope, 'in_1', 'pi_1', origin).status // 'paid'
 */
export function markPaid(
  parts: PaymentsParts,
  scope: Scope,
  id: string,
  pi: string | null,
  origin: Origin,
  attached?: readonly Json[],
): Json {
  const { ctx, invoicing } = parts
  const { r } = ctx
  const st = ctx.invoiceStates.get(ctx.key(scope, id))
  const now = (st?.timeline ?? ctx.simLine).now()
  let invoice = r.invoice().require(scope, id)
  if (st?.job !== undefined) st.timeline.cancel(st.job)
  const { list, paid } =
    attached === undefined
      ? invoicing.intents.settle(scope, invoice, pi, origin)
      : attachedPaid(id, invoicing.intents.cancelOwn(scope, id, attached, origin))
  invoice = r.invoice().put(scope, id, {
    status: 'paid',
    attempt_count: Number(invoice.attempt_count ?? 0) + (pi === null ? 0 : 1),
    amount_paid: invoice.amount_due,
    amount_remaining: 0,
    attempted: true,
    next_payment_attempt: null,
    ending_balance: invoice.ending_balance ?? 0,
    payments: list,
    status_transitions: { ...(invoice.status_transitions as Json), paid_at: sec(now) },
  })
  ctx.kernel.trace.append('invoice.paid', { id, account: scope.account, mode: scope.mode })
  for (const p of paid) emitSnapshot(ctx.events, 'invoice_payment.paid', scope, p, origin, undefined, true)
  invoicing.emitInvoice(scope, 'invoice.paid', invoice, origin)
  invoicing.emitInvoice(scope, 'invoice.payment_succeeded', invoice, origin)
  const sub = st?.subscription ?? null
  if (sub !== null) afterPaid(ctx, scope, sub, pi, origin)
  return invoice
}

/**
 * A paid invoice's subscription: `past_due` or `incomplete` becomes active (or trialing) again,
 * and with `save_default_payment_method: on_subscription` the card that paid becomes its default,
 * in one update.
 */
function afterPaid(ctx: BillingContext, scope: Scope, subId: string, pi: string | null, origin: Origin): void {
  const { r } = ctx
  const current = r.subscription().get(scope, subId)
  if (current === undefined || current.status === 'canceled') return
  const fields: Record<string, unknown> = {}
  if (current.status === 'past_due' || current.status === 'incomplete') {
    const stt = ctx.subs.get(ctx.key(scope, subId))
    if (stt?.expiry !== undefined) stt.timeline.cancel(stt.expiry)
    if (stt !== undefined) stt.expiry = undefined
    fields.status = stt?.trialEnd !== null && stt !== undefined && stt.timeline.now() < stt.trialEnd ? 'trialing' : 'active'
  }
  const settings = current.payment_settings as { save_default_payment_method?: unknown } | null | undefined
  const used = pi === null ? undefined : ctx.options.paymentIntents().get(scope, pi)?.payment_method
  if (settings?.save_default_payment_method === 'on_subscription' && typeof used === 'string') {
    if (current.default_payment_method !== used) fields.default_payment_method = used
  }
  if (Object.keys(fields).length > 0) r.subscription().set(scope, subId, fields, origin)
}
