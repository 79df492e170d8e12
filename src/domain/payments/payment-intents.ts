import type { TaskKind } from '#kernel/scheduler.js'
import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Resource } from '../engine/resource.js'
import { emitSnapshot, type Origin } from '../events/emit-snapshot.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel-parts.js'
import type { Scope } from '../mode.js'
import { resourceMissing, tableError } from '../service-error.js'
import { wasAuthenticated } from './charge.js'
import type { Charges } from './charges.js'
import { type PaymentIntent, unexpectedState } from './payment-intent.js'
import { attemptIntent, authenticateIntent } from './payment-intent-attempt.js'
import { completeDebit, verifyDeposits } from './payment-intent-debit.js'
import type { PaymentMethod } from './payment-method.js'
import type { PaymentMethods } from './payment-methods.js'

/** A payment intent to create, in the domain's words (the billing area pays invoices with these). */
export interface PaymentIntentCreate {
  amount: number
  currency: string
  customer?: string
  payment_method?: string
  confirm?: boolean
  /** The customer is not present: a card that asks for authentication declines instead of `requires_action`. */
  off_session?: boolean
  capture_method?: 'automatic' | 'automatic_async' | 'manual'
  description?: string
  metadata?: Record<string, string>
  receipt_email?: string
  setup_future_usage?: 'on_session' | 'off_session'
  statement_descriptor?: string
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
 * const pi = paymentIntents.create(scope, { amount: 2000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true }, origin)
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
 * What the payment intent flow's steps (attempt, authentication, bank debit) use of it: the
 * service parts, the intent store, the debit settling task, and `emit`.
 *
 * @example
 * attemptIntent(ctx, scope, intent, origin, how) // ctx: the flow itself
 */
export interface PaymentIntentContext {
  readonly kernel: Kernel
  readonly engine: () => Engine
  readonly paymentMethods: PaymentMethods
  readonly charges: Charges
  /** Completes a verified bank account's debit later at this instant. */
  readonly settling: TaskKind<DebitArgs>
  /** The engine's `payment_intent` store. */
  resource(): Resource
  emit(type: string, scope: Scope, p: PaymentIntent, origin: Origin): void
}

type DebitArgs = { account: string; mode: Scope['mode']; id: string }

/**
 * Builds the payment intent flow over the engine (read on use: the flow is one of the engine's ports).
 *
 * @example
 * const paymentIntents = createPaymentIntents({ kernel, events, engine: () => engine, paymentMethods, charges })
 */
export function createPaymentIntents(options: PaymentIntentsOptions): PaymentIntents {
  return new PaymentIntentFlow(options)
}

/**
 * The payment intent flow; also the context its steps take. A class: it is made per simulation
 * (every fork), and its methods on the prototype cost nothing per instance.
 */
class PaymentIntentFlow implements PaymentIntents, PaymentIntentContext {
  readonly kernel: Kernel
  readonly engine: () => Engine
  readonly paymentMethods: PaymentMethods
  readonly charges: Charges
  readonly settling: TaskKind<DebitArgs>
  private readonly events: EventStore
  private readonly listeners: IntentOutcomeListener[] = []

  constructor(options: PaymentIntentsOptions) {
    this.kernel = options.kernel
    this.events = options.events
    this.engine = options.engine
    this.paymentMethods = options.paymentMethods
    this.charges = options.charges
    // The debit of a verified bank account completes at the same instant, asynchronously.
    this.settling = options.kernel.scheduler.define<DebitArgs>('payment_intent.bank_debit', ({ account, mode, id }) =>
      completeDebit(this, { account, mode }, id),
    )
  }

  resource(): Resource {
    return this.engine().resource('payment_intent')
  }

  create(scope: Scope, input: PaymentIntentCreate, origin: Origin): PaymentIntent {
    return this.engine().run('paymentIntents.create', { scope, origin, path: {}, params: params(input) }) as PaymentIntent
  }

  get(scope: Scope, id: string): PaymentIntent | undefined {
    return this.resource().get(scope, id)
  }

  list(scope: Scope, filter: { customer?: string } = {}): PaymentIntent[] {
    return this.resource()
      .list(scope)
      .filter((p) => filter.customer === undefined || p.customer === filter.customer)
  }

  attempt(scope: Scope, p: PaymentIntent, origin: Origin, how: AttemptHow): PaymentIntent {
    return attemptIntent(this, scope, p, origin, how)
  }

  authenticate(scope: Scope, id: string, outcome: 'succeed' | 'fail', origin: Origin): PaymentIntent {
    return authenticateIntent(this, scope, id, outcome, origin)
  }

  verifyMicrodeposits(scope: Scope, id: string, params: Readonly<Record<string, unknown>>, origin: Origin): PaymentIntent {
    const p = this.resource().get(scope, id)
    if (p === undefined) throw resourceMissing('payment_intent', id)
    const action = p.next_action as { type?: unknown } | null
    if (p.status !== 'requires_action' || action?.type !== 'verify_with_microdeposits') {
      throw unexpectedState(p, 'verify microdeposits on', ['requires_action'])
    }
    return verifyDeposits(this, scope, p, params, origin)
  }

  checkPaymentMethod(scope: Scope, value: unknown, customer: unknown): void {
    if (typeof value !== 'string') return
    this.paymentMethods.check(scope, value, 'payment_method')
    const pm = this.paymentMethods.get(scope, value)
    if (pm?.customer != null && pm.customer !== customer) {
      throw tableError('payment_method_other_customer', { id: value, customer: String(pm.customer) }, { param: 'payment_method' })
    }
  }

  emit(type: string, scope: Scope, p: PaymentIntent, origin: Origin): void {
    emitSnapshot(this.events, type, scope, p, origin, undefined, true)
    const outcome = OUTCOMES[type]
    if (outcome !== undefined) for (const listener of this.listeners) listener(outcome, scope, p, origin)
  }

  onOutcome(listener: IntentOutcomeListener): void {
    this.listeners.push(listener)
  }
}

/** The engine's create parameters of a domain create. */
function params(input: PaymentIntentCreate): Record<string, unknown> {
  // Cards, as the service's own payments (an invoice's, the admin API's) take them.
  const out: Record<string, unknown> = { amount: input.amount, currency: input.currency, payment_method_types: ['card'] }
  const optional: Record<string, unknown> = {
    customer: input.customer,
    payment_method: input.payment_method,
    confirm: input.confirm,
    off_session: input.off_session,
    capture_method: input.capture_method,
    description: input.description,
    metadata: input.metadata,
    receipt_email: input.receipt_email,
    setup_future_usage: input.setup_future_usage,
    statement_descriptor: input.statement_descriptor,
  }
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) out[k] = v
  return out
}

const OUTCOMES: Readonly<Record<string, Parameters<IntentOutcomeListener>[0]>> = {
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.requires_action': 'requires_action',
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
