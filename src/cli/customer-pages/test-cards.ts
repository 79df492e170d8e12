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
 * The US test bank accounts the checkout page offers in `payment` mode: a debit that succeeds and
 * one the bank returns (`checkout.session.async_payment_failed`). Each is `processing` when the
 * customer is sent on, and settles at that same instant of the clock, as soon as the work due then runs.
 *
 * @example
 * BANK_CHOICES[1] // { token: 'pm_usBankAccount_accountClosed', label: 'US bank account 000111111113: processing, then fails' }
 */
export const BANK_CHOICES: readonly CardChoice[] = [
  { token: 'pm_usBankAccount', label: 'US bank account 000123456789: processing, then pays' },
  { token: 'pm_usBankAccount_accountClosed', label: 'US bank account 000111111113: processing, then fails' },
]

/**
 * The SEPA Direct Debit test IBANs the checkout page offers on a `payment` session in euros: the
 * provider's delayed ones stay `processing` until the clock passes three minutes (or the admin
 * API advances it), so an app's "payment pending" page can be seen and tested.
 *
 * @example
 * SEPA_CHOICES[0].token // 'pm_sepaDebit_successDelayed_at'
 */
export const SEPA_CHOICES: readonly CardChoice[] = [
  { token: 'pm_sepaDebit_successDelayed_at', label: 'SEPA Direct Debit AT32 1904 3002 3547 3204: pays three minutes later' },
  { token: 'pm_sepaDebit_failedDelayed_at', label: 'SEPA Direct Debit AT05 1904 3002 3547 3205: fails three minutes later' },
  { token: 'pm_sepaDebit_success_at', label: 'SEPA Direct Debit AT61 1904 3002 3457 3201: processing, then pays' },
]
