import { errorMessage } from '#catalogue/errors.js'
import type { Json } from '../engine/list.js'

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

/**
 * A payment method as the API shows it (`{ id, object: 'payment_method', type: 'card', card: { brand, last4, ... } }`),
 * stored once by the engine. How its card behaves (declines, 3-D Secure) follows from the test card
 * its `card.last4` names ({@link cardOf}).
 */
export type PaymentMethod = Json

/** A test card: what its payment methods show and how charging it ends. */
export interface TestCard {
  readonly brand: string
  readonly last4: string
  /** `credit` unless said otherwise. */
  readonly funding?: 'debit'
  readonly outcome: CardOutcome
  readonly authentication?: CardAuthentication
  /** Funds of its charges are available at once instead of pending (test card 4000000000000077). */
  readonly bypassPending?: boolean
  /** A captured payment with it is disputed by the cardholder (the provider's dispute test cards). */
  readonly dispute?: DisputeTrigger
  /** A captured payment with it draws an early fraud warning from the issuer, of this `fraud_type`. */
  readonly earlyFraudWarning?: string
  /** A refund of its payment succeeds at first and fails later (test card 4000000000005126). */
  readonly refundFails?: boolean
}

/** The dispute a dispute test card opens: its reason, and whether it is an inquiry (no funds withdrawn). */
export interface DisputeTrigger {
  readonly reason: 'fraudulent' | 'product_not_received'
  readonly inquiry: boolean
}

/**
 * Whether a payment with this card needs the customer to authenticate first; `setUp` says whether
 * an authenticated payment saved the card for later off-session use.
 *
 * @example
 * needsAuthentication(cardOf(pm), { offSession: true, setUp: false }) // true for pm_card_authenticationRequired
 */
export function needsAuthentication(card: TestCard, at: { offSession: boolean; setUp: boolean }): boolean {
  if (card.authentication === 'always') return true
  if (card.authentication === 'unless_set_up') return !(at.offSession && at.setUp)
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
    pm_card_visa_debit: { brand: 'visa', last4: '5556', funding: 'debit', outcome: { kind: 'succeed' } },
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
    pm_card_createDispute: {
      brand: 'visa',
      last4: '0259',
      outcome: { kind: 'succeed' },
      dispute: { reason: 'fraudulent', inquiry: false },
    },
    pm_card_createDisputeProductNotReceived: {
      brand: 'visa',
      last4: '2685',
      outcome: { kind: 'succeed' },
      dispute: { reason: 'product_not_received', inquiry: false },
    },
    pm_card_createDisputeInquiry: {
      brand: 'visa',
      last4: '1976',
      outcome: { kind: 'succeed' },
      dispute: { reason: 'fraudulent', inquiry: true },
    },
    pm_card_createIssuerFraudRecord: {
      brand: 'visa',
      last4: '5423',
      outcome: { kind: 'succeed' },
      earlyFraudWarning: 'made_with_stolen_card',
    },
    pm_card_refundFail: { brand: 'visa', last4: '5126', outcome: { kind: 'succeed' }, refundFails: true },
    pm_card_chargeDeclined: {
      brand: 'visa',
      last4: '0002',
      outcome: declined('card_declined', 'generic_decline', errorMessage('card_declined')),
    },
    // Attaches (and is saved for later) but every charge declines: the card that makes renewals fail.
    pm_card_chargeCustomerFail: {
      brand: 'visa',
      last4: '0341',
      outcome: declined('card_declined', 'generic_decline', errorMessage('card_declined')),
    },
    pm_card_visa_chargeDeclined: {
      brand: 'visa',
      last4: '0002',
      outcome: declined('card_declined', 'generic_decline', errorMessage('card_declined')),
    },
    pm_card_chargeDeclinedFraudulent: {
      brand: 'visa',
      last4: '0019',
      outcome: declined('card_declined', 'fraudulent', errorMessage('card_declined')),
    },
    pm_card_chargeDeclinedInsufficientFunds: {
      brand: 'visa',
      last4: '9995',
      outcome: declined('card_declined', 'insufficient_funds', 'Your card has insufficient funds.'),
    },
    pm_card_chargeDeclinedLostCard: {
      brand: 'visa',
      last4: '9987',
      outcome: declined('card_declined', 'lost_card', errorMessage('card_declined')),
    },
    pm_card_chargeDeclinedStolenCard: {
      brand: 'visa',
      last4: '9979',
      outcome: declined('card_declined', 'stolen_card', errorMessage('card_declined')),
    },
    pm_card_visa_chargeDeclinedVelocityLimitExceeded: {
      brand: 'visa',
      last4: '6975',
      outcome: declined('card_declined', 'card_velocity_exceeded', errorMessage('card_declined')),
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
 * (`valueOf`, `__proto__`) are never cards. Each payment method token `pm_card_<name>` has its
 * card token `tok_<name>` (`tok_visa`, `tok_chargeDeclined`), as the provider's test mode does.
 *
 * @example
 * testCard('pm_card_visa')?.brand // 'visa'
 * testCard('tok_visa')?.last4     // '4242'
 * testCard('toString')            // undefined
 */
export function testCard(token: string): TestCard | undefined {
  if (Object.hasOwn(TEST_CARDS, token)) return TEST_CARDS[token]
  // The provider's testing page also names the declining tokens with `visa_`
  // (`pm_card_visa_chargeDeclinedLostCard`): the same cards.
  const name = token.startsWith('tok_')
    ? `pm_card_${token.slice(4)}`
    : token.startsWith('pm_card_visa_chargeDeclined')
      ? `pm_card_${token.slice('pm_card_visa_'.length)}`
      : undefined
  return name !== undefined && Object.hasOwn(TEST_CARDS, name) ? TEST_CARDS[name] : undefined
}

/**
 * Whether a test token is a card token (`tok_visa`) rather than a payment method token
 * (`pm_card_visa`): a card token makes a legacy card, a payment method token a payment method.
 *
 * @example
 * isCardToken('tok_visa')     // true
 * isCardToken('pm_card_visa') // false
 */
export function isCardToken(token: string): boolean {
  return token.startsWith('tok_') && testCard(token) !== undefined
}

const byLast4 = new Map<string, TestCard>()
for (const card of Object.values(TEST_CARDS)) if (!byLast4.has(card.last4)) byLast4.set(card.last4, card)

/**
 * The test card behind four last digits (a test card number names its behaviour by them), if any.
 *
 * @example
 * testCardByLast4('0002')?.outcome.kind // 'decline'
 */
export function testCardByLast4(last4: string): TestCard | undefined {
  return byLast4.get(last4)
}
const PLAIN_CARD: TestCard = { brand: 'visa', last4: '4242', outcome: { kind: 'succeed' } }

/**
 * The test card behind a stored payment method: test card numbers differ in their last four
 * digits, so `card.last4` names the card (a card of no test number charges like `4242`).
 *
 * @example
 * cardOf(pm).outcome // { kind: 'decline', code: 'card_declined', ... } for a pm made from pm_card_chargeDeclined
 */
export function cardOf(pm: PaymentMethod): TestCard {
  const last4 = (pm.card as { last4?: unknown } | null | undefined)?.last4
  return (typeof last4 === 'string' ? byLast4.get(last4) : undefined) ?? PLAIN_CARD
}

/**
 * The fields of a new card payment method made from a test card (over the engine's built object).
 *
 * @example
 * cardFields('pm_1', TEST_CARDS.pm_card_visa) // { type: 'card', card: { brand: 'visa', last4: '4242', ... }, allow_redisplay: 'unspecified' }
 */
export function cardFields(id: string, card: TestCard): Record<string, unknown> {
  return {
    allow_redisplay: 'unspecified',
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: card.brand,
      exp_month: 12,
      exp_year: 2034,
      fingerprint: id.slice(3, 19),
      funding: card.funding ?? 'credit',
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    type: 'card',
  }
}
