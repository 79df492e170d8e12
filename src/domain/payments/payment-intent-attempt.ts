import { errorDocUrl, errorMessage } from '#catalogue/errors.js'
import type { Resource } from '../engine/resource.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { resourceMissing, ServiceError } from '../service-error.js'
import { transferAction } from './bank-debit.js'
import { type PaymentIntent, threeDSecureAction, unexpectedState } from './payment-intent.js'
import { bankDebit } from './payment-intent-debit.js'
import type { AttemptHow, PaymentIntentContext } from './payment-intents.js'
import type { PaymentMethod } from './payment-method.js'

/** Why a card attempt was declined, as the intent's `last_payment_error` and the 402 answer tell it. */
interface Failure {
  readonly code: string
  readonly declineCode: string | null
  readonly message: string
}

/**
 * Runs the attempt of a confirmed intent with its payment method: a bank debit, a wait for a bank
 * transfer, a 3-D Secure stop, or the card charge (declined: 402 `card_error`).
 *
 * @example
 * attemptIntent(ctx, scope, intent, origin, { offSession: false, authenticated: false }).status // 'succeeded'
 */
export function attemptIntent(
  ctx: PaymentIntentContext,
  scope: Scope,
  p: PaymentIntent,
  origin: Origin,
  how: AttemptHow,
): PaymentIntent {
  const r = ctx.resource()
  const pm = ctx.paymentMethods.get(scope, p.payment_method as string)
  if (pm === undefined) throw new Error(`payment intent ${p.id}: payment method vanished`)
  if (pm.type === 'us_bank_account' || pm.type === 'sepa_debit') return bankDebit(ctx, scope, p, pm, origin, how)
  if (pm.type === 'customer_balance') {
    // Paid by bank transfer into the customer's cash balance: it waits for the funds.
    const waiting = r.put(scope, p.id, { next_action: transferAction(p, p.amount as number), status: 'requires_action' })
    ctx.emit('payment_intent.requires_action', scope, waiting, origin)
    return waiting
  }
  if (!how.authenticated && !how.offSession && ctx.paymentMethods.needsAuthentication(scope, pm, { offSession: false })) {
    const brand = (pm.card as { brand?: unknown } | null)?.brand
    const waiting = r.put(scope, p.id, { next_action: threeDSecureAction(p, scope.account, brand), status: 'requires_action' })
    ctx.kernel.trace.append('payment_intent.requires_action', { id: p.id, account: scope.account, mode: scope.mode })
    ctx.emit('payment_intent.requires_action', scope, waiting, origin)
    return waiting
  }
  return chargeCard(ctx, r, scope, p, pm, origin, how)
}

/** The card charge of an intent: authorised only (manual capture) or captured; a decline throws. */
function chargeCard(
  ctx: PaymentIntentContext,
  r: Resource,
  scope: Scope,
  p: PaymentIntent,
  pm: PaymentMethod,
  origin: Origin,
  how: AttemptHow,
): PaymentIntent {
  const manual = p.capture_method === 'manual'
  const result = ctx.charges.attempt(
    scope,
    {
      amount: p.amount as number,
      currency: p.currency as string,
      customer: p.customer as string | null,
      paymentMethod: pm,
      paymentIntent: p.id,
      description: p.description as string | null,
      metadata: p.metadata as Record<string, string>,
      capture: !manual,
      incremental: asksIncrements(p),
      authenticated: how.authenticated,
      offSession: how.offSession,
    },
    origin,
  )
  if (result.status === 'failed') {
    const failure: Failure = {
      code: result.failureCode ?? 'card_declined',
      declineCode: result.declineCode,
      message: result.failureMessage ?? errorMessage('card_declined'),
    }
    decline(ctx, r, scope, p, pm, result.id, failure, origin)
  }
  if (p.setup_future_usage !== null && typeof p.customer === 'string') {
    ctx.paymentMethods.attach(scope, pm.id, p.customer, origin)
  }
  const amount = p.amount as number
  const done = r.put(scope, p.id, {
    latest_charge: result.id,
    last_payment_error: null,
    next_action: null,
    ...(manual ? { amount_capturable: amount, status: 'requires_capture' } : { amount_received: amount, status: 'succeeded' }),
  })
  ctx.emit(manual ? 'payment_intent.amount_capturable_updated' : 'payment_intent.succeeded', scope, done, origin)
  return done
}

/** Records a declined card attempt on the intent (`payment_intent.payment_failed`), then answers 402. */
function decline(
  ctx: PaymentIntentContext,
  r: Resource,
  scope: Scope,
  p: PaymentIntent,
  pm: PaymentMethod,
  chargeId: string,
  failure: Failure,
  origin: Origin,
): never {
  const docUrl = errorDocUrl(failure.code)
  const failed = r.put(scope, p.id, {
    latest_charge: chargeId,
    last_payment_error: {
      charge: chargeId,
      code: failure.code,
      decline_code: failure.declineCode,
      doc_url: docUrl,
      message: failure.message,
      payment_method: pm,
      type: 'card_error',
    },
    payment_method: null,
    status: 'requires_payment_method',
  })
  ctx.emit('payment_intent.payment_failed', scope, failed, origin)
  throw new ServiceError({
    status: 402,
    type: 'card_error',
    code: failure.code,
    message: failure.message,
    extra: {
      charge: chargeId,
      decline_code: failure.declineCode,
      doc_url: docUrl,
      payment_intent: failed,
      payment_method: pm,
    },
  })
}

/**
 * Ends the customer's 3-D Secure step of an intent in `requires_action`: `succeed` runs the card
 * payment, `fail` returns the intent to `requires_payment_method`.
 *
 * @example
 * authenticateIntent(ctx, scope, 'pi_1', 'succeed', origin).status // 'succeeded'
 */
export function authenticateIntent(
  ctx: PaymentIntentContext,
  scope: Scope,
  id: string,
  outcome: 'succeed' | 'fail',
  origin: Origin,
): PaymentIntent {
  const r = ctx.resource()
  const p = r.get(scope, id)
  if (p === undefined) throw resourceMissing('payment_intent', id)
  if (p.status !== 'requires_action') throw unexpectedState(p, 'authenticate', ['requires_action'])
  ctx.kernel.trace.append('payment_intent.authenticated', { id, account: scope.account, mode: scope.mode, outcome })
  const cleared = r.put(scope, id, { next_action: null })
  if (outcome === 'succeed') return attemptIntent(ctx, scope, cleared, origin, { offSession: false, authenticated: true })
  const pm = ctx.paymentMethods.get(scope, p.payment_method as string)
  const failed = r.put(scope, id, {
    last_payment_error: {
      code: 'payment_intent_authentication_failure',
      doc_url: errorDocUrl('payment_intent_authentication_failure'),
      message: errorMessage('payment_intent_authentication_failure'),
      payment_method: pm ?? null,
      type: 'invalid_request_error',
    },
    payment_method: null,
    status: 'requires_payment_method',
  })
  ctx.emit('payment_intent.payment_failed', scope, failed, origin)
  return failed
}

/** Whether a card intent asked that its authorisation may be raised (`request_incremental_authorization`). */
function asksIncrements(p: PaymentIntent): boolean {
  const options = p.payment_method_options as { card?: { request_incremental_authorization?: unknown } } | null
  return options?.card?.request_incremental_authorization === 'if_available'
}
