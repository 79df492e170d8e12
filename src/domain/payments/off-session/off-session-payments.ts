import { fromPlain, toPlain } from '#kernel/plain.js'
import type { Task, TaskKind } from '#kernel/scheduler.js'
import { checkLength, checkMetadata } from '../../engine/checks.js'
import type { Resource } from '../../engine/resource.js'
import { createScopedStore } from '../../engine/scoped-store.js'
import { pageV2, type V2Page } from '../../engine/v2-list.js'
import type { Origin } from '../../events/emit-snapshot.js'
import type { EventStore } from '../../events/event-store.js'
import type { Kernel } from '../../kernel-parts.js'
import { checkChargeAmount, parseCurrency } from '../../ledger/currencies.js'
import type { Scope } from '../../mode.js'
import { resourceMissing, tableError } from '../../service-error.js'
import type { Charges } from '../charges.js'
import type { PaymentMethods } from '../payment-methods.js'
import { type AuthorisationPorts, authorise } from './authorisation.js'
import { newOffSessionPayment, type OffSessionPayment, type OffSessionPaymentCreate } from './off-session-payment.js'
import { MAX_STATEMENT_DESCRIPTOR } from './params.js'

const BASE = '/v2/payments/off_session_payments'
const CANCELABLE = new Set(['pending', 'pending_retry', 'requires_capture'])

/**
 * Off-session payments (`/v2/payments/off_session_payments`), each stored once as the API shows
 * it. Create answers `pending`; the first authorisation attempt runs asynchronously at the same
 * virtual instant (`sim.settle()` runs it, see `authorise`). Cancel works while `pending`,
 * `pending_retry` or `requires_capture`; `canceled` answers 400 `already_canceled`, other
 * statuses 400 `not_cancelable`. Every change emits a thin `v2.payments.off_session_payment.*` event.
 *
 * @example
 * const osp = offSessionPayments.create(scope, { amount: { value: 2000, currency: 'usd' }, cadence: 'recurring', customer, payment_method }, origin)
 * await sim.settle() // status 'succeeded' or 'pending_retry' / 'failed'
 */
export interface OffSessionPayments {
  create(scope: Scope, input: OffSessionPaymentCreate, origin: Origin): OffSessionPayment
  get(scope: Scope, id: string): OffSessionPayment | undefined
  require(scope: Scope, id: string): OffSessionPayment
  cancel(scope: Scope, id: string, origin: Origin): OffSessionPayment
  /** Newest first. */
  list(scope: Scope): OffSessionPayment[]
  /** A v2 page of the list (`limit`, `page`). */
  page(scope: Scope, params: Readonly<Record<string, unknown>>): V2Page<OffSessionPayment>
}

/**
 * The off-session payments of a service.
 *
 * @example
 * const offSessionPayments = createOffSessionPayments(kernel, events, customers, paymentMethods, charges)
 */
export function createOffSessionPayments(
  kernel: Kernel,
  events: EventStore,
  customers: Pick<Resource, 'requireParam'>,
  paymentMethods: PaymentMethods,
  charges: Charges,
): OffSessionPayments {
  return new OffSessionBook(kernel, events, customers, paymentMethods, charges)
}

type AttemptArgs = { account: string; mode: Scope['mode']; id: string }

/**
 * The off-session payments' state and operations; also the ports an authorisation attempt uses
 * (`authorise` calls their methods on it). A class: it is made per simulation (every fork), and
 * its methods on the prototype cost nothing per instance.
 */
class OffSessionBook implements OffSessionPayments, AuthorisationPorts {
  readonly kernel: Kernel
  readonly paymentMethods: PaymentMethods
  readonly charges: Charges
  private readonly events: EventStore
  private readonly customers: Pick<Resource, 'requireParam'>
  private readonly store = createScopedStore<OffSessionPayment>()
  /** The pending attempt of each payment waiting for one. */
  private readonly tasks = new Map<string, Task>()
  private readonly attemptTask: TaskKind<AttemptArgs>

  constructor(
    kernel: Kernel,
    events: EventStore,
    customers: Pick<Resource, 'requireParam'>,
    paymentMethods: PaymentMethods,
    charges: Charges,
  ) {
    this.kernel = kernel
    this.events = events
    this.customers = customers
    this.paymentMethods = paymentMethods
    this.charges = charges
    const { store, tasks } = this
    this.attemptTask = kernel.scheduler.define<AttemptArgs>(
      'off_session_payment.attempt',
      ({ account, mode, id }) => {
        const scope = { account, mode }
        const o = store.get(scope, id) as OffSessionPayment
        tasks.delete(o.id)
        if (o.status === 'pending' || o.status === 'pending_retry') authorise(this, o, scope)
      },
      {
        restored(task, { id }) {
          return tasks.set(id, task)
        },
      },
    )
    kernel.state.register('off_session_payments', {
      save() {
        return toPlain(store.save())
      },
      load(data) {
        store.load(fromPlain(data))
        tasks.clear()
      },
    })
  }

  create(scope: Scope, input: OffSessionPaymentCreate, origin: Origin): OffSessionPayment {
    const { kernel, paymentMethods } = this
    const currency = this.check(scope, input)
    const pm = paymentMethods.resolve(scope, input.payment_method, 'payment_method')
    if (pm.customer === null) paymentMethods.attach(scope, pm.id, input.customer, origin)
    const id = kernel.ids.next(`osp_${scope.mode}`, 20)
    const o = newOffSessionPayment(id, scope, kernel.clock.now, input, currency, pm.id)
    this.store.add(scope, o)
    kernel.trace.append('off_session_payment.created', { id: o.id, account: scope.account, mode: scope.mode })
    this.emit(o, scope, 'created', origin)
    this.retryAfter(o, scope, 0)
    return o
  }

  get(scope: Scope, id: string): OffSessionPayment | undefined {
    return this.store.get(scope, id)
  }

  require(scope: Scope, id: string): OffSessionPayment {
    const o = this.store.get(scope, id)
    if (o === undefined) throw resourceMissing('off_session_payment', id)
    return o
  }

  cancel(scope: Scope, id: string, origin: Origin): OffSessionPayment {
    const o = this.require(scope, id)
    if (o.status === 'canceled') {
      throw tableError('already_canceled', { id: o.id })
    }
    if (!CANCELABLE.has(o.status)) {
      throw tableError('not_cancelable', { id: o.id, status: o.status })
    }
    const task = this.tasks.get(o.id)
    if (task !== undefined) this.kernel.scheduler.cancel(task)
    this.tasks.delete(o.id)
    o.status = 'canceled'
    this.kernel.trace.append('off_session_payment.canceled', { id: o.id })
    this.emit(o, scope, 'canceled', origin)
    return o
  }

  list(scope: Scope): OffSessionPayment[] {
    return this.store.list(scope)
  }

  page(scope: Scope, params: Readonly<Record<string, unknown>>): V2Page<OffSessionPayment> {
    return pageV2(this.store.list(scope), params, BASE)
  }

  /** Emits `v2.payments.off_session_payment.<what>`, with the request that caused it if any. */
  emit(o: OffSessionPayment, scope: Scope, what: string, origin?: Origin): void {
    this.events.thin({
      type: `v2.payments.off_session_payment.${what}`,
      account: scope.account,
      mode: scope.mode,
      relatedObject: { id: o.id, type: 'v2.payments.off_session_payment', url: `${BASE}/${o.id}` },
      ...(origin === undefined || origin.requestId === null
        ? {}
        : { reason: { type: 'request', request: { id: origin.requestId, idempotency_key: origin.idempotencyKey } } }),
    })
  }

  /** Schedules the payment's next authorisation attempt after `delay` ms. */
  retryAfter(o: OffSessionPayment, scope: Scope, delay: number): void {
    this.tasks.set(o.id, this.attemptTask.after(delay, { account: scope.account, mode: scope.mode, id: o.id }))
  }

  /** Every check of a create, before anything changes; answers the currency. */
  private check(scope: Scope, input: OffSessionPaymentCreate) {
    const currency = parseCurrency(input.amount.currency, 'amount.currency')
    checkChargeAmount(input.amount.value, currency, 'amount.value')
    checkMetadata(input.metadata)
    checkLength(input.statement_descriptor, 'statement_descriptor', MAX_STATEMENT_DESCRIPTOR)
    checkLength(input.statement_descriptor_suffix, 'statement_descriptor_suffix', MAX_STATEMENT_DESCRIPTOR)
    this.customers.requireParam(scope, input.customer, 'customer')
    this.paymentMethods.check(scope, input.payment_method, 'payment_method')
    const existing = this.paymentMethods.get(scope, input.payment_method)
    if (existing !== undefined && existing.customer !== input.customer) {
      throw tableError(
        'invalid_payment_method',
        { id: input.payment_method, customer: input.customer },
        { param: 'payment_method' },
      )
    }
    return currency
  }
}
