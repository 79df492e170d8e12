import type { Json } from './engine/list.js'
import { NO_ORIGIN } from './events/emit-snapshot.js'
import type { Mode, Scope } from './mode.js'
import type { Service } from './service.js'
import { ServiceError } from './service-error.js'

/** Whose object a customer-side action acts on (default: the platform, test mode). */
export interface CustomerScope {
  readonly account?: string
  readonly mode?: Mode
}

/**
 * The scope of a customer-side action: the account named, else the platform, in test mode unless told.
 *
 * @example
 * scopeOf(service, {}) // { account: 'acct_platform…', mode: 'test' }
 */
export function scopeOf(service: Service, input: CustomerScope | undefined): Scope {
  return { account: input?.account ?? service.accounts.platform.id, mode: input?.mode ?? 'test' }
}

/**
 * The provider's error of a refusal the customer sees (a declined card), as the browser library
 * hands it back: the envelope's `error` member.
 *
 * @example
 * const { error } = await sim.customer.confirmPaymentIntent(secret, { paymentMethod: 'pm_card_chargeDeclined' })
 * error?.code // 'card_declined'
 */
export type CustomerError = Readonly<Record<string, unknown>>

/**
 * Runs a customer step, turning a refusal of the card (`card_error`) into the error the browser
 * library answers beside the object; any other refusal is thrown as the API would answer it.
 *
 * @example
 * const { error } = customerStep(() => engine.run('invoices.pay', call))
 */
export function customerStep<T>(step: () => T): { readonly value?: T; readonly error?: CustomerError } {
  try {
    return { value: step() }
  } catch (caught) {
    if (caught instanceof ServiceError && caught.type === 'card_error') return { error: caught.toJSON().error }
    throw caught
  }
}

/**
 * Runs an operation as the customer's side does: no origin (the customer is not an API caller),
 * with the inline prices the object holds let through (`heldPrices`).
 *
 * @example
 * runAsCustomer(service, scope, 'subscriptions.create', { customer: 'cus_1', items: [{ price: 'price_1' }] })
 */
export function runAsCustomer(
  service: Service,
  scope: Scope,
  op: string,
  params: Record<string, unknown>,
  path: Record<string, string> = {},
  heldPrices: readonly string[] = [],
): Json {
  return service.engine.run(op, { scope, origin: NO_ORIGIN, path, params, heldPrices }) as Json
}
