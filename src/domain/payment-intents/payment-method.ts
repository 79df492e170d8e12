import type { Mode } from '../mode.js'

/** What a card does when charged: succeed, or decline with the provider's codes. */
export type CardOutcome =
  | { readonly kind: 'succeed' }
  | { readonly kind: 'decline'; readonly code: string; readonly declineCode: string | null; readonly message: string }

/**
 * When a card's issuer asks for 3-D Secure: `never`; `always` (every payment, however the card was
 * set up); `unless_set_up` (every on-session payment, and off-session ones until the card was saved
 * with an authenticated payment).
 */
export type CardAuthentication = 'never' | 'always' | 'unless_set_up'

/** A card payment method of one account and mode, made from a test token such as `pm_card_visa`. */
export interface PaymentMethod {
  readonly id: string
  readonly account: string
  readonly mode: Mode
  readonly created: number
  readonly brand: string
  readonly last4: string
  readonly outcome: CardOutcome
  readonly authentication: CardAuthentication
  /** Funds of its charges are available at once instead of pending (test card 4000000000000077). */
  readonly bypassPending?: boolean
  customer: string | null
  /** Saved for future use by an authenticated payment (lifts `unless_set_up` for off-session payments). */
  setUp: boolean
}

interface TestCard {
  readonly brand: string
  readonly last4: string
  readonly outcome: CardOutcome
  readonly authentication?: CardAuthentication
  readonly bypassPending?: boolean
}

/**
 * Whether a payment with this card needs the customer to authenticate first.
 *
 * @example
 * needsAuthentication(pm, { offSession: true }) // true for pm_card_authenticationRequired
 */
export function needsAuthentication(pm: PaymentMethod, at: { offSession: boolean }): boolean {
  if (pm.authentication === 'always') return true
  if (pm.authentication === 'unless_set_up') return !(at.offSession && pm.setUp)
  return false
}

const declined = (code: string, declineCode: string | null, message: string): CardOutcome => ({
  kind: 'decline',
  code,
  declineCode,
  message,
})

/**
 * The provider's test payment method tokens and how each card behaves. A null-prototype object:
 * tokens arrive from requests, and `constructor` or `toString` must not be taken for a card.
 *
 * @example
 * TEST_CARDS.pm_card_visa?.last4 // '4242'
 */
export const TEST_CARDS: Readonly<Record<string, TestCard>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, TestCard>, {
    pm_card_visa: { brand: 'visa', last4: '4242', outcome: { kind: 'succeed' } },
    pm_card_bypassPending: { brand: 'visa', last4: '0077', outcome: { kind: 'succeed' }, bypassPending: true },
    pm_card_visa_debit: { brand: 'visa', last4: '5556', outcome: { kind: 'succeed' } },
    pm_card_mastercard: { brand: 'mastercard', last4: '4444', outcome: { kind: 'succeed' } },
    pm_card_amex: { brand: 'amex', last4: '8431', outcome: { kind: 'succeed' } },
    pm_card_authenticationRequired: {
      brand: 'visa',
      last4: '3184',
      outcome: { kind: 'succeed' },
      authentication: 'always',
    },
    pm_card_threeDSecure2Required: {
      brand: 'visa',
      last4: '3220',
      outcome: { kind: 'succeed' },
      authentication: 'always',
    },
    pm_card_authenticationRequiredOnSetup: {
      brand: 'visa',
      last4: '3155',
      outcome: { kind: 'succeed' },
      authentication: 'unless_set_up',
    },
    pm_card_chargeDeclined: {
      brand: 'visa',
      last4: '0002',
      outcome: declined('card_declined', 'generic_decline', 'Your card was declined.'),
    },
    pm_card_visa_chargeDeclined: {
      brand: 'visa',
      last4: '0002',
      outcome: declined('card_declined', 'generic_decline', 'Your card was declined.'),
    },
    pm_card_chargeDeclinedFraudulent: {
      brand: 'visa',
      last4: '0019',
      outcome: declined('card_declined', 'fraudulent', 'Your card was declined.'),
    },
    pm_card_chargeDeclinedInsufficientFunds: {
      brand: 'visa',
      last4: '9995',
      outcome: declined('card_declined', 'insufficient_funds', 'Your card has insufficient funds.'),
    },
    pm_card_chargeDeclinedLostCard: {
      brand: 'visa',
      last4: '9987',
      outcome: declined('card_declined', 'lost_card', 'Your card was declined.'),
    },
    pm_card_chargeDeclinedStolenCard: {
      brand: 'visa',
      last4: '9979',
      outcome: declined('card_declined', 'stolen_card', 'Your card was declined.'),
    },
    pm_card_chargeDeclinedExpiredCard: {
      brand: 'visa',
      last4: '0069',
      outcome: declined('expired_card', 'expired_card', 'Your card has expired.'),
    },
    pm_card_chargeDeclinedIncorrectCvc: {
      brand: 'visa',
      last4: '0127',
      outcome: declined('incorrect_cvc', 'incorrect_cvc', "Your card's security code is incorrect."),
    },
    pm_card_chargeDeclinedProcessingError: {
      brand: 'visa',
      last4: '0119',
      outcome: declined(
        'processing_error',
        'processing_error',
        'An error occurred while processing your card. Try again in a little bit.',
      ),
    },
  }),
)

/**
 * The test card a token stands for, or undefined: an own-property lookup, so inherited names
 * (`valueOf`, `__proto__`) are never cards.
 *
 * @example
 * testCard('pm_card_visa')?.brand // 'visa'
 * testCard('toString')            // undefined
 */
export function testCard(token: string): TestCard | undefined {
  return Object.hasOwn(TEST_CARDS, token) ? TEST_CARDS[token] : undefined
}

/**
 * The v1 JSON of a card payment method.
 *
 * @example
 * paymentMethodJson(pm) // { id: 'pm_…', object: 'payment_method', type: 'card', card: { brand: 'visa', last4: '4242', ... } }
 */
export function paymentMethodJson(pm: PaymentMethod): Record<string, unknown> {
  return {
    id: pm.id,
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: pm.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: pm.brand,
      exp_month: 12,
      exp_year: 2034,
      fingerprint: pm.id.slice(3, 19),
      funding: 'credit',
      generated_from: null,
      last4: pm.last4,
      networks: { available: [pm.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: Math.floor(pm.created / 1000),
    customer: pm.customer,
    customer_account: null,
    livemode: pm.mode === 'live',
    metadata: {},
    type: 'card',
  }
}
