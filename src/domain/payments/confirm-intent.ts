import { type CustomerError, type CustomerScope, customerStep, scopeOf } from '../customer-scope.js'
import type { Json } from '../engine/list.js'
import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Service } from '../service.js'
import { tableError } from '../service-error.js'

/** What the customer confirms with: a payment method (a test token such as `pm_card_visa`, or an id). */
export interface ConfirmInput extends CustomerScope {
  readonly paymentMethod?: string
  /** Where the customer returns after a redirect: a 3-D Secure step then redirects (`redirect_to_url`). */
  readonly returnUrl?: string
}

/** The intent after the customer's confirmation, and the card's refusal when it declined. */
export interface ConfirmResult {
  readonly intent: Json
  readonly error?: CustomerError
}

const KINDS = {
  payment_intent: { operation: 'paymentIntents.confirm', noun: 'PaymentIntent' },
  setup_intent: { operation: 'setupIntents.confirm', noun: 'SetupIntent' },
} as const

/**
 * Confirms an intent by its client secret, as the provider's browser library does with the
 * publishable key: the secret names the intent (`pi_…_secret_…`), a wrong one is refused with the
 * provider's 400, and a declined card comes back as `error` beside the intent.
 *
 * @example
 * const { intent } = confirmIntent(service, 'payment_intent', pi.client_secret, { paymentMethod: 'pm_card_visa' })
 * intent.status // 'succeeded'
 */
export function confirmIntent(
  service: Service,
  kind: keyof typeof KINDS,
  clientSecret: string,
  input: ConfirmInput,
): ConfirmResult {
  const { operation, noun } = KINDS[kind]
  const scope = scopeOf(service, input)
  const id = String(clientSecret).split('_secret_')[0] ?? ''
  const found = service.engine.find(scope, id)
  if (found === undefined || found.object !== kind || found.client_secret !== clientSecret) {
    throw tableError('client_secret_mismatch', { kind: noun }, { param: 'client_secret' })
  }
  const params: Record<string, unknown> = {}
  if (input.paymentMethod !== undefined) params.payment_method = input.paymentMethod
  if (input.returnUrl !== undefined) params.return_url = input.returnUrl
  const step = customerStep(() => service.engine.run(operation, { scope, origin: NO_ORIGIN, path: { id }, params }))
  const intent = (service.engine.find(scope, id) ?? found) as Json
  return step.error === undefined ? { intent } : { intent, error: step.error }
}
