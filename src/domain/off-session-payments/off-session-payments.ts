import { fromPlain, toPlain } from '#kernel/plain.js'
import type { Task } from '#kernel/scheduler.js'
import { DAY } from '#kernel/time.js'
import type { Resource } from '../engine/resource.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel.js'
import { checkChargeAmount, parseCurrency } from '../ledger/currencies.js'
import type { Scope } from '../mode.js'
import type { Charges } from '../payment-intents/charges.js'
import type { PaymentMethods } from '../payment-intents/payment-methods.js'
import { createScopedStore } from '../scoped-store/scoped-store.js'
import { invalidRequest, resourceMissing, ServiceError } from '../service-error.js'
import { NO_ORIGIN, type Origin } from '../v1-events/emit.js'
import type { OffSessionPayment } from './off-session-payment.js'

/** Delays of the smart-retry schedule after each failed attempt: 1, 3 and 5 days (4 attempts in all). */
export const SMART_RETRY_DELAYS: readonly number[] = [1 * DAY, 3 * DAY, 5 * DAY]

/** Decline codes the issuer will never approve: no retry, `failure_reason: rejected_by_partner`. */
// A card that needs the customer present cannot succeed on a retry without them: fail at once.
const HARD_DECLINES = new Set(['lost_card', 'stolen_card', 'expired_card', 'incorrect_cvc', 'authentication_required'])

export interface OffSessionPaymentCreate {
  amount: { value: number; currency: string }
  cadence: 'recurring' | 'unscheduled'
  customer: string
  paymentMethod: string
  metadata?: Record<string, string>
  retryStrategy?: 'none' | 'smart'
  statementDescriptor?: string
  statementDescriptorSuffix?: string
}

/**
 * Off-session payments (`/v2/payments/off_session_payments`). Create answers `pending`; the first
 * authorisation attempt runs asynchronously at the same virtual instant (`sim.settle()` runs it):
 * success -> `succeeded` (a charge and a balance transaction); a soft decline with
 * `retry_strategy: smart` -> `pending_retry` and a retry on {@link SMART_RETRY_DELAYS}; a hard decline,
 * `retry_strategy: none` or the last retry failing -> `failed`. Cancel works while `pending`,
 * `pending_retry` or `requires_capture`; `canceled` answers 400 `already_canceled`, other statuses
 * 400 `not_cancelable`. Every change emits a thin `v2.payments.off_session_payment.*` event.
 *
 * @example
 * const osp = offSessionPayments.create(scope, { amount: { value: 2000, currency: 'usd' }, cadence: 'recurring', customer, paymentMethod }, origin)
 * await sim.settle() // status 'succeeded' or 'pending_retry' / 'failed'
 */
export interface OffSessionPayments {
  create(scope: Scope, input: OffSessionPaymentCreate, origin: Origin): OffSessionPayment
  get(scope: Scope, id: string): OffSessionPayment | undefined
  require(scope: Scope, id: string): OffSessionPayment
  cancel(scope: Scope, id: string, origin: Origin): OffSessionPayment
  /** Newest first. */
  list(scope: Scope): OffSessionPayment[]
}

export function createOffSessionPayments(
  kernel: Kernel,
  events: EventStore,
  customers: Pick<Resource, 'requireParam'>,
  paymentMethods: PaymentMethods,
  charges: Charges,
): OffSessionPayments {
  const store = createScopedStore<OffSessionPayment>()
  const tasks = new Map<string, Task>()

  const attemptTask = kernel.scheduler.define<{ account: string; mode: Scope['mode']; id: string }>(
    'off_session_payment.attempt',
    ({ account, mode, id }) => {
      const o = store.get({ account, mode }, id) as OffSessionPayment
      tasks.delete(o.id)
      if (o.status === 'pending' || o.status === 'pending_retry') attempt(o)
    },
    { restored: (task, { id }) => tasks.set(id, task) },
  )

  kernel.state.register('off_session_payments', {
    save: () => toPlain(store.save()),
    load(data) {
      store.load(fromPlain(data))
      tasks.clear()
    },
  })

  function emit(o: OffSessionPayment, what: string, origin: Origin): void {
    events.thin({
      type: `v2.payments.off_session_payment.${what}`,
      account: o.account,
      mode: o.mode,
      relatedObject: { id: o.id, type: 'v2.payments.off_session_payment', url: `/v2/payments/off_session_payments/${o.id}` },
      ...(origin.requestId === null
        ? {}
        : { reason: { type: 'request', request: { id: origin.requestId, idempotency_key: origin.idempotencyKey } } }),
    })
  }

  function schedule(o: OffSessionPayment, delay: number): void {
    tasks.set(o.id, attemptTask.after(delay, { account: o.account, mode: o.mode, id: o.id }))
  }

  function attempt(o: OffSessionPayment): void {
    const scope = { account: o.account, mode: o.mode }
    const pm = paymentMethods.get(scope, o.paymentMethod)
    if (pm === undefined) throw new Error(`off-session payment ${o.id}: payment method vanished`)
    o.status = 'processing'
    o.attempts += 1
    o.latestPaymentAttemptRecord = kernel.ids.next(`par_${o.mode}`, 40)
    o.paymentRecord ??= kernel.ids.next(`pr_${o.mode}`, 40)
    emit(o, 'attempt_started', NO_ORIGIN)
    const charge = charges.attempt(
      scope,
      {
        amount: o.amount.value,
        currency: o.amount.currency,
        customer: o.customer,
        paymentMethod: pm,
        paymentIntent: null,
        description: null,
        metadata: o.metadata,
        capture: true,
      },
      NO_ORIGIN,
    )
    o.latestCharge = charge.id
    kernel.trace.append('off_session_payment.attempt', { id: o.id, attempt: o.attempts, status: charge.status })
    if (charge.status === 'succeeded') {
      o.status = 'succeeded'
      o.lastAuthorizationAttemptError = null
      emit(o, 'succeeded', NO_ORIGIN)
      return
    }
    o.lastAuthorizationAttemptError = charge.declineCode ?? charge.failureCode
    const hard = HARD_DECLINES.has(charge.declineCode ?? '')
    const delay = SMART_RETRY_DELAYS[o.attempts - 1]
    if (o.retryStrategy === 'smart' && !hard && delay !== undefined) {
      o.status = 'pending_retry'
      emit(o, 'attempt_failed', NO_ORIGIN)
      schedule(o, delay)
      return
    }
    o.status = 'failed'
    o.failureReason = o.retryStrategy === 'smart' && !hard ? 'retries_exhausted' : 'rejected_by_partner'
    emit(o, 'failed', NO_ORIGIN)
  }

  function require(scope: Scope, id: string): OffSessionPayment {
    const o = store.get(scope, id)
    if (o === undefined) throw resourceMissing('off_session_payment', id)
    return o
  }

  return {
    create(scope, input, origin) {
      const currency = parseCurrency(input.amount.currency, 'amount.currency')
      checkChargeAmount(input.amount.value, currency, 'amount.value')
      customers.requireParam(scope, input.customer, 'customer')
      paymentMethods.check(scope, input.paymentMethod, 'payment_method')
      const existing = paymentMethods.get(scope, input.paymentMethod)
      if (existing !== undefined && existing.customer !== input.customer) {
        throw invalidRequest(
          `The payment method ${input.paymentMethod} is not attached to customer ${input.customer}; off-session payments charge a saved payment method of the customer.`,
          { code: 'invalid_payment_method', param: 'payment_method' },
        )
      }
      const pm = paymentMethods.resolve(scope, input.paymentMethod, 'payment_method')
      if (pm.customer === null) paymentMethods.attach(scope, pm.id, input.customer, origin)
      const o: OffSessionPayment = {
        id: kernel.ids.next(`osp_${scope.mode}`, 20),
        account: scope.account,
        mode: scope.mode,
        created: kernel.clock.now,
        amount: { value: input.amount.value, currency },
        cadence: input.cadence,
        customer: input.customer,
        paymentMethod: pm.id,
        metadata: { ...input.metadata },
        retryStrategy: input.retryStrategy ?? 'smart',
        statementDescriptor: input.statementDescriptor ?? null,
        statementDescriptorSuffix: input.statementDescriptorSuffix ?? null,
        status: 'pending',
        attempts: 0,
        failureReason: null,
        lastAuthorizationAttemptError: null,
        latestPaymentAttemptRecord: null,
        paymentRecord: null,
        latestCharge: null,
      }
      store.add(scope, o)
      kernel.trace.append('off_session_payment.created', { id: o.id, account: scope.account, mode: scope.mode })
      emit(o, 'created', origin)
      schedule(o, 0)
      return o
    },
    get: (scope, id) => store.get(scope, id),
    require,
    cancel(scope, id, origin) {
      const o = require(scope, id)
      if (o.status === 'canceled') {
        throw new ServiceError({
          status: 400,
          type: 'already_canceled',
          code: 'already_canceled',
          message: `The off-session payment ${o.id} is already canceled.`,
        })
      }
      if (o.status !== 'pending' && o.status !== 'pending_retry' && o.status !== 'requires_capture') {
        throw new ServiceError({
          status: 400,
          type: 'not_cancelable',
          code: 'not_cancelable',
          message: `The off-session payment ${o.id} cannot be canceled because its status is ${o.status}; only pending, pending_retry or requires_capture payments can be canceled.`,
        })
      }
      const task = tasks.get(o.id)
      if (task !== undefined) kernel.scheduler.cancel(task)
      tasks.delete(o.id)
      o.status = 'canceled'
      kernel.trace.append('off_session_payment.canceled', { id: o.id })
      emit(o, 'canceled', origin)
      return o
    },
    list: (scope) => store.list(scope),
  }
}
