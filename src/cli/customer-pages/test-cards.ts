/** A card the customer can pick on serve's pages and in the browser-library stand-in. */
export interface CardChoice {
  readonly token: string
  readonly label: string
  /** The issuer asks for a 3-D Secure challenge: the checkout page shows it before paying. */
  readonly challenge?: boolean
}

/**
 * The test cards offered to the customer: one that pays, declines, and 3-D Secure challenges
 * (each a provider test token, so the same card behaves the same through the API).
 *
 * @example
 * CARD_CHOICES[0] // { token: 'pm_card_visa', label: 'Visa 4242 4242 4242 4242: pays' }
 */
export const CARD_CHOICES: readonly CardChoice[] = [
  { token: 'pm_card_visa', label: 'Visa 4242 4242 4242 4242: pays' },
  { token: 'pm_card_mastercard', label: 'Mastercard 5555 5555 5555 4444: pays' },
  { token: 'pm_card_authenticationRequired', label: 'Visa 4000 0027 6000 3184: asks for 3-D Secure', challenge: true },
  { token: 'pm_card_threeDSecure2Required', label: 'Visa 4000 0000 0000 3220: asks for 3-D Secure 2', challenge: true },
  { token: 'pm_card_chargeDeclined', label: 'Visa 4000 0000 0000 0002: declined' },
  { token: 'pm_card_chargeDeclinedInsufficientFunds', label: 'Visa 4000 0000 0000 9995: insufficient funds' },
]

/**
 * The test bank accounts the checkout page offers in `payment` mode: a delayed debit that
 * succeeds, and one that fails (`checkout.session.async_payment_failed`), on the clock.
 *
 * @example
 * BANK_CHOICES[1] // { token: 'pm_usBankAccount_accountClosed', label: 'US bank account 000111111113: fails later' }
 */
export const BANK_CHOICES: readonly CardChoice[] = [
  { token: 'pm_usBankAccount', label: 'US bank account 000123456789: pays later' },
  { token: 'pm_usBankAccount_accountClosed', label: 'US bank account 000111111113: fails later' },
]
