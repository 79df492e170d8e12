import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { CANCELABLE } from '../payments/payment-intent.js'
import { sec } from './billing-types.js'
import type { BillingContext } from './context.js'

/**
 * The payment intent an open invoice waits on: made when a `charge_automatically` invoice is not
 * paid at once (`default_incomplete`, no payment method, a declined attempt), listed in the
 * invoice's `payments` as an open InvoicePayment, confirmable by the customer with its client
 * secret (the invoice's `confirmation_secret`), and settled when the invoice is paid.
 *
 * @example
 * const intents = createInvoiceIntents(ctx)
 * intents.open(scope, 'in_1', origin) // payment_intent.created; invoice.payments.data[0].status === 'open'
 * intents.invoiceOf(scope, 'pi_1') // 'in_1'
 */
export type InvoiceIntents = ReturnType<typeof createInvoiceIntents>

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
 * Builds an invoice's intent keeping over billing's shared records.
 *
 * @example
 * const intents = createInvoiceIntents(ctx)
 */
export function createInvoiceIntents(ctx: BillingContext) {
  const { kernel, r, invoiceStates, intentInvoices, key, simLine } = ctx

  function record(scope: Scope, invoice: Json, pi: string, now: number, paid: boolean): Json {
    const id = kernel.ids.next('inpay', 24)
    const made = r.invoicePayment().build(scope, id, {})
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
    return r.invoicePayment().insert(scope, made)
  }

  /** Makes `pi` (already made, e.g. declined) the intent the open invoice waits on. */
  function adopt(scope: Scope, invoiceId: string, pi: string): void {
    const st = invoiceStates.get(key(scope, invoiceId))
    if (st === undefined || st.intent !== undefined) return
    st.intent = pi
    intentInvoices.set(key(scope, pi), invoiceId)
    const invoice = r.invoice().require(scope, invoiceId)
    const data = [...paymentsOf(invoice), record(scope, invoice, pi, st.timeline.now(), false)]
    r.invoice().put(scope, invoiceId, { payments: paymentsList(invoiceId, data) })
  }

  /**
   * Makes the invoice's payment intent for what it asks, unconfirmed: the customer confirms it. A
   * subscription's intent asks `setup_future_usage: off_session`, as the provider's do, so the card
   * the customer pays with is attached to them and can pay the renewals without them.
   */
  function open(scope: Scope, invoiceId: string, origin: Origin): void {
    const st = invoiceStates.get(key(scope, invoiceId))
    const invoice = r.invoice().require(scope, invoiceId)
    if (st === undefined || st.intent !== undefined || Number(invoice.amount_due) <= 0) return
    const sub = st.subscription === null ? undefined : r.subscription().get(scope, st.subscription)
    const intent = ctx.options.paymentIntents().create(
      scope,
      {
        amount: Number(invoice.amount_due),
        currency: String(invoice.currency),
        customer: String(invoice.customer),
        description: intentDescription(invoice),
        metadata: {},
        ...(sub === undefined ? {} : { setupFutureUsage: 'off_session' as const }),
      },
      origin,
    )
    adopt(scope, invoiceId, intent.id)
  }

  /**
   * The invoice's `payments` when it is paid by `pi` (null: out of band): that record paid (made
   * when the invoice had none for it), any other open one canceled with its intent. Answers the
   * list and the records paid now.
   */
  function settle(
    scope: Scope,
    invoice: Json,
    pi: string | null,
    origin: Origin,
  ): { list: Record<string, unknown>; paid: Json[] } {
    const id = String(invoice.id)
    const st = invoiceStates.get(key(scope, id))
    const now = (st?.timeline ?? simLine).now()
    const paid: Json[] = []
    const data = paymentsOf(invoice).map((p) => {
      const intent = (p.payment as { payment_intent?: unknown }).payment_intent
      if (p.status !== 'open') return p
      if (intent === pi) {
        const done = r.invoicePayment().put(scope, String(p.id), {
          amount_paid: invoice.amount_due,
          status: 'paid',
          status_transitions: { canceled_at: null, paid_at: sec(now) },
        })
        paid.push(done)
        return done
      }
      cancelIntent(scope, intent, origin)
      return r.invoicePayment().put(scope, String(p.id), {
        status: 'canceled',
        status_transitions: { canceled_at: sec(now), paid_at: null },
      })
    })
    if (pi !== null && paid.length === 0) {
      const made = record(scope, invoice, pi, now, true)
      paid.push(made)
      data.push(made)
    }
    release(scope, id)
    return { list: paymentsList(id, data), paid }
  }

  /** The invoice no longer waits on its intent (paid, voided). */
  function release(scope: Scope, invoiceId: string): void {
    const st = invoiceStates.get(key(scope, invoiceId))
    if (st?.intent === undefined) return
    intentInvoices.delete(key(scope, st.intent))
    st.intent = undefined
  }

  function cancelIntent(scope: Scope, intent: unknown, origin: Origin): void {
    if (typeof intent !== 'string') return
    const p = ctx.options.paymentIntents().get(scope, intent)
    if (p === undefined || !CANCELABLE.has(String(p.status))) return
    ctx.engine.run('paymentIntents.cancel', { scope, origin, path: { id: intent }, params: {} })
  }

  /** A voided invoice's open payments are canceled, their intents too. */
  function cancelOpen(scope: Scope, invoiceId: string, origin: Origin): void {
    const invoice = r.invoice().get(scope, invoiceId)
    const st = invoiceStates.get(key(scope, invoiceId))
    if (invoice === undefined || st?.intent === undefined) return
    const now = st.timeline.now()
    const data = paymentsOf(invoice).map((p) => {
      if (p.status !== 'open') return p
      cancelIntent(scope, (p.payment as { payment_intent?: unknown }).payment_intent, origin)
      return r.invoicePayment().put(scope, String(p.id), {
        status: 'canceled',
        status_transitions: { canceled_at: sec(now), paid_at: null },
      })
    })
    release(scope, invoiceId)
    r.invoice().put(scope, invoiceId, { payments: paymentsList(invoiceId, data) })
  }

  /**
   * Another payment paid the invoice (`invoices.attachPayment`): the intent it waited on, if any, is
   * canceled and its record too, read from the store as it is now. Answers the records given,
   * refreshed.
   */
  function cancelOwn(scope: Scope, invoiceId: string, records: readonly Json[], origin: Origin): Json[] {
    const st = invoiceStates.get(key(scope, invoiceId))
    const own = st?.intent
    if (st === undefined || own === undefined) return [...records]
    const now = st.timeline.now()
    for (const p of r.invoicePayment().list(scope)) {
      const intent = (p.payment as { payment_intent?: unknown } | undefined)?.payment_intent
      if (p.invoice !== invoiceId || p.status !== 'open' || intent !== own) continue
      cancelIntent(scope, own, origin)
      r.invoicePayment().put(scope, String(p.id), {
        status: 'canceled',
        status_transitions: { canceled_at: sec(now), paid_at: null },
      })
    }
    release(scope, invoiceId)
    return records.map((p) => r.invoicePayment().get(scope, String(p.id)) ?? p)
  }

  return {
    open,
    adopt,
    settle,
    cancelOpen,
    cancelOwn,
    /** The open intent of an invoice, if it waits on one. */
    intentOf(scope: Scope, invoiceId: string) {
      return invoiceStates.get(key(scope, invoiceId))?.intent
    },
    /** The open invoice an intent pays, if any. */
    invoiceOf(scope: Scope, pi: string) {
      return intentInvoices.get(key(scope, pi))
    },
  }
}
