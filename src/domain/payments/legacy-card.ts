import type { Json } from '../engine/list.js'
import { cardFields, type PaymentMethod, type TestCard } from './payment-method.js'

/** How the legacy card object spells a brand (`Visa`, `American Express`); payment methods use the lower-case code. */
const DISPLAY_BRAND: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'MasterCard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
  unionpay: 'UnionPay',
  unknown: 'Unknown',
}

const CODE_OF: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(DISPLAY_BRAND).map(([code, display]) => [display, code]),
)

/** The holder's name and address a card was entered with (`card[name]`, `card[address_zip]`, ...). */
export interface CardHolder {
  readonly name?: unknown
  readonly address_city?: unknown
  readonly address_country?: unknown
  readonly address_line1?: unknown
  readonly address_line2?: unknown
  readonly address_state?: unknown
  readonly address_zip?: unknown
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

/**
 * The fields of a legacy card (`card_…`, the card of a token or a charge's `source`) from its test
 * card, expiry and holder, over the engine's built `Card` object.
 *
 * @example
 * legacyCardFields('card_1', TEST_CARDS.pm_card_visa, 12, 2034, {}).brand // 'Visa'
 */
export function legacyCardFields(
  id: string,
  card: TestCard,
  expMonth: number,
  expYear: number,
  holder: CardHolder,
): Record<string, unknown> {
  const zip = text(holder.address_zip)
  const line1 = text(holder.address_line1)
  return {
    address_city: text(holder.address_city),
    address_country: text(holder.address_country),
    address_line1: line1,
    address_line1_check: line1 === null ? null : 'pass',
    address_line2: text(holder.address_line2),
    address_state: text(holder.address_state),
    address_zip: zip,
    address_zip_check: zip === null ? null : 'pass',
    allow_redisplay: 'unspecified',
    brand: DISPLAY_BRAND[card.brand] ?? card.brand,
    country: 'US',
    customer: null,
    cvc_check: 'pass',
    dynamic_last4: null,
    exp_month: expMonth,
    exp_year: expYear,
    fingerprint: id.slice(5, 21),
    funding: card.funding ?? 'credit',
    last4: card.last4,
    metadata: {},
    name: text(holder.name),
    networks: { preferred: null },
    regulated_status: 'unregulated',
    tokenization_method: null,
    wallet: null,
  }
}

/**
 * A legacy card seen as the payment method a charge attempt runs with (not stored): its id, the
 * card in payment method terms and the holder as billing details, so a charge made from a token
 * shows the card in `payment_method_details` and behaves as its test card.
 *
 * @example
 * asPaymentMethod(token.card, TEST_CARDS.pm_card_visa).id // 'card_…'
 */
export function asPaymentMethod(card: Json, test: TestCard): PaymentMethod {
  const fields = cardFields(card.id, test)
  return {
    id: card.id,
    object: 'payment_method',
    billing_details: {
      address: {
        city: card.address_city ?? null,
        country: card.address_country ?? null,
        line1: card.address_line1 ?? null,
        line2: card.address_line2 ?? null,
        postal_code: card.address_zip ?? null,
        state: card.address_state ?? null,
      },
      email: null,
      name: card.name ?? null,
      phone: null,
      tax_id: null,
    },
    card: {
      ...(fields.card as Record<string, unknown>),
      brand: CODE_OF[String(card.brand)] ?? test.brand,
      display_brand: CODE_OF[String(card.brand)] ?? test.brand,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      funding: card.funding,
      last4: card.last4,
    },
    customer: card.customer ?? null,
  } as PaymentMethod
}
