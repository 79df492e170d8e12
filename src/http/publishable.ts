import type { Service } from '#domain/service.js'
import { tableError } from '#domain/service-error.js'
import type { Principal } from './route.js'

/** The operations the provider's browser library makes with a publishable key, and the object each names. */
const CLIENT_SECRET_OPERATIONS: ReadonlyMap<string, string> = new Map([
  ['paymentIntents.confirm', 'PaymentIntent'],
  ['paymentIntents.retrieve', 'PaymentIntent'],
  ['setupIntents.confirm', 'SetupIntent'],
  ['setupIntents.retrieve', 'SetupIntent'],
])

/**
 * Whether a publishable key may call this operation: only the intent reads and confirmations the
 * browser library makes with the intent's client secret. Every other use stays refused.
 *
 * @example
 * publishableAllowed('paymentIntents.confirm') // true
 * publishableAllowed('customers.create') // false
 */
export function publishableAllowed(operation: string): boolean {
  return CLIENT_SECRET_OPERATIONS.has(operation)
}

/**
 * Checks the `client_secret` of a publishable-key request against the intent it names, and returns
 * the parameters without it (the secret-key operation has no such parameter). No secret is refused
 * as any publishable use is; a wrong one with the provider's 400 on `client_secret`.
 *
 * @example
 * const params = checkClientSecret(service, principal, 'paymentIntents.confirm', 'pi_1', { client_secret: 'pi_1_secret_x', payment_method: 'pm_card_visa' })
 * // { payment_method: 'pm_card_visa' }
 */
export function checkClientSecret(
  service: Service,
  principal: Principal,
  operation: string,
  id: string,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const kind = CLIENT_SECRET_OPERATIONS.get(operation)
  const { client_secret: given, ...rest } = params
  if (kind === undefined || typeof given !== 'string' || given === '') throw tableError('secret_key_required')
  const found = service.engine.find({ account: principal.account.id, mode: principal.mode }, id)
  if (found === undefined || found.client_secret !== given) {
    throw tableError('client_secret_mismatch', { kind }, { param: 'client_secret' })
  }
  return rest
}
