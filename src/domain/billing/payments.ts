import { errorMessage } from '#catalogue/errors.js'
import { INVOICE_PAYMENT_RETRY_DAYS } from '#catalogue/rules.js'
import { DAY } from '#kernel/time.js'
import type { Json } from '../engine/list.js'
import { emitSnapshot, type Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { CONFIRMABLE } from '../payments/payment-intent.js'
import { invalidRequest, ServiceError, tableError } from '../service-error.js'
import { refOf, sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import { intentDescription, paymentsList } from './invoice-payment-records.js'
import type { Invoicing } from './invoicing.js'
import type { BillingJobs } from './jobs.js'

/**
 * Paying invoices: an off-session payment intent through the same charges and ledger as any
 * payment, `paid` on success, and on a decline `invoice.payment_failed`, the subscription
 * `past_due`, and automatic retries on the invoice's timeline.
 */
export type Payments = ReturnType<typeof createPayments>

export function createPayments(ctx: BillingContext, jobs: BillingJobs, invoicing: Invoicing) {
  const { kernel, r, subs, invoiceStates, key, simLine } = ctx
  /** Invoices billing is attempting now: their intent's outcome is handled by the attempt itself. */
  const attempting = new Set<string>()

  function defaultPaymentMethod(scope: Scope, invoice: Json): string | null {
    const st = invoiceStates.get(key(scope, String(invoice.id)))
    if (st?.subscription) {
      const sub = r.subscription().get(scope, st.subscription)
      if (typeof sub?.default_payment_method === 'string') return sub.default_payment_method
    }
    const customer = r.customer().get(scope, String(invoice.customer))
    const pm = (customer?.invoice_settings as { default_payment_method?: unknown } | undefined)?.default_payment_method
    return typeof pm === 'string' ? pm : null
  }

  function setSubStatus(scope: Scope, subId: string | null, status: string, origin: Origin): void {
    if (subId === null) return
    const sub = r.subscription().get(scope, subId)
    if (sub === undefined || sub.status === status || sub.status === 'canceled') return
    r.subscription().set(scope, subId, { status }, origin)
  }

  /** The `payments` of an invoice paid by records attached by hand, and those paid. */
  const attachedPaid = (invoiceId: string, records: readonly Json[]) => ({
    list: paymentsList(invoiceId, records),
    paid: records.filter((p) => p.status === 'paid'),
  })

  /** Marks the invoice paid by `pi`; `attached` are its payment records when made before (`invoices.attachPayment`). */
  function markPaid(scope: Scope, id: string, pi: string | null, origin: Origin, attached?: readonly Json[]): Json {
    const st = invoiceStates.get(key(scope, id))
    const now = (st?.timeline ?? simLine).now()
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
    kernel.trace.append('invoice.paid', { id, account: scope.account, mode: scope.mode })
    for (const p of paid) emitSnapshot(ctx.events, 'invoice_payment.paid', scope, p, origin, undefined, true)
    invoicing.emitInvoice(scope, 'invoice.paid', invoice, origin)
    invoicing.emitInvoice(scope, 'invoice.payment_succeeded', invoice, origin)
    const sub = st?.subscription ?? null
    if (sub !== null) afterPaid(scope, sub, pi, origin)
    return invoice
  }

  /**
   * A paid invoice's subscription: `past_due` or `incomplete` becomes active (or trialing) again,
   * and with `save_default_payment_method: on_subscription` the card that paid becomes its default,
   * in one update.
   */
  function afterPaid(scope: Scope, subId: string, pi: string | null, origin: Origin): void {
    const current = r.subscription().get(scope, subId)
    if (current === undefined || current.status === 'canceled') return
    const fields: Record<string, unknown> = {}
    if (current.status === 'past_due' || current.status === 'incomplete') {
      const stt = subs.get(key(scope, subId))
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

  /**
   * A failed attempt recorded on the invoice: `invoice.payment_failed`, and an active or trialing
   * subscription `past_due`; `nextAttempt` (ms) when an automatic retry is queued.
   */
  function recordFailure(scope: Scope, id: string, origin: Origin, nextAttempt: number | null): Json {
    const invoice = r.invoice().require(scope, id)
    const updated = r.invoice().put(scope, id, {
      attempt_count: Number(invoice.attempt_count ?? 0) + 1,
      attempted: true,
      next_payment_attempt: nextAttempt === null ? null : sec(nextAttempt),
      last_finalization_error: null,
    })
    kernel.trace.append('invoice.payment_failed', { id, account: scope.account, mode: scope.mode })
    invoicing.emitInvoice(scope, 'invoice.payment_failed', updated, origin)
    const subId = invoiceStates.get(key(scope, id))?.subscription ?? null
    if (subId !== null) {
      const sub = r.subscription().get(scope, subId)
      if (sub?.status === 'active' || sub?.status === 'trialing') setSubStatus(scope, subId, 'past_due', origin)
    }
    return updated
  }

  /**
   * The invoice's own payment intent succeeded, failed or stopped for 3-D Secure outside an attempt
   * of billing's (the customer confirmed it with its client secret, the server confirmed it,
   * 3-D Secure ended): the invoice is paid, the failure recorded with no automatic retry (the
   * customer is present), or `invoice.payment_action_required` told.
   */
  function intentOutcome(outcome: 'succeeded' | 'failed' | 'requires_action', scope: Scope, p: Json, origin: Origin): void {
    const id = invoicing.intents.invoiceOf(scope, String(p.id))
    if (id === undefined || attempting.has(key(scope, id))) return
    const invoice = r.invoice().get(scope, id)
    if (invoice?.status !== 'open' && invoice?.status !== 'uncollectible') return
    if (outcome === 'succeeded') markPaid(scope, id, String(p.id), origin)
    else if (outcome === 'failed') recordFailure(scope, id, origin, null)
    else if ((p.next_action as { type?: unknown } | null)?.type === 'use_stripe_sdk') actionRequired(scope, id, origin)
  }

  /** The provider's word to the app that the customer must authenticate the invoice's payment. */
  function actionRequired(scope: Scope, id: string, origin: Origin): void {
    invoicing.emitInvoice(scope, 'invoice.payment_action_required', r.invoice().require(scope, id), origin)
  }

  /**
   * One payment attempt of an open invoice: an off-session payment intent for `amount_due` with
   * the subscription's or the customer's default payment method (or `paymentMethod`). A decline
   * records the failure (`invoice.payment_failed`, the subscription `past_due`) and, for automatic
   * attempts, queues the next retry; it answers the card error when `raise` is set (`invoices.pay`).
   */
  function attemptPayment(
    scope: Scope,
    id: string,
    origin: Origin,
    how: { automatic: boolean; paymentMethod?: string; raise?: boolean },
  ): Json {
    const invoice = r.invoice().require(scope, id)
    const st = invoiceStates.get(key(scope, id))
    const amount = Number(invoice.amount_due)
    if (amount <= 0) return markPaid(scope, id, null, origin)
    const pm = how.paymentMethod ?? defaultPaymentMethod(scope, invoice)
    let pi: string | null = null
    let error: ServiceError | undefined
    if (pm === null) {
      error = tableError('invoice_no_customer_payment_method')
    } else {
      const open = st?.intent === undefined ? undefined : ctx.options.paymentIntents().get(scope, st.intent)
      const k = key(scope, id)
      attempting.add(k)
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
              amount,
              currency: String(invoice.currency),
              customer: String(invoice.customer),
              paymentMethod: pm,
              confirm: true,
              offSession: true,
              description: intentDescription(invoice),
              metadata: {},
            },
            origin,
          )
          pi = intent.id
        }
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e
        error = e
        const extra = e.extra?.payment_intent as { id?: string } | undefined
        if (typeof extra?.id === 'string') pi = extra.id
      } finally {
        attempting.delete(k)
      }
    }
    if (error === undefined) return markPaid(scope, id, pi, origin)
    // The invoice now waits on an intent the customer can confirm: the declined one, or a new one.
    if (pi !== null) invoicing.intents.adopt(scope, id, pi)
    else invoicing.intents.open(scope, id, origin)
    const attempts = (st?.attempts ?? 0) + 1
    if (st !== undefined) st.attempts = attempts
    const timeline = st?.timeline ?? simLine
    const retryIn = how.automatic ? INVOICE_PAYMENT_RETRY_DAYS[attempts - 1] : undefined
    const nextAttempt = retryIn === undefined ? null : timeline.now() + retryIn * DAY
    const updated = recordFailure(scope, id, origin, nextAttempt)
    // An off-session attempt the issuer wants authenticated: the customer can, on the invoice's intent.
    if (error.code === 'authentication_required') actionRequired(scope, id, origin)
    if (st !== undefined && nextAttempt !== null) {
      st.job = timeline.at(nextAttempt, jobs.retry, refOf(scope, id))
    }
    if (how.raise === true) throw error
    return updated
  }

  function finalizeAndPay(scope: Scope, id: string, origin: Origin, pay: boolean): Json {
    // Not charged now (`default_incomplete`): the customer confirms the invoice's own intent.
    const invoice = invoicing.finalize(scope, id, origin, !pay)
    // `send_invoice`: the customer pays it (`invoices.pay`); it is never charged automatically.
    if (!pay || (invoice.collection_method === 'send_invoice' && Number(invoice.amount_due) > 0)) return invoice
    return attemptPayment(scope, id, origin, { automatic: true })
  }

  /**
   * Refuses, before anything is made, a first payment that would fail (`error_if_incomplete`): no
   * payment method (400), or a card the issuer declines off-session (402 with the decline), as the
   * provider answers when it does not create the subscription.
   */
  function checkPayable(scope: Scope, customerId: string, subPaymentMethod: unknown): void {
    const customer = r.customer().get(scope, customerId)
    const fallback = (customer?.invoice_settings as { default_payment_method?: unknown } | undefined)?.default_payment_method
    const pmId = typeof subPaymentMethod === 'string' && subPaymentMethod !== '' ? subPaymentMethod : fallback
    const pm = typeof pmId === 'string' ? ctx.options.paymentMethods.get(scope, pmId) : undefined
    if (pm === undefined) {
      throw invalidRequest(errorMessage('invoice_no_customer_payment_method', {}), { code: 'invoice_no_customer_payment_method' })
    }
    const outcome = ctx.options.paymentMethods.outcome(scope, pm, { offSession: true, authenticated: false })
    if (outcome.kind !== 'decline') return
    throw new ServiceError({
      status: 402,
      type: 'card_error',
      code: outcome.code,
      message: outcome.message,
      extra: { decline_code: outcome.declineCode, doc_url: `https://docs.stripe.com/error-codes/${outcome.code}` },
    })
  }

  return { setSubStatus, markPaid, attemptPayment, finalizeAndPay, checkPayable, intentOutcome }
}
