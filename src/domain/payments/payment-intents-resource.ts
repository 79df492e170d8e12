import { checkConnectParams } from '../connect/connect-charges.js'
import { checkEmail, checkLength } from '../engine/checks.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import { checkChargeAmount, parseCurrency } from '../ledger/currencies.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'
import { captureCharge } from './charge-capture.js'
import { CANCELABLE, CONFIRMABLE, isOffSession, UPDATABLE, unexpectedState } from './payment-intent.js'
import { applyCustomerBalance } from './payment-intent-cash.js'
import { incrementAuthorization } from './payment-intent-increments.js'
import { withReturnUrl } from './payment-intent-redirect.js'

/** The provider's limit on a statement descriptor. */
const STATEMENT_DESCRIPTOR_MAX = 22

type Params = Readonly<Record<string, unknown>>

/**
 * Payment intents with the provider's status machine: `requires_payment_method` -> (payment
 * method set) `requires_confirmation` -> confirm -> `requires_action` (a 3-D Secure test card,
 * customer present) -> `succeeded` (automatic capture) or `requires_capture` (manual) -> capture ->
 * `succeeded`. A declined card leaves it in `requires_payment_method` with `last_payment_error` and
 * answers 402 `card_error`; cancel works from every status but `succeeded` and `canceled` (and
 * releases a held authorisation: the uncaptured charge is refunded whole, no money moved). The
 * engine creates, stores, lists and searches them; the card attempt, its charge and balance
 * transaction and the `payment_intent.*` events are the flow's (`ports.paymentIntents`).
 */
export const paymentIntents: ResourceDeclaration<ResourcePorts> = {
  type: 'PaymentIntent',
  object: 'payment_intent',
  idPrefix: 'pi',
  defaults: ({ id }) => ({
    amount_details: { tip: {} },
    // The default since 2024-04-10; a request of an older version asks for `automatic` (ASYNC_CAPTURE).
    capture_method: 'automatic_async',
    client_secret: `${id}_secret_${id.slice(3, 27)}`,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: ['card'],
    status: 'requires_payment_method',
    transfer_data: null,
  }),
  behaviours: {
    'paymentIntents.incrementAuthorization': incrementAuthorization,
    'paymentIntents.applyCustomerBalance': applyCustomerBalance,
    'paymentIntents.verifyMicrodeposits'(call, _next, { ports }) {
      return ports.paymentIntents.verifyMicrodeposits(
        call.scope,
        call.path.id ?? call.path.intent ?? '',
        call.params,
        call.origin,
      )
    },
    'paymentIntents.create'(call, next, { engine, ports }) {
      const p = call.params
      const currency = parseCurrency(p.currency as string)
      checkChargeAmount(p.amount as number, currency)
      checkConnectParams({ engine, ports }, call, p.amount as number)
      if (typeof p.customer === 'string') engine.resource('customer').requireParam(call.scope, p.customer, 'customer')
      ports.paymentIntents.checkPaymentMethod(call.scope, p.payment_method, p.customer ?? null)
      checkEmail(p.receipt_email, 'receipt_email')
      checkLength(p.statement_descriptor, 'statement_descriptor', STATEMENT_DESCRIPTOR_MAX)
      if (p.confirm === true && typeof p.payment_method !== 'string') {
        throw tableError('payment_intent_no_payment_method', {}, { param: 'payment_method' })
      }
      const pm =
        typeof p.payment_method === 'string'
          ? ports.paymentMethods.resolve(call.scope, p.payment_method, 'payment_method').id
          : undefined
      const created = next(
        { ...p, currency, payment_method: pm, ...automaticByDefault(p) },
        pm === undefined ? undefined : { status: 'requires_confirmation' },
      ) as Json
      if (p.confirm !== true) return created
      const attempted = ports.paymentIntents.attempt(call.scope, created, call.origin, {
        offSession: isOffSession(p.off_session),
        authenticated: false,
        mandateData: p.mandate_data,
      })
      return withReturnUrl(engine, call.scope, attempted, p.return_url)
    },
    'paymentIntents.update'(call, _next, { engine, ports }) {
      const r = engine.resource('payment_intent')
      const pi = r.require(call.scope, call.path.id ?? '')
      const p: Params = call.params
      if (!UPDATABLE.has(pi.status as string)) throw unexpectedState(pi, 'update', UPDATABLE)
      const currency = p.currency === undefined ? (pi.currency as string) : parseCurrency(p.currency as string)
      if (p.amount !== undefined || p.currency !== undefined) checkChargeAmount((p.amount ?? pi.amount) as number, currency)
      checkConnectParams({ engine, ports }, call, (p.amount ?? pi.amount) as number, pi)
      if (typeof p.customer === 'string') engine.resource('customer').requireParam(call.scope, p.customer, 'customer')
      ports.paymentIntents.checkPaymentMethod(call.scope, p.payment_method, p.customer ?? pi.customer)
      checkEmail(p.receipt_email, 'receipt_email')
      checkLength(p.statement_descriptor, 'statement_descriptor', STATEMENT_DESCRIPTOR_MAX)
      if (typeof p.payment_method !== 'string') return r.update(call.scope, pi.id, { ...p, currency }, call.origin)
      const pm = ports.paymentMethods.resolve(call.scope, p.payment_method, 'payment_method').id
      // A new card replaces the one awaiting 3-D Secure; its action no longer applies.
      return r.update(call.scope, pi.id, { ...p, currency, payment_method: undefined }, call.origin, {
        next_action: null,
        payment_method: pm,
        status: 'requires_confirmation',
      })
    },
    'paymentIntents.confirm'(call, _next, { engine, ports }) {
      const r = engine.resource('payment_intent')
      const pi = r.require(call.scope, call.path.id ?? '')
      const given = call.params.payment_method
      if (!CONFIRMABLE.has(pi.status as string)) throw unexpectedState(pi, 'confirm', CONFIRMABLE)
      ports.paymentIntents.checkPaymentMethod(call.scope, given, pi.customer)
      if (typeof given !== 'string' && pi.payment_method === null) {
        throw tableError('payment_intent_confirm_missing_payment_method', {}, { extra: { payment_intent: pi } })
      }
      const ready =
        typeof given === 'string'
          ? r.put(call.scope, pi.id, {
              payment_method: ports.paymentMethods.resolve(call.scope, given, 'payment_method').id,
              status: 'requires_confirmation',
            })
          : pi
      const attempted = ports.paymentIntents.attempt(call.scope, ready, call.origin, {
        offSession: isOffSession(call.params.off_session),
        authenticated: false,
        mandateData: call.params.mandate_data,
      })
      return withReturnUrl(engine, call.scope, attempted, call.params.return_url)
    },
    'paymentIntents.capture'(call, _next, { engine, ports }) {
      const r = engine.resource('payment_intent')
      const pi = r.require(call.scope, call.path.id ?? '')
      if (pi.status !== 'requires_capture') throw unexpectedState(pi, 'capture', ['requires_capture'])
      const capturable = pi.amount_capturable as number
      const amount = (call.params.amount_to_capture ?? capturable) as number
      if (!Number.isSafeInteger(amount) || amount < 1 || amount > capturable) {
        throw tableError('capture_amount_out_of_range', { max: capturable }, { param: 'amount_to_capture' })
      }
      captureCharge(engine, ports, call.scope, pi.latest_charge as string, amount, call.origin)
      const done = r.put(call.scope, pi.id, { amount_capturable: 0, amount_received: amount, status: 'succeeded' })
      ports.paymentIntents.emit('payment_intent.succeeded', call.scope, done, call.origin)
      return done
    },
    'paymentIntents.cancel'(call, _next, { engine, ports }) {
      const r = engine.resource('payment_intent')
      const pi = r.require(call.scope, call.path.id ?? '')
      if (!CANCELABLE.has(pi.status as string)) throw unexpectedState(pi, 'cancel', CANCELABLE)
      const held = pi.status === 'requires_capture' ? ports.charges.get(call.scope, pi.latest_charge as string) : undefined
      if (held !== undefined) {
        // The authorisation is released: the uncaptured charge is refunded whole, with no money moved.
        const expired = call.params.cancellation_reason === 'automatic'
        const fields = {
          charge: held.id,
          payment_intent: pi.id,
          status: 'succeeded',
          ...(expired ? { reason: 'expired_uncaptured_charge' } : {}),
        }
        // Made with the refund, so `charge.refunded` comes before `refund.created` as for any refund.
        engine.resource('refund').create(call.scope, { amount: held.amount, currency: held.currency }, call.origin, (created) => {
          ports.charges.release(call.scope, held.id, { ...created, ...fields }, call.origin)
          return fields
        })
      }
      const canceled = r.put(call.scope, pi.id, {
        amount_capturable: 0,
        canceled_at: engine.now(),
        cancellation_reason: call.params.cancellation_reason ?? null,
        next_action: null,
        status: 'canceled',
      })
      ports.paymentIntents.emit('payment_intent.canceled', call.scope, canceled, call.origin)
      return canceled
    },
  },
}

/**
 * An intent naming no payment method types accepts the ones the account enables, redirects
 * allowed (the default since 2023-08-16; a request of an older version names `card`).
 */
function automaticByDefault(p: Params): Params {
  const named = p.payment_method_types ?? p.allowed_payment_method_types ?? p.automatic_payment_methods
  return named === undefined ? { automatic_payment_methods: { allow_redirects: 'always', enabled: true } } : {}
}
