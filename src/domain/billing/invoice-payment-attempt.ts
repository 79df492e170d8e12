import { INVOICE_PAYMENT_RETRY_DAYS } from '#catalogue/rules.js'
import { DAY } from '#kernel/time.js'
import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { CONFIRMABLE } from '../payments/payment-intent.js'
import { ServiceError, tableError } from '../service-error.js'
import { type InvoiceState, refOf, sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import { markPaid } from './invoice-payment-paid.js'
import { intentDescription } from './invoice-payment-records.js'
import type { PaymentsParts } from './payments.js'

/** How an invoice is attempted: automatically (retries queued), with a given payment method, answering the card error. */
export interface AttemptHow {
  automatic: boolean
  paymentMethod?: string
  raise?: boolean
}

/** What one charge of an invoice came to: the intent that paid or was declined (if any), and the decline. */
interface Charged {
  readonly pi: string | null
  readonly error: ServiceError | undefined
}

/**
 * One payment attempt of an open invoice: an off-session payment intent for `amount_due` with
 * the subscription's or the customer's default payment method (or `paymentMethod`). A decline
 * records the failure (`invoice.payment_failed`, the subscription `past_due`) and, for automatic
 * attempts, queues the next retry; it answers the card error when `raise` is set (`invoices.pay`).
 *
 * @example
 * attemptPayment(parts, scope, 'in_1', origin, { automatic: true }).status // 'paid', or 'open' after a decline
 */
export function attemptPayment(parts: PaymentsParts, scope: Scope, id: string, origin: Origin, how: AttemptHow): Json {
  const { ctx } = parts
  const invoice = ctx.r.invoice().require(scope, id)
  const st = ctx.invoiceStates.get(ctx.key(scope, id))
  const amount = Number(invoice.amount_due)
  if (amount <= 0) return markPaid(parts, scope, id, null, origin)
  const pm = how.paymentMethod ?? defaultPaymentMethod(ctx, scope, invoice)
  const charged: Charged =
    pm === null
      ? { pi: null, error: tableError('invoice_no_customer_payment_method') }
      : charge(parts, scope, invoice, st, pm, origin)
  if (charged.error === undefined) return markPaid(parts, scope, id, charged.pi, origin)
  return declined(parts, scope, id, st, charged.pi, charged.error, origin, how)
}

function defaultPaymentMethod(ctx: BillingContext, scope: Scope, invoice: Json): string | null {
  const { r } = ctx
  const st = ctx.invoiceStates.get(ctx.key(scope, String(invoice.id)))
  if (st?.subscription) {
    const sub = r.subscription().get(scope, st.subscription)
    if (typeof sub?.default_payment_method === 'string') return sub.default_payment_method
  }
  const customer = r.customer().get(scope, String(invoice.customer))
  const pm = (customer?.invoice_settings as { default_payment_method?: unknown } | undefined)?.default_payment_method
  return typeof pm === 'string' ? pm : null
}

/**
 * Charges the invoice off-session with `pm`: its own intent confirmed again while it can be, else a
 * new intent confirmed for `amount_due`. Its outcome is this attempt's to handle (`attempting`).
 */
function charge(
  parts: PaymentsParts,
  scope: Scope,
  invoice: Json,
  st: InvoiceState | undefined,
  pm: string,
  origin: Origin,
): Charged {
  const { ctx } = parts
  let pi: string | null = null
  const open = st?.intent === undefined ? undefined : ctx.options.paymentIntents().get(scope, st.intent)
  const k = ctx.key(scope, String(invoice.id))
  parts.attempting.add(k)
  try {
    if (open !== undefined && CONFIRMABLE.has(String(open.status))) {
      // The invoice's own intent is confirmed again, as the provider retries it.
      pi = String(open.id)
      ctx.engine.run('paymentIntents.confirm', {
        scope,
        origin,
        path: { id: pi },
        params: { payment_method: pm, off_session: true },
      })
    } else {
      const intent = ctx.options.paymentIntents().create(
        scope,
        {
          amount: Number(invoice.amount_due),
          currency: String(invoice.currency),
          customer: String(invoice.customer),
          payment_method: pm,
          confirm: true,
          off_session: true,
          description: intentDescription(invoice),
          metadata: {},
        },
        origin,
      )
      pi = intent.id
    }
    return { pi, error: undefined }
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e
    const extra = e.extra?.payment_intent as { id?: string } | undefined
    return { pi: typeof extra?.id === 'string' ? extra.id : pi, error: e }
  } finally {
    parts.attempting.delete(k)
  }
}

/** A declined attempt: the invoice waits on an intent, the failure is recorded, the next retry queued. */
function declined(
  parts: PaymentsParts,
  scope: Scope,
  id: string,
  st: InvoiceState | undefined,
  pi: string | null,
  error: ServiceError,
  origin: Origin,
  how: AttemptHow,
): Json {
  // The invoice now waits on an intent the customer can confirm: the declined one, or a new one.
  if (pi !== null) parts.invoicing.intents.adopt(scope, id, pi)
  else parts.invoicing.intents.open(scope, id, origin)
  const attempts = (st?.attempts ?? 0) + 1
  if (st !== undefined) st.attempts = attempts
  const timeline = st?.timeline ?? parts.ctx.simLine
  const retryIn = how.automatic ? INVOICE_PAYMENT_RETRY_DAYS[attempts - 1] : undefined
  const nextAttempt = retryIn === undefined ? null : timeline.now() + retryIn * DAY
  const updated = recordFailure(parts, scope, id, origin, nextAttempt)
  // An off-session attempt the issuer wants authenticated: the customer can, on the invoice's intent.
  if (error.code === 'authentication_required') actionRequired(parts, scope, id, origin)
  if (st !== undefined && nextAttempt !== null) {
    st.job = timeline.at(nextAttempt, parts.jobs.retry, refOf(scope, id))
  }
  if (how.raise === true) throw error
  return updated
}

/**
 * A subscription's status set, unless it has it already or is canceled.
 *
 * @example
 * setSubStatus(ctx, scope, 'sub_1', 'past_due', origin)
 */
export function setSubStatus(ctx: BillingContext, scope: Scope, subId: string | null, status: string, origin: Origin): void {
  if (subId === null) return
  const sub = ctx.r.subscription().get(scope, subId)
  if (sub === undefined || sub.status === status || sub.status === 'canceled') return
  ctx.r.subscription().set(scope, subId, { status }, origin)
}

/**
 * A failed attempt recorded on the invoice: `invoice.payment_failed`, and an active or trialing
 * subscription `past_due`; `nextAttempt` (ms) when an automatic retry is queued.
 *
 * @example
 * recordFailure(parts, scope, 'in_1', origin, null).attempted // true
 */
export function recordFailure(parts: PaymentsParts, scope: Scope, id: string, origin: Origin, nextAttempt: number | null): Json {
  const { ctx } = parts
  const { r } = ctx
  const invoice = r.invoice().require(scope, id)
  const updated = r.invoice().put(scope, id, {
    attempt_count: Number(invoice.attempt_count ?? 0) + 1,
    attempted: true,
    next_payment_attempt: nextAttempt === null ? null : sec(nextAttempt),
    last_finalization_error: null,
  })
  ctx.kernel.trace.append('invoice.payment_failed', { id, account: scope.account, mode: scope.mode })
  parts.invoicing.emitInvoice(scope, 'invoice.payment_failed', updated, origin)
  const subId = ctx.invoiceStates.get(ctx.key(scope, id))?.subscription ?? null
  if (subId !== null) {
    const sub = r.subscription().get(scope, subId)
    if (sub?.status === 'active' || sub?.status === 'trialing') setSubStatus(ctx, scope, subId, 'past_due', origin)
  }
  return updated
}

/**
 * The provider's word to the app that the customer must authenticate the invoice's payment.
 *
 * @example
 * actionRequired(parts, scope, 'in_1', origin) // invoice.payment_action_required
 */
export function actionRequired(parts: PaymentsParts, scope: Scope, id: string, origin: Origin): void {
  parts.invoicing.emitInvoice(scope, 'invoice.payment_action_required', parts.ctx.r.invoice().require(scope, id), origin)
}
