import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { BillingContext } from './context.js'
import { cancelOpenIntents, cancelOwnIntent, settleIntent } from './invoice-intent-closing.js'
import { defaultPaymentRecord, intentDescription, paymentsList, paymentsOf } from './invoice-payment-records.js'

/** The invoice's `payments` list, where the invoice resources read it. */

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
 * Builds an invoice's intent keeping over billing's shared records: the module's functions with
 * the context bound, made once per billing area.
 *
 * @example
 * const intents = createInvoiceIntents(ctx)
 */
export function createInvoiceIntents(ctx: BillingContext) {
  return {
    open: openIntent.bind(null, ctx),
    adopt: adoptIntent.bind(null, ctx),
    settle: settleIntent.bind(null, ctx),
    cancelOpen: cancelOpenIntents.bind(null, ctx),
    cancelOwn: cancelOwnIntent.bind(null, ctx),
    /** The open intent of an invoice, if it waits on one. */
    intentOf: intentOf.bind(null, ctx),
    /** The open invoice an intent pays, if any. */
    invoiceOf: invoiceOf.bind(null, ctx),
  }
}

function intentOf(ctx: BillingContext, scope: Scope, invoiceId: string): string | undefined {
  return ctx.invoiceStates.get(ctx.key(scope, invoiceId))?.intent
}

function invoiceOf(ctx: BillingContext, scope: Scope, pi: string): string | undefined {
  return ctx.intentInvoices.get(ctx.key(scope, pi))
}

/** Makes `pi` (already made, e.g. declined) the intent the open invoice waits on. */
function adoptIntent(ctx: BillingContext, scope: Scope, invoiceId: string, pi: string): void {
  const st = ctx.invoiceStates.get(ctx.key(scope, invoiceId))
  if (st === undefined || st.intent !== undefined) return
  st.intent = pi
  ctx.intentInvoices.set(ctx.key(scope, pi), invoiceId)
  const invoice = ctx.r.invoice().require(scope, invoiceId)
  const data = [...paymentsOf(invoice), defaultPaymentRecord(ctx, scope, invoice, pi, st.timeline.now(), false)]
  ctx.r.invoice().put(scope, invoiceId, { payments: paymentsList(invoiceId, data) })
}

/**
 * Makes the invoice's payment intent for what it asks, unconfirmed: the customer confirms it. A
 * subscription's intent asks `setup_future_usage: off_session`, as the provider's do, so the card
 * the customer pays with is attached to them and can pay the renewals without them.
 */
function openIntent(ctx: BillingContext, scope: Scope, invoiceId: string, origin: Origin): void {
  const { r } = ctx
  const st = ctx.invoiceStates.get(ctx.key(scope, invoiceId))
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
      ...(sub === undefined ? {} : { setup_future_usage: 'off_session' as const }),
    },
    origin,
  )
  adoptIntent(ctx, scope, invoiceId, intent.id)
}
