import { NO_ORIGIN, type Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { tableError } from '../service-error.js'
import { bankDebitOutcome, bankDetails, debitDelay, debitFee, microdepositAction, microdepositsMatch } from './bank-debit.js'
import type { AttemptResult } from './charges.js'
import { createMandate, mandateOf } from './mandates.js'
import type { PaymentIntent } from './payment-intent.js'
import type { AttemptHow, PaymentIntentContext } from './payment-intents.js'
import type { PaymentMethod } from './payment-method.js'

/**
 * A bank debit of an intent: with an active mandate it starts at once; a SEPA debit's mandate is
 * active from the confirmation; else a pending mandate is made and the intent waits for
 * microdeposits (`requires_action`).
 *
 * @example
 * bankDebit(ctx, scope, intent, usBankAccount, origin, { offSession: false, authenticated: false })
 */
export function bankDebit(
  ctx: PaymentIntentContext,
  scope: Scope,
  p: PaymentIntent,
  pm: PaymentMethod,
  origin: Origin,
  how: AttemptHow,
): PaymentIntent {
  const engine = ctx.engine
  if (mandateOf(engine(), scope, pm.id)?.status === 'active') return startDebit(ctx, scope, p, origin)
  // A SEPA mandate needs no verification: accepted with the confirmation, it is active at once.
  if (pm.type === 'sepa_debit') {
    createMandate(engine(), scope, pm, how.mandateData, 'active')
    return startDebit(ctx, scope, p, origin)
  }
  createMandate(engine(), scope, pm, how.mandateData, 'pending')
  const waiting = ctx
    .resource()
    .put(scope, p.id, { next_action: microdepositAction(p, engine().now()), status: 'requires_action' })
  ctx.emit('payment_intent.requires_action', scope, waiting, origin)
  return waiting
}

/**
 * Starts the debit of a verified bank account: `processing` until it completes
 * ({@link completeDebit}), later at this instant, or when the clock passes the delay of the
 * provider's "delayed" test IBANs.
 *
 * @example
 * startDebit(ctx, scope, intent, origin).status // 'processing'
 */
export function startDebit(ctx: PaymentIntentContext, scope: Scope, p: PaymentIntent, origin: Origin): PaymentIntent {
  const processing = ctx.resource().put(scope, p.id, { next_action: null, last_payment_error: null, status: 'processing' })
  ctx.emit('payment_intent.processing', scope, processing, origin)
  const pm = ctx.paymentMethods.get(scope, p.payment_method as string)
  const delay = pm === undefined ? 0 : debitDelay(pm)
  ctx.settling.at(ctx.kernel.clock.now + delay, { account: scope.account, mode: scope.mode, id: p.id })
  return processing
}

/**
 * Completes the debit of a `processing` intent: its charge succeeds (the intent `succeeded`) or
 * the bank returns it (the intent back to `requires_payment_method`).
 *
 * @example
 * completeDebit(ctx, { account, mode }, 'pi_1') // run by the scheduled settling task
 */
export function completeDebit(ctx: PaymentIntentContext, scope: Scope, id: string): void {
  const p = ctx.resource().get(scope, id)
  const pm = p === undefined ? undefined : ctx.paymentMethods.get(scope, p.payment_method as string)
  if (p === undefined || pm === undefined || p.status !== 'processing') return
  const outcome = bankDebitOutcome(pm)
  const result = debitCharge(ctx, scope, p, pm, outcome)
  if (outcome.kind === 'decline') {
    // The bank returned the debit: the customer must give another payment method.
    const failed = ctx.resource().put(scope, p.id, {
      last_payment_error: {
        code: outcome.code,
        message: outcome.message,
        payment_method: pm,
        type: 'invalid_request_error',
      },
      latest_charge: result.id,
      payment_method: null,
      status: 'requires_payment_method',
    })
    ctx.emit('payment_intent.payment_failed', scope, failed, NO_ORIGIN)
    return
  }
  const done = ctx.resource().put(scope, p.id, { amount_received: p.amount, latest_charge: result.id, status: 'succeeded' })
  ctx.emit('payment_intent.succeeded', scope, done, NO_ORIGIN)
}

/** The charge of a completing bank debit, captured at once with the ACH fee. */
function debitCharge(
  ctx: PaymentIntentContext,
  scope: Scope,
  p: PaymentIntent,
  pm: PaymentMethod,
  outcome: ReturnType<typeof bankDebitOutcome>,
): AttemptResult {
  const amount = p.amount as number
  return ctx.charges.attempt(
    scope,
    {
      amount,
      currency: p.currency as string,
      customer: p.customer as string | null,
      paymentMethod: pm,
      paymentIntent: p.id,
      description: p.description as string | null,
      metadata: p.metadata as Record<string, string>,
      capture: true,
      details: bankDetails(pm, mandateOf(ctx.engine(), scope, pm.id)?.id ?? null),
      fee: debitFee(pm, amount),
      outcome,
    },
    NO_ORIGIN,
  )
}

/**
 * Verifies the microdeposits of an intent waiting for them: wrong values are refused with the
 * provider's codes; right ones activate its mandate and start the debit.
 *
 * @example
 * verifyDeposits(ctx, scope, waitingIntent, { amounts: [32, 45] }, origin).status // 'processing'
 */
export function verifyDeposits(
  ctx: PaymentIntentContext,
  scope: Scope,
  p: PaymentIntent,
  params: Readonly<Record<string, unknown>>,
  origin: Origin,
): PaymentIntent {
  const match = microdepositsMatch(params)
  if (match === undefined) throw tableError('microdeposit_amounts_invalid', {}, { param: 'amounts' })
  if (!match) {
    const byCode = typeof params.descriptor_code === 'string'
    throw tableError(
      byCode ? 'microdeposit_descriptor_mismatch' : 'microdeposit_amounts_mismatch',
      {},
      {
        param: byCode ? 'descriptor_code' : 'amounts',
      },
    )
  }
  const mandate = mandateOf(ctx.engine(), scope, p.payment_method as string)
  if (mandate !== undefined) ctx.engine().resource('mandate').set(scope, mandate.id, { status: 'active' }, origin)
  return startDebit(ctx, scope, p, origin)
}
