import { type CustomerScope, scopeOf } from '../customer-scope.js'
import type { Json } from '../engine/list.js'
import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Service } from '../service.js'
import { resourceMissing } from '../service-error.js'
import { unexpectedState } from './payment-intent.js'
import { authenticateSetup } from './setup-intents/setup-flow.js'

/** How the customer's 3-D Secure challenge ends. */
export interface AuthenticateInput extends CustomerScope {
  readonly outcome: 'complete' | 'fail'
}

/**
 * Completes or fails the 3-D Secure challenge of an intent in `requires_action`, as the customer
 * does in the issuer's dialog. A payment intent (`pi_…`): `complete` charges the card, `fail`
 * returns the intent to `requires_payment_method` with the provider's
 * `payment_intent_authentication_failure`. A setup intent (`seti_…`): `complete` sets the card up,
 * `fail` returns it to `requires_payment_method` with `setup_intent_authentication_failure`.
 *
 * @example
 * authenticate(service, pi.id, { outcome: 'fail' }).status // 'requires_payment_method'
 */
export function authenticate(service: Service, intentId: string, input: AuthenticateInput): Json {
  if (input.outcome !== 'complete' && input.outcome !== 'fail') {
    throw new TypeError(`customer.authenticate: outcome must be 'complete' or 'fail'; got ${String(input.outcome)}`)
  }
  const scope = scopeOf(service, input)
  const outcome = input.outcome === 'complete' ? 'succeed' : 'fail'
  if (intentId.startsWith('seti_')) {
    const deps = { engine: service.engine, paymentMethods: service.paymentMethods }
    return authenticateSetup(deps, scope, intentId, outcome, NO_ORIGIN)
  }
  const found = service.paymentIntents.get(scope, intentId)
  if (found === undefined) throw resourceMissing('payment_intent', intentId)
  if (found.status !== 'requires_action') throw unexpectedState(found, 'authenticate', ['requires_action'])
  return service.paymentIntents.authenticate(scope, intentId, outcome, NO_ORIGIN) as unknown as Json
}
