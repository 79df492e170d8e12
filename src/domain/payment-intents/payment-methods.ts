import { fromPlain, toPlain } from '#kernel/plain.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel.js'
import type { Scope } from '../mode.js'
import { createScopedStore } from '../scoped-store/scoped-store.js'
import { invalidRequest, resourceMissing } from '../service-error.js'
import { emitSnapshot, type Origin } from '../v1-events/emit.js'
import { type PaymentMethod, paymentMethodJson, testCard } from './payment-method.js'

/**
 * Card payment methods per account and mode. A test token (`pm_card_visa`, `pm_card_chargeDeclined`,
 * ...) makes a new payment method each time it is used, as the provider does; a `pm_` id must exist
 * in the same scope.
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
}

export function createPaymentMethods(kernel: Kernel, events: EventStore): PaymentMethods {
  const store = createScopedStore<PaymentMethod>()
  kernel.state.register('payment_methods', {
    save: () => toPlain(store.save()),
    load: (data) => store.load(fromPlain(data)),
  })

  function check(scope: Scope, value: string, param: string): void {
    if (testCard(value) !== undefined) return
    if (store.get(scope, value) === undefined) {
      throw invalidRequest(`No such PaymentMethod: '${value}'`, { code: 'resource_missing', param })
    }
  }

  return {
    check,
    resolve(scope, value, param) {
      check(scope, value, param)
      const card = testCard(value)
      if (card === undefined) return store.get(scope, value) as PaymentMethod
      const pm: PaymentMethod = {
        id: kernel.ids.next('pm', 24),
        account: scope.account,
        mode: scope.mode,
        created: kernel.clock.now,
        brand: card.brand,
        last4: card.last4,
        outcome: card.outcome,
        authentication: card.authentication ?? 'never',
        ...(card.bypassPending === true ? { bypassPending: true } : {}),
        customer: null,
        setUp: false,
      }
      store.add(scope, pm)
      return pm
    },
    get: (scope, id) => store.get(scope, id),
    checkAttachable(scope, value, customer, param) {
      check(scope, value, param)
      const pm = store.get(scope, value)
      if (pm?.customer != null && pm.customer !== customer) {
        throw invalidRequest(`The payment method you provided has already been attached to a customer (${pm.customer}).`, {
          code: 'payment_method_unexpected_state',
          param,
        })
      }
    },
    attach(scope, id, customer, origin) {
      const pm = store.get(scope, id)
      if (pm === undefined) throw resourceMissing('payment_method', id)
      if (pm.customer === customer) return pm
      pm.customer = customer
      emitSnapshot(events, 'payment_method.attached', scope, paymentMethodJson(pm), origin)
      return pm
    },
    detach(scope, id, origin) {
      const pm = store.get(scope, id)
      if (pm === undefined) throw resourceMissing('payment_method', id)
      if (pm.customer === null) {
        throw invalidRequest(`The payment method ${id} is not attached to a customer.`, {
          code: 'payment_method_unexpected_state',
        })
      }
      const previous = pm.customer
      pm.customer = null
      emitSnapshot(events, 'payment_method.detached', scope, paymentMethodJson(pm), origin, { customer: previous })
      return pm
    },
    list: (scope) => store.list(scope),
    ofCustomer: (scope, customer) => store.list(scope).filter((pm) => pm.customer === customer),
  }
}
