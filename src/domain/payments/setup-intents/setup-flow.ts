import { errorDocUrl, errorMessage } from '#catalogue/errors.js'
import { settlePendingSetupIntent } from '../../billing/subscriptions/pending-setup-intent.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { Origin } from '../../events/emit-snapshot.js'
import type { Scope } from '../../mode.js'
import { resourceMissing, tableError } from '../../service-error.js'
import { createMandate } from '../mandates.js'
import { threeDSecureAction } from '../payment-intent.js'
import type { PaymentMethod } from '../payment-method.js'
import type { PaymentMethods } from '../payment-methods.js'

/** What the setup intent flow uses: the engine's stores and events, and the payment methods area. */
export interface SetupFlowDeps {
  readonly engine: Engine
  readonly paymentMethods: PaymentMethods
}

/**
 * Ends a setup intent's confirmation with its payment method: a card whose issuer asks for 3-D
 * Secure with the customer present stops in `requires_action` (`use_stripe_sdk`,
 * `setup_intent.requires_action`); otherwise the setup succeeds: the mandate the customer accepted
 * (`mandate_data`, off-session setups), the payment method attached to the intent's customer
 * (`payment_method.attached`), then `setup_intent.succeeded`.
 *
 * @example
 * confirmSetup(deps, scope, si, pm, undefined, origin).status // 'succeeded' for pm_card_visa
 */
export function confirmSetup(
  deps: SetupFlowDeps,
  scope: Scope,
  si: Json,
  pm: PaymentMethod,
  mandateData: unknown,
  origin: Origin,
): Json {
  const { engine, paymentMethods } = deps
  const r = engine.resource('setup_intent')
  if (paymentMethods.needsAuthentication(scope, pm, { offSession: false })) {
    const brand = (pm.card as { brand?: unknown } | null)?.brand
    const waiting = r.put(scope, si.id, {
      last_setup_error: null,
      next_action: threeDSecureAction(si, scope.account, brand),
      payment_method: pm.id,
      status: 'requires_action',
    })
    engine.emit('setup_intent.requires_action', scope, waiting, origin)
    return waiting
  }
  return succeedSetup(deps, scope, si, pm, mandateData, origin)
}

/**
 * A setup intent succeeds with its payment method: the mandate the customer accepted (off-session
 * setups), the method attached to the intent's customer (`payment_method.attached`),
 * `setup_intent.succeeded`, and a subscription waiting on it settled. Used when a 3-D Secure
 * challenge or microdeposits verification ends the wait too.
 *
 * @example
 * succeedSetup(deps, scope, si, pm, undefined, origin).status // 'succeeded'
 */
export function succeedSetup(
  deps: SetupFlowDeps,
  scope: Scope,
  si: Json,
  pm: PaymentMethod,
  mandateData: unknown,
  origin: Origin,
): Json {
  const { engine, paymentMethods } = deps
  // A setup for later off-session payments with the customer's acceptance records a mandate.
  const mandate =
    mandateData !== undefined && si.usage === 'off_session'
      ? createMandate(engine, scope, pm, mandateData, 'active').id
      : si.mandate
  if (typeof si.customer === 'string') paymentMethods.attach(scope, pm.id, si.customer, origin)
  const done = engine.resource('setup_intent').put(scope, si.id, {
    last_setup_error: null,
    mandate: mandate ?? null,
    next_action: null,
    payment_method: pm.id,
    status: 'succeeded',
  })
  engine.emit('setup_intent.succeeded', scope, done, origin)
  // A subscription waiting on this setup (`pending_setup_intent`) is settled however it succeeded.
  settlePendingSetupIntent(engine, scope, done, origin)
  return done
}

/**
 * Ends the customer's 3-D Secure challenge of a setup intent in `requires_action`: `succeed` sets
 * the card up (attached to the intent's customer, `setup_intent.succeeded`), so later off-session
 * payments with it need no authentication; `fail` returns the intent to `requires_payment_method`
 * with `last_setup_error.code` `setup_intent_authentication_failure` and emits
 * `setup_intent.setup_failed`. Another status is refused with 400, changing nothing.
 *
 * @example
 * authenticateSetup(deps, scope, 'seti_1', 'fail', origin).status // 'requires_payment_method'
 */
export function authenticateSetup(
  deps: SetupFlowDeps,
  scope: Scope,
  id: string,
  outcome: 'succeed' | 'fail',
  origin: Origin,
): Json {
  const { engine, paymentMethods } = deps
  const r = engine.resource('setup_intent')
  const si = r.get(scope, id)
  if (si === undefined) throw resourceMissing('setup_intent', id)
  if (si.status !== 'requires_action') {
    throw tableError('setup_intent_unexpected_state', {
      action: 'authenticate',
      status: String(si.status),
      past: 'authenticated',
      allowed: 'requires_action',
    })
  }
  const pm = paymentMethods.get(scope, String(si.payment_method))
  if (pm === undefined) throw resourceMissing('payment_method', String(si.payment_method))
  if (outcome === 'succeed') return succeedSetup(deps, scope, si, pm, undefined, origin)
  const failed = r.put(scope, id, {
    last_setup_error: {
      code: 'setup_intent_authentication_failure',
      doc_url: errorDocUrl('setup_intent_authentication_failure'),
      message: errorMessage('setup_intent_authentication_failure'),
      payment_method: pm,
      type: 'invalid_request_error',
    },
    next_action: null,
    payment_method: null,
    status: 'requires_payment_method',
  })
  engine.emit('setup_intent.setup_failed', scope, failed, origin)
  return failed
}
