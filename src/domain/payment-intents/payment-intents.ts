import { fromPlain, toPlain } from '#kernel/plain.js'
import type { Resource } from '../engine/resource.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel.js'
import { checkChargeAmount, parseCurrency } from '../ledger/currencies.js'
import type { Scope } from '../mode.js'
import { createScopedStore } from '../scoped-store/scoped-store.js'
import { invalidRequest, resourceMissing, ServiceError } from '../service-error.js'
import { emitSnapshot, type Origin } from '../v1-events/emit.js'
import type { Charges } from './charges.js'
import { type PaymentIntent, type PaymentIntentStatus, paymentIntentJson } from './payment-intent.js'
import { needsAuthentication, type PaymentMethod, paymentMethodJson } from './payment-method.js'
import type { PaymentMethods } from './payment-methods.js'

export interface PaymentIntentCreate {
  amount: number
  currency: string
  customer?: string
  paymentMethod?: string
  confirm?: boolean
  /** The customer is not present: a card that asks for authentication declines instead of `requires_action`. */
  offSession?: boolean
  captureMethod?: PaymentIntent['captureMethod']
  description?: string
  metadata?: Record<string, string>
  receiptEmail?: string
  setupFutureUsage?: 'on_session' | 'off_session'
  statementDescriptor?: string
}

export interface PaymentIntentUpdate {
  amount?: number
  currency?: string
  customer?: string
  paymentMethod?: string
  description?: string | null
  metadata?: Record<string, string> | null
  receiptEmail?: string | null
  setupFutureUsage?: 'on_session' | 'off_session' | null
}

const CANCELABLE: ReadonlySet<PaymentIntentStatus> = new Set([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'requires_capture',
])
const UPDATABLE: ReadonlySet<PaymentIntentStatus> = new Set([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
])
const CONFIRMABLE: ReadonlySet<PaymentIntentStatus> = new Set(['requires_payment_method', 'requires_confirmation'])

const PAST: Readonly<Record<string, string>> = {
  confirm: 'confirmed',
  capture: 'captured',
  cancel: 'canceled',
  update: 'updated',
  authenticate: 'authenticated',
}

/**
 * The provider's `use_stripe_sdk` action: Stripe.js runs the 3-D Secure 2 challenge from these ids.
 * The source id is derived from the intent so the action is the same on every read.
 */
function threeDSecureAction(p: PaymentIntent, pm: PaymentMethod): Record<string, unknown> {
  return {
    type: 'use_stripe_sdk',
    use_stripe_sdk: {
      type: 'stripe_3ds2_fingerprint',
      directory_server_name: pm.brand,
      merchant: p.account,
      server_transaction_id: `${p.id}_3ds2`,
      three_d_secure_2_source: `src_${p.id.slice(3)}`,
    },
  }
}

function unexpectedState(p: PaymentIntent, action: string, allowed: readonly string[]): ServiceError {
  return invalidRequest(
    `You cannot ${action} this PaymentIntent because it has a status of ${p.status}. Only a PaymentIntent with one of the following statuses may be ${PAST[action] ?? action}: ${allowed.join(', ')}.`,
    { code: 'payment_intent_unexpected_state', extra: { payment_intent: paymentIntentJson(p) } },
  )
}

/**
 * Payment intents per account and mode with the provider's status machine:
 * `requires_payment_method` -> (payment method set) `requires_confirmation` -> confirm ->
 * `succeeded` (automatic capture) or `requires_capture` (manual) -> capture -> `succeeded`; a declined
 * card leaves it in `requires_payment_method` with `last_payment_error` and answers 402 `card_error`;
 * cancel works from every status but `succeeded` and `canceled`. Success creates a charge and a
 * balance transaction. Each change emits its snapshot events.
 *
 * @example
 * const pi = paymentIntents.create(scope, { amount: 2000, currency: 'usd', paymentMethod: 'pm_card_visa', confirm: true }, origin)
 * pi.status // 'succeeded'
 */
export interface PaymentIntents {
  create(scope: Scope, input: PaymentIntentCreate, origin: Origin): PaymentIntent
  get(scope: Scope, id: string): PaymentIntent | undefined
  require(scope: Scope, id: string): PaymentIntent
  update(scope: Scope, id: string, input: PaymentIntentUpdate, origin: Origin): PaymentIntent
  confirm(scope: Scope, id: string, input: { paymentMethod?: string; offSession?: boolean }, origin: Origin): PaymentIntent
  /**
   * Ends the customer's 3-D Secure step of an intent in `requires_action` (the browser part the
   * simulator has no page for): `succeed` runs the card payment, `fail` returns the intent to
   * `requires_payment_method` with `payment_intent_authentication_failure`.
   */
  authenticate(scope: Scope, id: string, outcome: 'succeed' | 'fail', origin: Origin): PaymentIntent
  capture(scope: Scope, id: string, input: { amountToCapture?: number }, origin: Origin): PaymentIntent
  cancel(scope: Scope, id: string, input: { cancellationReason?: string }, origin: Origin): PaymentIntent
  /** Newest first, optionally of one customer. */
  list(scope: Scope, filter?: { customer?: string }): PaymentIntent[]
}

export function createPaymentIntents(
  kernel: Kernel,
  events: EventStore,
  customers: Pick<Resource, 'requireParam'>,
  paymentMethods: PaymentMethods,
  charges: Charges,
): PaymentIntents {
  const store = createScopedStore<PaymentIntent>()
  kernel.state.register('payment_intents', {
    save: () => toPlain(store.save()),
    load: (data) => store.load(fromPlain(data)),
  })

  function require(scope: Scope, id: string): PaymentIntent {
    const p = store.get(scope, id)
    if (p === undefined) throw resourceMissing('payment_intent', id)
    return p
  }

  /**
   * Runs the card attempt; the intent is already in a confirmable state with a payment method. A card
   * that asks for 3-D Secure with the customer present stops in `requires_action` with no charge.
   */
  function attempt(scope: Scope, p: PaymentIntent, origin: Origin, how: { offSession: boolean; authenticated: boolean }): void {
    const pm = paymentMethods.get(scope, p.paymentMethod as string)
    if (pm === undefined) throw new Error(`payment intent ${p.id}: payment method vanished`)
    if (!how.authenticated && !how.offSession && needsAuthentication(pm, { offSession: false })) {
      p.status = 'requires_action'
      p.nextAction = threeDSecureAction(p, pm)
      kernel.trace.append('payment_intent.requires_action', { id: p.id, account: scope.account, mode: scope.mode })
      emitSnapshot(events, 'payment_intent.requires_action', scope, paymentIntentJson(p), origin)
      return
    }
    const manual = p.captureMethod === 'manual'
    const charge = charges.attempt(
      scope,
      {
        amount: p.amount,
        currency: p.currency,
        customer: p.customer,
        paymentMethod: pm,
        paymentIntent: p.id,
        description: p.description,
        metadata: p.metadata,
        capture: !manual,
        authenticated: how.authenticated,
        offSession: how.offSession,
      },
      origin,
    )
    p.latestCharge = charge.id
    if (charge.status === 'failed') {
      const error = {
        charge: charge.id,
        code: charge.failureCode,
        decline_code: charge.declineCode,
        doc_url: `https://docs.stripe.com/error-codes/${charge.failureCode}`,
        message: charge.failureMessage,
        payment_method: paymentMethodJson(pm),
        type: 'card_error',
      }
      p.lastPaymentError = error
      p.paymentMethod = null
      p.status = 'requires_payment_method'
      const json = paymentIntentJson(p)
      emitSnapshot(events, 'payment_intent.payment_failed', scope, json, origin)
      throw new ServiceError({
        status: 402,
        type: 'card_error',
        code: charge.failureCode ?? 'card_declined',
        message: charge.failureMessage ?? 'Your card was declined.',
        extra: {
          charge: charge.id,
          decline_code: charge.declineCode,
          doc_url: error.doc_url,
          payment_intent: json,
          payment_method: paymentMethodJson(pm),
          request_log_url: null,
        },
      })
    }
    p.lastPaymentError = null
    // An authenticated payment that saves the card is the set-up that later off-session payments rely on.
    if (how.authenticated && p.setupFutureUsage !== null) pm.setUp = true
    if (p.setupFutureUsage !== null && p.customer !== null) paymentMethods.attach(scope, pm.id, p.customer, origin)
    if (manual) {
      p.status = 'requires_capture'
      p.amountCapturable = p.amount
      emitSnapshot(events, 'payment_intent.amount_capturable_updated', scope, paymentIntentJson(p), origin)
    } else {
      p.status = 'succeeded'
      p.amountReceived = p.amount
      emitSnapshot(events, 'payment_intent.succeeded', scope, paymentIntentJson(p), origin)
    }
  }

  function checkPm(scope: Scope, value: string | undefined, customer: string | null): void {
    if (value === undefined) return
    paymentMethods.check(scope, value, 'payment_method')
    const pm = paymentMethods.get(scope, value)
    if (pm?.customer != null && pm.customer !== customer) {
      throw invalidRequest(
        `The provided PaymentMethod ${value} belongs to customer ${pm.customer}; pass that customer with it.`,
        { code: 'payment_method_unexpected_state', param: 'payment_method' },
      )
    }
  }

  return {
    create(scope, input, origin) {
      const currency = parseCurrency(input.currency)
      checkChargeAmount(input.amount, currency)
      if (input.customer !== undefined) customers.requireParam(scope, input.customer, 'customer')
      checkPm(scope, input.paymentMethod, input.customer ?? null)
      if (input.confirm === true && input.paymentMethod === undefined) {
        throw invalidRequest(
          'You cannot confirm this PaymentIntent because it has no payment method: pass payment_method with confirm=true.',
          { code: 'payment_intent_unexpected_state', param: 'payment_method' },
        )
      }
      const id = kernel.ids.next('pi', 24)
      const pmId =
        input.paymentMethod === undefined ? null : paymentMethods.resolve(scope, input.paymentMethod, 'payment_method').id
      const p: PaymentIntent = {
        id,
        account: scope.account,
        mode: scope.mode,
        created: kernel.clock.now,
        clientSecret: `${id}_secret_${kernel.ids.next('s', 24).slice(2)}`,
        amount: input.amount,
        currency,
        customer: input.customer ?? null,
        paymentMethod: pmId,
        status: pmId === null ? 'requires_payment_method' : 'requires_confirmation',
        captureMethod: input.captureMethod ?? 'automatic',
        description: input.description ?? null,
        metadata: { ...input.metadata },
        receiptEmail: input.receiptEmail ?? null,
        setupFutureUsage: input.setupFutureUsage ?? null,
        statementDescriptor: input.statementDescriptor ?? null,
        amountReceived: 0,
        amountCapturable: 0,
        latestCharge: null,
        lastPaymentError: null,
        nextAction: null,
        canceledAt: null,
        cancellationReason: null,
      }
      store.add(scope, p)
      kernel.trace.append('payment_intent.created', { id, account: scope.account, mode: scope.mode })
      emitSnapshot(events, 'payment_intent.created', scope, paymentIntentJson(p), origin)
      if (input.confirm === true) attempt(scope, p, origin, { offSession: input.offSession === true, authenticated: false })
      return p
    },
    get: (scope, id) => store.get(scope, id),
    require,
    update(scope, id, input, origin) {
      const p = require(scope, id)
      if (!UPDATABLE.has(p.status)) throw unexpectedState(p, 'update', [...UPDATABLE])
      const currency = input.currency === undefined ? p.currency : parseCurrency(input.currency)
      if (input.amount !== undefined || input.currency !== undefined) checkChargeAmount(input.amount ?? p.amount, currency)
      if (input.customer !== undefined) customers.requireParam(scope, input.customer, 'customer')
      checkPm(scope, input.paymentMethod, input.customer ?? p.customer)
      const before = paymentIntentJson(p)
      if (input.amount !== undefined) p.amount = input.amount
      p.currency = currency
      if (input.customer !== undefined) p.customer = input.customer
      if (input.paymentMethod !== undefined) {
        p.paymentMethod = paymentMethods.resolve(scope, input.paymentMethod, 'payment_method').id
        // A new card replaces the one awaiting 3-D Secure; its action no longer applies.
        if (p.status === 'requires_payment_method' || p.status === 'requires_action') p.status = 'requires_confirmation'
        p.nextAction = null
      }
      if (input.description !== undefined) p.description = input.description
      if (input.receiptEmail !== undefined) p.receiptEmail = input.receiptEmail
      if (input.setupFutureUsage !== undefined) p.setupFutureUsage = input.setupFutureUsage
      if (input.metadata === null) p.metadata = {}
      else if (input.metadata !== undefined) {
        for (const [k, v] of Object.entries(input.metadata)) {
          if (v === '') delete p.metadata[k]
          else p.metadata[k] = v
        }
      }
      const after = paymentIntentJson(p)
      const previous: Record<string, unknown> = {}
      for (const k of Object.keys(after)) {
        if (JSON.stringify(after[k]) !== JSON.stringify(before[k])) previous[k] = before[k]
      }
      if (Object.keys(previous).length > 0) emitSnapshot(events, 'payment_intent.updated', scope, after, origin, previous)
      return p
    },
    confirm(scope, id, input, origin) {
      const p = require(scope, id)
      if (!CONFIRMABLE.has(p.status)) throw unexpectedState(p, 'confirm', [...CONFIRMABLE])
      checkPm(scope, input.paymentMethod, p.customer)
      if (input.paymentMethod === undefined && p.paymentMethod === null) {
        throw invalidRequest(
          'You cannot confirm this PaymentIntent because it is missing a payment method. Update it with a payment_method, or pass payment_method to confirm.',
          { code: 'payment_intent_unexpected_state', extra: { payment_intent: paymentIntentJson(p) } },
        )
      }
      if (input.paymentMethod !== undefined) {
        p.paymentMethod = paymentMethods.resolve(scope, input.paymentMethod, 'payment_method').id
        p.status = 'requires_confirmation'
      }
      attempt(scope, p, origin, { offSession: input.offSession === true, authenticated: false })
      return p
    },
    authenticate(scope, id, outcome, origin) {
      const p = require(scope, id)
      if (p.status !== 'requires_action') throw unexpectedState(p, 'authenticate', ['requires_action'])
      kernel.trace.append('payment_intent.authenticated', { id, account: scope.account, mode: scope.mode, outcome })
      p.nextAction = null
      if (outcome === 'succeed') {
        attempt(scope, p, origin, { offSession: false, authenticated: true })
        return p
      }
      const pm = paymentMethods.get(scope, p.paymentMethod as string)
      p.lastPaymentError = {
        code: 'payment_intent_authentication_failure',
        doc_url: 'https://docs.stripe.com/error-codes/payment-intent-authentication-failure',
        message:
          'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
        payment_method: pm === undefined ? null : paymentMethodJson(pm),
        type: 'invalid_request_error',
      }
      p.paymentMethod = null
      p.status = 'requires_payment_method'
      emitSnapshot(events, 'payment_intent.payment_failed', scope, paymentIntentJson(p), origin)
      return p
    },
    capture(scope, id, input, origin) {
      const p = require(scope, id)
      if (p.status !== 'requires_capture') throw unexpectedState(p, 'capture', ['requires_capture'])
      const amount = input.amountToCapture ?? p.amountCapturable
      if (!Number.isSafeInteger(amount) || amount < 1 || amount > p.amountCapturable) {
        throw invalidRequest(`amount_to_capture must be between 1 and ${p.amountCapturable}.`, {
          code: 'amount_too_large',
          param: 'amount_to_capture',
        })
      }
      charges.capture(scope, p.latestCharge as string, amount, origin)
      p.status = 'succeeded'
      p.amountReceived = amount
      p.amountCapturable = 0
      emitSnapshot(events, 'payment_intent.succeeded', scope, paymentIntentJson(p), origin)
      return p
    },
    cancel(scope, id, input, origin) {
      const p = require(scope, id)
      if (!CANCELABLE.has(p.status)) throw unexpectedState(p, 'cancel', [...CANCELABLE])
      p.status = 'canceled'
      p.canceledAt = kernel.clock.now
      p.cancellationReason = input.cancellationReason ?? null
      p.amountCapturable = 0
      p.nextAction = null
      emitSnapshot(events, 'payment_intent.canceled', scope, paymentIntentJson(p), origin)
      return p
    },
    list: (scope, filter = {}) =>
      store.list(scope).filter((p) => filter.customer === undefined || p.customer === filter.customer),
  }
}
