import { errorMessage } from '#catalogue/errors.js'
import { INVOICE_PAYMENT_RETRY_DAYS } from '#catalogue/rules.js'
import { DAY } from '#kernel/time.js'
import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'
import { invalidRequest, ServiceError, tableError } from '../service-error.js'
import { emitSnapshot, type Origin } from '../v1-events/emit.js'
import type { BillingContext } from './context.js'
import type { Invoicing } from './invoicing.js'
import type { BillingJobs } from './jobs.js'
import { refOf, sec } from './types.js'

/**
 * Paying invoices: an off-session payment intent through the same charges and ledger as any
 * payment, `paid` on success, and on a decline `invoice.payment_failed`, the subscription
 * `past_due`, and automatic retries on the invoice's timeline.
 */
export type Payments = ReturnType<typeof createPayments>

export function createPayments(ctx: BillingContext, jobs: BillingJobs, invoicing: Invoicing) {
  const { kernel, r, subs, invoiceStates, key, simLine } = ctx

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

  /**
   * The record of the payment intent that paid an invoice (`invoicePayments`): stored without an
   * event of its own making, as the provider announces it only when paid (`invoice_payment.paid`).
   */
  function invoicePayment(scope: Scope, invoice: Json, pi: string, now: number): Json {
    const id = kernel.ids.next('inpay', 24)
    const record = r.invoicePayment().build(scope, id, {})
    Object.assign(record, {
      created: sec(now),
      amount_paid: invoice.amount_due,
      amount_requested: invoice.amount_due,
      currency: invoice.currency,
      invoice: invoice.id,
      is_default: true,
      payment: { type: 'payment_intent', payment_intent: pi },
      status: 'paid',
      status_transitions: { canceled_at: null, paid_at: sec(now) },
    })
    return r.invoicePayment().insert(scope, record)
  }

  /** Marks the invoice paid by `pi`; `attached` are its payment records when made before (`invoices.attachPayment`). */
  function markPaid(scope: Scope, id: string, pi: string | null, origin: Origin, attached?: readonly Json[]): Json {
    const st = invoiceStates.get(key(scope, id))
    const now = (st?.timeline ?? simLine).now()
    let invoice = r.invoice().require(scope, id)
    if (st?.job !== undefined) st.timeline.cancel(st.job)
    const payments = attached ?? (pi === null ? [] : [invoicePayment(scope, invoice, pi, now)])
    invoice = r.invoice().put(scope, id, {
      status: 'paid',
      attempt_count: Number(invoice.attempt_count ?? 0) + (pi === null ? 0 : 1),
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      attempted: true,
      next_payment_attempt: null,
      ending_balance: invoice.ending_balance ?? 0,
      payments: {
        object: 'list',
        data: payments,
        has_more: false,
        total_count: payments.length,
        url: `/v1/invoice_payments?invoice=${id}`,
      },
      status_transitions: { ...(invoice.status_transitions as Json), paid_at: sec(now) },
    })
    kernel.trace.append('invoice.paid', { id, account: scope.account, mode: scope.mode })
    for (const p of payments) {
      if (p.status === 'paid') emitSnapshot(ctx.events, 'invoice_payment.paid', scope, p, origin, undefined, true)
    }
    invoicing.emitInvoice(scope, 'invoice.paid', invoice, origin)
    invoicing.emitInvoice(scope, 'invoice.payment_succeeded', invoice, origin)
    const sub = st?.subscription ?? null
    if (sub !== null) {
      const current = r.subscription().get(scope, sub)
      if (current?.status === 'past_due' || current?.status === 'incomplete') {
        const stt = subs.get(key(scope, sub))
        if (stt?.expiry !== undefined) stt.timeline.cancel(stt.expiry)
        if (stt !== undefined) stt.expiry = undefined
        setSubStatus(
          scope,
          sub,
          stt?.trialEnd !== null && stt !== undefined && stt.timeline.now() < stt.trialEnd ? 'trialing' : 'active',
          origin,
        )
      }
    }
    return invoice
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
      try {
        const intent = ctx.options.paymentIntents().create(
          scope,
          {
            amount,
            currency: String(invoice.currency),
            customer: String(invoice.customer),
            paymentMethod: pm,
            confirm: true,
            offSession: true,
            description: invoice.billing_reason === 'manual' ? 'Invoice' : 'Subscription update',
            metadata: {},
          },
          origin,
        )
        pi = intent.id
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e
        error = e
        const extra = e.extra?.payment_intent as { id?: string } | undefined
        if (typeof extra?.id === 'string') pi = extra.id
      }
    }
    if (error === undefined) return markPaid(scope, id, pi, origin)
    const attempts = (st?.attempts ?? 0) + 1
    if (st !== undefined) st.attempts = attempts
    const timeline = st?.timeline ?? simLine
    const retryIn = how.automatic ? INVOICE_PAYMENT_RETRY_DAYS[attempts - 1] : undefined
    const nextAttempt = retryIn === undefined ? null : timeline.now() + retryIn * DAY
    const updated = r.invoice().put(scope, id, {
      attempt_count: Number(invoice.attempt_count ?? 0) + 1,
      attempted: true,
      next_payment_attempt: nextAttempt === null ? null : sec(nextAttempt),
      last_finalization_error: null,
    })
    kernel.trace.append('invoice.payment_failed', { id, account: scope.account, mode: scope.mode })
    invoicing.emitInvoice(scope, 'invoice.payment_failed', updated, origin)
    const subId = st?.subscription ?? null
    if (subId !== null) {
      const sub = r.subscription().get(scope, subId)
      if (sub?.status === 'active' || sub?.status === 'trialing') setSubStatus(scope, subId, 'past_due', origin)
    }
    if (st !== undefined && nextAttempt !== null) {
      st.job = timeline.at(nextAttempt, jobs.retry, refOf(scope, id))
    }
    if (how.raise === true) throw error
    return updated
  }

  function finalizeAndPay(scope: Scope, id: string, origin: Origin, pay: boolean): Json {
    const invoice = invoicing.finalize(scope, id, origin)
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

  return { setSubStatus, markPaid, attemptPayment, finalizeAndPay, checkPayable }
}
