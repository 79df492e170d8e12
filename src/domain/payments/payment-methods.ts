import { errorMessage } from '#catalogue/errors.js'
import type { Resource } from '../engine/resource.js'
import { emitSnapshot, NO_ORIGIN, type Origin } from '../events/emit-snapshot.js'
import type { EventStore } from '../events/event-store.js'
import type { Scope } from '../mode.js'
import { resourceMissing, tableError } from '../service-error.js'
import { type CardOutcome, cardFields, cardOf, needsAuthentication, type PaymentMethod, testCard } from './payment-method.js'

/** How an off-session payment with a card that asks for authentication ends. */
const AUTHENTICATION_REQUIRED: CardOutcome = {
  kind: 'decline',
  code: 'authentication_required',
  declineCode: 'authentication_required',
  message: errorMessage('authentication_required'),
}

/**
 * Card payment methods per account and mode, over the engine's `payment_method` store. A test
 * token (`pm_card_visa`, `pm_card_chargeDeclined`, ...) makes a new payment method each time it is
 * used, as the provider does; a `pm_` id must exist in the same scope. This is the domain API the
 * billing area, customers, setup intents and off-session payments use.
 *
 * @example
 * const pm = paymentMethods.resolve(scope, 'pm_card_visa', 'payment_method')
 * paymentMethods.attach(scope, pm.id, 'cus_1', origin) // emits payment_method.attached
 */
export interface PaymentMethods {
  /** Checks a token or id without creating anything (for validation before a change). */
  check(scope: Scope, value: string, param: string): void
  /** The payment method a token or id stands for, creating it from a test token. Call `check` first. */
  resolve(scope: Scope, value: string, param: string): PaymentMethod
  get(scope: Scope, id: string): PaymentMethod | undefined
  /** Attaches to a customer (which the caller has validated); emits `payment_method.attached`. */
  attach(scope: Scope, id: string, customer: string, origin: Origin): PaymentMethod
  /** Refuses attaching a payment method that belongs to another customer (call before any change). */
  checkAttachable(scope: Scope, value: string, customer: string, param: string): void
  detach(scope: Scope, id: string, origin: Origin): PaymentMethod
  /** Every payment method of the scope, newest first. */
  list(scope: Scope): PaymentMethod[]
  /** Payment methods attached to a customer, newest first. */
  ofCustomer(scope: Scope, customer: string): PaymentMethod[]
  /** Whether a payment with it needs the customer to authenticate first. */
  needsAuthentication(scope: Scope, pm: PaymentMethod, at: { offSession: boolean }): boolean
  /** How a payment with it ends: its card's outcome, or `authentication_required` when it needs a customer who is away. */
  outcome(scope: Scope, pm: PaymentMethod, at: { offSession: boolean; authenticated: boolean }): CardOutcome
}

export interface PaymentMethodsOptions {
  /** The engine's `payment_method` resource (made after the ports, so read on use). */
  readonly resource: () => Resource
  readonly events: EventStore
  /** Whether an authenticated payment saved the card for later off-session use (read from its charges). */
  readonly setUp: (scope: Scope, pm: PaymentMethod) => boolean
}

/**
 * Builds the payment methods area over the engine's `payment_method` store.
 *
 * @example
 * const paymentMethods = createPaymentMethods({ resource: () => engine.resource('payment_method'), events, setUp })
 */
export function createPaymentMethods(options: PaymentMethodsOptions): PaymentMethods {
  return new PaymentMethodBook(options)
}

/**
 * The payment methods area's operations. A class: it is made per simulation (every fork), and its
 * methods on the prototype cost nothing per instance.
 */
class PaymentMethodBook implements PaymentMethods {
  private readonly options: PaymentMethodsOptions

  constructor(options: PaymentMethodsOptions) {
    this.options = options
  }

  check(scope: Scope, value: string, param: string): void {
    if (testCard(value) !== undefined) return
    if (this.options.resource().get(scope, value) === undefined) {
      throw tableError('resource_missing', { kind: 'PaymentMethod', id: value }, { param, status: 400 })
    }
  }

  resolve(scope: Scope, value: string, param: string): PaymentMethod {
    this.check(scope, value, param)
    const card = testCard(value)
    if (card === undefined) return this.options.resource().get(scope, value) as PaymentMethod
    // No `payment_method.created` event exists: making one from a token is silent, as at the provider.
    return this.options.resource().create(scope, {}, NO_ORIGIN, (o) => cardFields(o.id, card))
  }

  get(scope: Scope, id: string): PaymentMethod | undefined {
    return this.options.resource().get(scope, id)
  }

  checkAttachable(scope: Scope, value: string, customer: string, param: string): void {
    this.check(scope, value, param)
    const pm = this.options.resource().get(scope, value)
    if (pm?.customer != null && pm.customer !== customer) {
      throw tableError('payment_method_already_attached', { customer: String(pm.customer) }, { param })
    }
  }

  attach(scope: Scope, id: string, customer: string, origin: Origin): PaymentMethod {
    const { resource, events } = this.options
    const pm = resource().get(scope, id)
    if (pm === undefined) throw resourceMissing('payment_method', id)
    if (pm.customer === customer) return pm
    const attached = resource().put(scope, id, { customer })
    emitSnapshot(events, 'payment_method.attached', scope, attached, origin, undefined, true)
    return attached
  }

  detach(scope: Scope, id: string, origin: Origin): PaymentMethod {
    const { resource, events } = this.options
    const pm = resource().get(scope, id)
    if (pm === undefined) throw resourceMissing('payment_method', id)
    if (pm.customer === null) {
      throw tableError('payment_method_unexpected_state', { id })
    }
    const detached = resource().put(scope, id, { customer: null })
    emitSnapshot(events, 'payment_method.detached', scope, detached, origin, { customer: pm.customer }, true)
    return detached
  }

  list(scope: Scope): PaymentMethod[] {
    return this.options.resource().list(scope)
  }

  ofCustomer(scope: Scope, customer: string): PaymentMethod[] {
    return this.options
      .resource()
      .list(scope)
      .filter((pm) => pm.customer === customer)
  }

  needsAuthentication(scope: Scope, pm: PaymentMethod, at: { offSession: boolean }): boolean {
    const card = cardOf(pm)
    if (card.authentication === undefined || card.authentication === 'never') return false
    return needsAuthentication(card, { offSession: at.offSession, setUp: at.offSession && this.options.setUp(scope, pm) })
  }

  outcome(scope: Scope, pm: PaymentMethod, at: { offSession: boolean; authenticated: boolean }): CardOutcome {
    if (!at.authenticated && this.needsAuthentication(scope, pm, { offSession: at.offSession })) return AUTHENTICATION_REQUIRED
    return cardOf(pm).outcome
  }
}
