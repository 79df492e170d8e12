import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { BillingContext } from './context.js'
import { actionRequired, attemptPayment, recordFailure, setSubStatus } from './invoice-payment-attempt.js'
import { checkPayable } from './invoice-payment-check.js'
import { markPaid } from './invoice-payment-paid.js'
import type { Invoicing } from './invoicing.js'
import type { BillingJobs } from './jobs.js'

/** What paying invoices shares: the billing context, the parts it calls, and the attempts under way. */
export interface PaymentsParts {
  readonly ctx: BillingContext
  readonly jobs: BillingJobs
  readonly invoicing: Invoicing
  /** Invoices billing is attempting now: their intent's outcome is handled by the attempt itself. */
  readonly attempting: Set<string>
}

/**
 * Paying invoices: an off-session payment intent through the same charges and ledger as any
 * payment, `paid` on success, and on a decline `invoice.payment_failed`, the subscription
 * `past_due`, and automatic retries on the invoice's timeline.
 */
export type Payments = ReturnType<typeof createPayments>

/**
 * Paying invoices over billing's parts: the module functions with their parts bound, made once per
 * billing area.
 *
 * @example
 * const payments = createPayments(ctx, jobs, invoicing)
 * payments.finalizeAndPay(scope, 'in_1', origin, true).status // 'paid' when the card pays
 */
export function createPayments(ctx: BillingContext, jobs: BillingJobs, invoicing: Invoicing) {
  const parts: PaymentsParts = { ctx, jobs, invoicing, attempting: new Set<string>() }
  return {
    setSubStatus: setSubStatus.bind(null, ctx),
    markPaid: markPaid.bind(null, parts),
    attemptPayment: attemptPayment.bind(null, parts),
    finalizeAndPay: finalizeAndPay.bind(null, parts),
    checkPayable: checkPayable.bind(null, ctx),
    intentOutcome: intentOutcome.bind(null, parts),
  }
}

function finalizeAndPay(parts: PaymentsParts, scope: Scope, id: string, origin: Origin, pay: boolean): Json {
  // Not charged now (`default_incomplete`): the customer confirms the invoice's own intent.
  const invoice = parts.invoicing.finalize(scope, id, origin, !pay)
  // `send_invoice`: the customer pays it (`invoices.pay`); it is never charged automatically.
  if (!pay || (invoice.collection_method === 'send_invoice' && Number(invoice.amount_due) > 0)) return invoice
  return attemptPayment(parts, scope, id, origin, { automatic: true })
}

/**
 * The invoice's own payment intent succeeded, failed or stopped for 3-D Secure outside an attempt
 * of billing's (the customer confirmed it with its client secret, the server confirmed it,
 * 3-D Secure ended): the invoice is paid, the failure recorded with no automatic retry (the
 * customer is present), or `invoice.payment_action_required` told.
 */
function intentOutcome(
  parts: PaymentsParts,
  outcome: 'succeeded' | 'failed' | 'requires_action',
  scope: Scope,
  p: Json,
  origin: Origin,
): void {
  const { ctx } = parts
  const id = parts.invoicing.intents.invoiceOf(scope, String(p.id))
  if (id === undefined || parts.attempting.has(ctx.key(scope, id))) return
  const invoice = ctx.r.invoice().get(scope, id)
  if (invoice?.status !== 'open' && invoice?.status !== 'uncollectible') return
  if (outcome === 'succeeded') markPaid(parts, scope, id, String(p.id), origin)
  else if (outcome === 'failed') recordFailure(parts, scope, id, origin, null)
  else if ((p.next_action as { type?: unknown } | null)?.type === 'use_stripe_sdk') actionRequired(parts, scope, id, origin)
}
