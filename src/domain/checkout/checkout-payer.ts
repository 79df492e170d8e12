import { errorDocUrl } from '#catalogue/errors.js'
import type { Json } from '../engine/list.js'
import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { TEST_BANK_ACCOUNTS } from '../payments/bank-debit.js'
import { cardOf, testCard } from '../payments/payment-method.js'
import type { Service } from '../service.js'
import { ServiceError } from '../service-error.js'

/**
 * Whether the customer pays with a delayed method (a US bank account debit, one of the provider's
 * test account tokens such as `pm_usBankAccount_accountClosed`): the session completes `unpaid`
 * and the outcome comes later on the clock.
 *
 * @example
 * isDelayedMethod('pm_usBankAccount') // true
 * isDelayedMethod('pm_card_visa')     // false
 */
export function isDelayedMethod(paymentMethod: string): boolean {
  return TEST_BANK_ACCOUNTS[paymentMethod] !== undefined
}

/**
 * Refuses a card that declines before the customer's step changes anything: the 402 `card_error`
 * the provider's page shows (the session stays open). Cards that succeed, and ids the caller's
 * scope does not hold (the engine refuses those itself), pass.
 *
 * @example
 * checkCardSucceeds(service, scope, 'pm_card_chargeDeclined') // throws ServiceError 402 card_declined
 */
export function checkCardSucceeds(service: Service, scope: Scope, paymentMethod: string): void {
  const stored = paymentMethod.startsWith('pm_') ? service.paymentMethods.get(scope, paymentMethod) : undefined
  const card = stored === undefined ? testCard(paymentMethod) : stored.type === 'card' ? cardOf(stored) : undefined
  const outcome = card?.outcome
  if (outcome?.kind !== 'decline') return
  throw new ServiceError({
    status: 402,
    type: 'card_error',
    code: outcome.code,
    message: outcome.message,
    // A bank debit's refusal has no issuer decline code: the member is absent, never null.
    extra: {
      ...(outcome.declineCode === null ? {} : { decline_code: outcome.declineCode }),
      doc_url: errorDocUrl(outcome.code),
    },
  })
}

/**
 * Whether the card asks the customer present for 3-D Secure (a test token or a stored card of the
 * scope), checked without making anything.
 *
 * @example
 * asksChallenge(service, scope, 'pm_card_threeDSecure2Required') // true
 */
export function asksChallenge(service: Service, scope: Scope, paymentMethod: string): boolean {
  const stored = paymentMethod.startsWith('pm_') ? service.paymentMethods.get(scope, paymentMethod) : undefined
  const card = stored === undefined ? testCard(paymentMethod) : stored.type === 'card' ? cardOf(stored) : undefined
  return card?.authentication === 'always' || card?.authentication === 'unless_set_up'
}

/** What the customer typed on the page. */
export interface PayerDetails {
  readonly email: string | null
  readonly name: string | null
}

/**
 * The customer of a completion: the session's own, else one made now when the session's mode or
 * `customer_creation: 'always'` asks for one (`customer.created`), else none (a guest).
 *
 * @example
 * customerFor(service, scope, session, { email: 'jenny@example.com', name: null }) // 'cus_…' or null
 */
export function customerFor(service: Service, scope: Scope, session: Json, payer: PayerDetails): string | null {
  if (typeof session.customer === 'string') return session.customer
  const makes = session.mode === 'subscription' || session.customer_creation === 'always'
  if (!makes) return null
  const params = {
    ...(payer.email === null ? {} : { email: payer.email }),
    ...(payer.name === null ? {} : { name: payer.name }),
  }
  const made = service.engine.run('customers.create', { scope, origin: NO_ORIGIN, path: {}, params }) as Json
  return made.id
}

/**
 * The `customer_details` a completed session shows: what the customer typed, over the customer's own.
 *
 * @example
 * customerDetails(service, scope, 'cus_1', { email: null, name: null }) // { email: 'jenny@example.com', ... }
 */
export function customerDetails(service: Service, scope: Scope, customer: string | null, payer: PayerDetails): Json {
  const stored = customer === null ? undefined : service.engine.resource('customer').get(scope, customer)
  return {
    address: stored?.address ?? null,
    email: payer.email ?? (stored?.email as string | null | undefined) ?? null,
    name: payer.name ?? (stored?.name as string | null | undefined) ?? null,
    phone: stored?.phone ?? null,
    tax_exempt: stored?.tax_exempt ?? 'none',
    tax_ids: [],
  } as unknown as Json
}

/** The address the simulated customer types when a session asks for one, per country. */
const TEST_ADDRESS = { line1: '510 Townsend St', line2: null, city: 'San Francisco', state: 'CA', postal_code: '94103' }

/**
 * The `collected_information` of a completed session: the shipping details the customer typed when
 * the session collects a shipping address (the test address, in the first allowed country, under
 * the name typed or the test customer's), else what the session already holds (set by an update).
 *
 * @example
 * collectedInformation(session, { email: null, name: 'Jenny Rosen' })
 * // { business_name: null, individual_name: null, shipping_details: { name: 'Jenny Rosen', address: { country: 'US', ... } } }
 */
export function collectedInformation(session: Json, payer: PayerDetails): unknown {
  const held = session.collected_information as Json | null | undefined
  const collection = session.shipping_address_collection as { allowed_countries?: string[] } | null | undefined
  const country = collection?.allowed_countries?.[0]
  if (country === undefined || (held?.shipping_details ?? null) !== null) return held ?? null
  const address = country === 'US' ? { ...TEST_ADDRESS, country } : { ...TEST_ADDRESS, state: null, postal_code: null, country }
  return {
    business_name: held?.business_name ?? null,
    individual_name: held?.individual_name ?? null,
    shipping_details: { address, name: payer.name ?? 'Jenny Rosen' },
  }
}
