import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Mode } from '../mode.js'
import type { Service } from '../service.js'
import type { PaymentIntent } from './payment-intent.js'

/** How the customer's 3-D Secure step ends, and whose intent it is (default: the platform, test mode). */
export interface AuthenticationCompletion {
  readonly outcome: 'succeed' | 'fail'
  readonly account?: string
  readonly mode?: Mode
}

/**
 * Admin methods of payment intents: stand in for the customer's browser in the 3-D Secure step.
 *
 * @example
 * const pi = await stripe.paymentIntents.create({ amount: 2000, currency: 'usd', payment_method: 'pm_card_authenticationRequired', confirm: true })
 * pi.status // 'requires_action'
 * sim.admin.completeAuthentication(pi.id, { outcome: 'succeed' }).status // 'succeeded'
 */
export interface PaymentIntentAdmin {
  /** Completes (`succeed`) or fails (`fail`) the authentication of an intent in `requires_action`. */
  completeAuthentication(paymentIntentId: string, input: AuthenticationCompletion): PaymentIntent
}

/**
 * Builds the payment intent part of `sim.admin`.
 *
 * @example
 * const admin = { ...createPaymentIntentAdmin(service) }
 */
export function createPaymentIntentAdmin(service: Service): PaymentIntentAdmin {
  return {
    completeAuthentication(id, input) {
      const name = 'admin.completeAuthentication'
      const outcome = (input as Partial<AuthenticationCompletion> | undefined)?.outcome
      if (outcome !== 'succeed' && outcome !== 'fail') {
        throw new TypeError(`${name}: outcome must be 'succeed' or 'fail'; got ${String(outcome)}`)
      }
      const scope = { account: input.account ?? service.accounts.platform.id, mode: input.mode ?? 'test' }
      const p = service.paymentIntents.get(scope, id)
      if (p === undefined) {
        throw new TypeError(`${name}: no payment intent '${id}' in account ${scope.account} (${scope.mode} mode)`)
      }
      if (p.status !== 'requires_action') {
        throw new TypeError(`${name}: payment intent '${id}' has status ${p.status}; only requires_action awaits authentication`)
      }
      return service.paymentIntents.authenticate(scope, id, outcome, NO_ORIGIN)
    },
  }
}
