import { errorDocUrl, errorMessage } from '#catalogue/errors.js'
import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import { emitSnapshot, NO_ORIGIN, type Origin } from '../events/emit-snapshot.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel-parts.js'
import type { Scope } from '../mode.js'
import { resourceMissing, ServiceError, tableError } from '../service-error.js'
import { achFee, bankDebitOutcome, bankDetails, microdepositAction, microdepositsMatch, transferAction } from './bank-debit.js'
import { wasAuthenticated } from './charge.js'
import type { Charges } from './charges.js'
import { createMandate, mandateOf } from './mandates.js'
import { type PaymentIntent, threeDSecureAction, unexpectedState } from './payment-intent.js'
import type { PaymentMethod } from './payment-method.js'
import type { PaymentMethods } from './payment-methods.js'

/** A payment intent to create, in the domain's words (the billing area pays invoices with these). */
export interface PaymentIntentCreate {
  amount: number
  currency: string
  customer?: string
  paymentMethod?: string
  confirm?: boolean
  /** The customer is not present: a card that asks for authentication declines instead of `requires_action`. */
  offSession?: boolean
  captureMethod?: 'automatic' | 'automatic_async' | 'manual'
  description?: string
  metadata?: Record<string, string>
  receiptEmail?: string
  setupFutureUsage?: 'on_session' | 'off_session'
  statementDescriptor?: string
}

/** How a card attempt runs: is the customer away, and did they complete 3-D Secure. */
export interface AttemptHow {
  readonly offSession: boolean
  readonly authenticated: boolean
  /** The request's `mandate_data` (a bank debit's mandate records its acceptance). */
  readonly mandateData?: unknown
}

/**
 * The payment intent flow over the engine's `payment_intent` store, shared by the declaration's
 * behaviours (`payment-intents-resource.ts`), the billing area and the admin API: the
 * card attempt of a confirmed intent (3-D Secure stop, decline, authorisation or capture), the
 * customer's authentication step, and the `payment_intent.*` events the engine does not emit
 * itself.
 *
 * @example
 * const pi = paymentIntents.create(scope, { amount: 2000, currency: 'usd', paymentMethod: 'pm_card_visa', confirm: true }, origin)
 * pi.status // 'succeeded'
 */
export interface PaymentIntents {
  /** Creates (and with `confirm`, confirms) through the engine's `paymentIntents.create`. */
  create(scope: Scope, input: PaymentIntentCreate, origin: Origin): PaymentIntent
  get(scope: Scope, id: string): PaymentIntent | undefined
  /** Newest first, optionally of one customer. */
  list(scope: Scope, filter?: { customer?: string }): PaymentIntent[]
  /**
   * Runs the card attempt of an intent in a confirmable state with a payment method. A card that
   * asks for 3-D Secure with the customer present stops in `requires_action` with no charge; a
   * decline answers 402 `card_error` after recording it on the intent.
   */
  attempt(scope: Scope, p: PaymentIntent, origin: Origin, how: AttemptHow): PaymentIntent
  /**
   * Ends the customer's 3-D Secure step of an intent in `requires_action` (the browser part the
   * simulator has no page for): `succeed` runs the card payment, `fail` returns the intent to
   * `requires_payment_method` with `payment_intent_authentication_failure`.
   */
  authenticate(scope: Scope, id: string, outcome: 'succeed' | 'fail', origin: Origin): PaymentIntent
  /**
   * Verifies the bank account of an intent waiting for microdeposits (the test amounts 32 and 45,
   * or descriptor code `SM11AA`): its mandate becomes active and the debit starts (`processing`,
   * then `succeeded` with its charge at the same instant, asynchronously; a failing test account's
   * charge fails and the intent returns to `requires_payment_method`). Wrong values are
   * refused with the provider's codes and change nothing.
   */
  verifyMicrodeposits(scope: Scope, id: string, params: Readonly<Record<string, unknown>>, origin: Origin): PaymentIntent
  /** Refuses a payment method that does not exist or belongs to another customer than `customer`. */
  checkPaymentMethod(scope: Scope, value: unknown, customer: unknown): void
  /** Emits a `payment_intent.*` event of a stored intent. */
  emit(type: string, scope: Scope, p: PaymentIntent, origin: Origin): void
  /**
   * Hears every intent that succeeds or fails, however it was confirmed (server side, by the
   * customer with its client secret, after 3-D Secure, a bank debit settling): billing pays the
   * invoice an intent belongs to.
   */
  onOutcome(listener: IntentOutcomeListener): void
}

/**
 * What an intent's outcome listener hears: the stored intent after `payment_intent.succeeded`,
 * `.payment_failed` or `.requires_action` (the customer has a step to take: 3-D Secure, a transfer).
 *
 * @example
 * paymentIntents.onOutcome((outcome, scope, p) => { if (outcome === 'succeeded') paid(scope, p.id) })
 */
export type IntentOutcomeListener = (
  outcome: 'succeeded' | 'failed' | 'requires_action',
  scope: Scope,
  p: PaymentIntent,
  origin: Origin,
) => void

export interface PaymentIntentsOptions {
  readonly kernel: Kernel
  readonly events: EventStore
  /** The engine (made after the ports, so read on use). */
  readonly engine: () => Engine
  readonly paymentMethods: PaymentMethods
  readonly charges: Charges
}

/**
 * Builds the payment intent flow over the engine (read on use: the flow is one of the engine's ports).
 *
 * @example
 * const paymentIntents = createPaymentIntents({ kernel, events, engine: () => engine, paymentMethods, charges })
 */
export function createPaymentIntents(options: PaymentIntentsOptions): PaymentIntents {
  const { kernel, events, engine, paymentMethods, charges } = options
  const resource = () => engine().resource('payment_intent')

  // The debit of a verified bank account completes at the same instant, asynchronously.
  const settling = kernel.scheduler.define<{ account: string; mode: Scope['mode']; id: string }>(
    'payment_intent.bank_debit',
    ({ account, mode, id }) => completeDebit({ account, mode }, id),
  )

  function completeDebit(scope: Scope, id: string): void {
    const p = resource().get(scope, id)
    const pm = p === undefined ? undefined : paymentMethods.get(scope, p.payment_method as string)
    if (p === undefined || pm === undefined || p.status !== 'processing') return
    const amount = p.amount as number
    const outcome = bankDebitOutcome(pm)
    const result = charges.attempt(
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
        details: bankDetails(pm, mandateOf(engine(), scope, pm.id)?.id ?? null),
        fee: achFee(amount),
        outcome,
      },
      NO_ORIGIN,
    )
    if (outcome.kind === 'decline') {
      // The bank returned the debit: the customer must give another payment method.
      const failed = resource().put(scope, p.id, {
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
      emit('payment_intent.payment_failed', scope, failed, NO_ORIGIN)
      return
    }
    const done = resource().put(scope, p.id, { amount_received: amount, latest_charge: result.id, status: 'succeeded' })
    emit('payment_intent.succeeded', scope, done, NO_ORIGIN)
  }

  /** Starts the debit of a verified bank account: `processing` until it completes. */
  function startDebit(scope: Scope, p: PaymentIntent, origin: Origin): PaymentIntent {
    const processing = resource().put(scope, p.id, { next_action: null, last_payment_error: null, status: 'processing' })
    emit('payment_intent.processing', scope, processing, origin)
    settling.at(kernel.clock.now, { account: scope.account, mode: scope.mode, id: p.id })
    return processing
  }

  /** A bank debit: with an active mandate it starts at once, else it waits for microdeposits. */
  function bankDebit(scope: Scope, p: PaymentIntent, pm: PaymentMethod, origin: Origin, how: AttemptHow): PaymentIntent {
    if (mandateOf(engine(), scope, pm.id)?.status === 'active') return startDebit(scope, p, origin)
    createMandate(engine(), scope, pm, how.mandateData, 'pending')
    const waiting = resource().put(scope, p.id, { next_action: microdepositAction(p, engine().now()), status: 'requires_action' })
    emit('payment_intent.requires_action', scope, waiting, origin)
    return waiting
  }

  const listeners: IntentOutcomeListener[] = []
  function emit(type: string, scope: Scope, p: PaymentIntent, origin: Origin): void {
    emitSnapshot(events, type, scope, p, origin, undefined, true)
    const outcome = OUTCOMES[type]
    if (outcome !== undefined) for (const listener of listeners) listener(outcome, scope, p, origin)
  }

  function decline(scope: Scope, p: PaymentIntent, pm: PaymentMethod, chargeId: string, failure: Failure, origin: Origin): never {
    const docUrl = `https://docs.stripe.com/error-codes/${failure.code}`
    const failed = resource().put(scope, p.id, {
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
    emit('payment_intent.payment_failed', scope, failed, origin)
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
        request_log_url: null,
      },
    })
  }

  function attempt(scope: Scope, p: PaymentIntent, origin: Origin, how: AttemptHow): PaymentIntent {
    const r = resource()
    const pm = paymentMethods.get(scope, p.payment_method as string)
    if (pm === undefined) throw new Error(`payment intent ${p.id}: payment method vanished`)
    if (pm.type === 'us_bank_account') return bankDebit(scope, p, pm, origin, how)
    if (pm.type === 'customer_balance') {
      // Paid by bank transfer into the customer's cash balance: it waits for the funds.
      const waiting = r.put(scope, p.id, { next_action: transferAction(p, p.amount as number), status: 'requires_action' })
      emit('payment_intent.requires_action', scope, waiting, origin)
      return waiting
    }
    if (!how.authenticated && !how.offSession && paymentMethods.needsAuthentication(scope, pm, { offSession: false })) {
      const brand = (pm.card as { brand?: unknown } | null)?.brand
      const waiting = r.put(scope, p.id, { next_action: threeDSecureAction(p, scope.account, brand), status: 'requires_action' })
      kernel.trace.append('payment_intent.requires_action', { id: p.id, account: scope.account, mode: scope.mode })
      emit('payment_intent.requires_action', scope, waiting, origin)
      return waiting
    }
    const manual = p.capture_method === 'manual'
    const result = charges.attempt(
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
      decline(
        scope,
        p,
        pm,
        result.id,
        {
          code: result.failureCode ?? 'card_declined',
          declineCode: result.declineCode,
          message: result.failureMessage ?? errorMessage('card_declined'),
        },
        origin,
      )
    }
    if (p.setup_future_usage !== null && typeof p.customer === 'string') {
      paymentMethods.attach(scope, pm.id, p.customer, origin)
    }
    const amount = p.amount as number
    const done = r.put(scope, p.id, {
      latest_charge: result.id,
      last_payment_error: null,
      next_action: null,
      ...(manual ? { amount_capturable: amount, status: 'requires_capture' } : { amount_received: amount, status: 'succeeded' }),
    })
    emit(manual ? 'payment_intent.amount_capturable_updated' : 'payment_intent.succeeded', scope, done, origin)
    return done
  }

  function params(input: PaymentIntentCreate): Record<string, unknown> {
    const out: Record<string, unknown> = { amount: input.amount, currency: input.currency }
    const optional: Record<string, unknown> = {
      customer: input.customer,
      payment_method: input.paymentMethod,
      confirm: input.confirm,
      off_session: input.offSession,
      capture_method: input.captureMethod,
      description: input.description,
      metadata: input.metadata,
      receipt_email: input.receiptEmail,
      setup_future_usage: input.setupFutureUsage,
      statement_descriptor: input.statementDescriptor,
    }
    for (const [k, v] of Object.entries(optional)) if (v !== undefined) out[k] = v
    return out
  }

  return {
    create(scope, input, origin) {
      return engine().run('paymentIntents.create', { scope, origin, path: {}, params: params(input) }) as PaymentIntent
    },
    get(scope, id) {
      return resource().get(scope, id)
    },
    list(scope, filter = {}) {
      return resource()
        .list(scope)
        .filter((p) => filter.customer === undefined || p.customer === filter.customer)
    },
    attempt,
    authenticate(scope, id, outcome, origin) {
      const r = resource()
      const p = r.get(scope, id)
      if (p === undefined) throw resourceMissing('payment_intent', id)
      if (p.status !== 'requires_action') throw unexpectedState(p, 'authenticate', ['requires_action'])
      kernel.trace.append('payment_intent.authenticated', { id, account: scope.account, mode: scope.mode, outcome })
      const cleared = r.put(scope, id, { next_action: null })
      if (outcome === 'succeed') return attempt(scope, cleared, origin, { offSession: false, authenticated: true })
      const pm = paymentMethods.get(scope, p.payment_method as string)
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
      emit('payment_intent.payment_failed', scope, failed, origin)
      return failed
    },
    verifyMicrodeposits(scope, id, params, origin) {
      const r = resource()
      const p = r.get(scope, id)
      if (p === undefined) throw resourceMissing('payment_intent', id)
      const action = p.next_action as { type?: unknown } | null
      if (p.status !== 'requires_action' || action?.type !== 'verify_with_microdeposits') {
        throw unexpectedState(p, 'verify microdeposits on', ['requires_action'])
      }
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
      const mandate = mandateOf(engine(), scope, p.payment_method as string)
      if (mandate !== undefined) engine().resource('mandate').set(scope, mandate.id, { status: 'active' }, origin)
      return startDebit(scope, p, origin)
    },
    checkPaymentMethod(scope, value, customer) {
      if (typeof value !== 'string') return
      paymentMethods.check(scope, value, 'payment_method')
      const pm = paymentMethods.get(scope, value)
      if (pm?.customer != null && pm.customer !== customer) {
        throw tableError(
          'payment_method_other_customer',
          { id: value, customer: String(pm.customer) },
          { param: 'payment_method' },
        )
      }
    },
    emit,
    onOutcome(listener) {
      listeners.push(listener)
    },
  }
}

const OUTCOMES: Readonly<Record<string, Parameters<IntentOutcomeListener>[0]>> = {
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.requires_action': 'requires_action',
}

/** Whether a card intent asked that its authorisation may be raised (`request_incremental_authorization`). */
function asksIncrements(p: PaymentIntent): boolean {
  const options = p.payment_method_options as { card?: { request_incremental_authorization?: unknown } } | null
  return options?.card?.request_incremental_authorization === 'if_available'
}

interface Failure {
  readonly code: string
  readonly declineCode: string | null
  readonly message: string
}

/**
 * Whether the customer saved a card for later off-session use: a succeeded off-session setup
 * intent with it, or a succeeded charge of it that the customer authenticated, for an intent with
 * `setup_future_usage`. Read from the stored intents and charges, so the fact needs no field of
 * its own.
 *
 * @example
 * const setUp = savedForOffSession(() => engine)
 * setUp(scope, pm) // true after a 3-D Secure payment with setup_future_usage: 'off_session'
 */
export function savedForOffSession(engine: () => Engine): (scope: Scope, pm: PaymentMethod) => boolean {
  return (scope, pm) => {
    const setups = engine().resource('setup_intent').list(scope)
    if (setups.some((si) => si.payment_method === pm.id && si.status === 'succeeded' && si.usage === 'off_session')) return true
    const intents = engine().resource('payment_intent')
    return engine()
      .resource('charge')
      .list(scope)
      .some((c: Json) => {
        if (c.payment_method !== pm.id || c.status !== 'succeeded' || !wasAuthenticated(c)) return false
        const pi = typeof c.payment_intent === 'string' ? intents.get(scope, c.payment_intent) : undefined
        return pi !== undefined && pi.setup_future_usage !== null
      })
  }
}
