import type { Json } from '../engine/list.js'
import type { CardOutcome, PaymentMethod } from './payment-method.js'

/** A charge as the API shows it, stored once by the engine: one attempt to move money with a payment method. */
export type Charge = Json

/** What a new charge is made from. */
export interface ChargeFacts {
  readonly id: string
  readonly amount: number
  readonly currency: string
  readonly customer: string | null
  readonly paymentIntent: string | null
  readonly paymentMethod: PaymentMethod
  readonly description: string | null
  readonly metadata: Readonly<Record<string, string>>
  readonly outcome: CardOutcome
  /** True once the customer completed 3-D Secure for this payment. */
  readonly authenticated: boolean
  /** The authorisation may be raised later (a manual-capture card intent that asked for it). */
  readonly incremental?: boolean
  /** `payment_method_details` of a payment method that is not a card (a bank debit). */
  readonly details?: Readonly<Record<string, unknown>>
}

/**
 * The fields of a new charge (over the engine's built object): the attempt's outcome as the
 * provider reports it (`outcome`, `failure_*`, `paid`), the card as the charge saw it, and an empty
 * `refunds` list. Capture and refunds change the amounts later.
 *
 * @example
 * chargeFields({ id: 'ch_1', amount: 2000, currency: 'usd', outcome: { kind: 'succeed' }, ... }).paid // true
 */
export function chargeFields(f: ChargeFacts): Record<string, unknown> {
  const pm = f.paymentMethod
  const failed = f.outcome.kind === 'decline'
  const decline = f.outcome.kind === 'decline' ? f.outcome : undefined
  return {
    amount: f.amount,
    amount_captured: 0,
    amount_refunded: 0,
    ...(failed ? {} : { authorization_code: '123456' }),
    balance_transaction: null,
    billing_details: { ...(pm.billing_details as Record<string, unknown>) },
    calculated_statement_descriptor: failed ? null : 'SERVICE-SIM',
    captured: false,
    currency: f.currency,
    customer: f.customer,
    description: f.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: decline?.code ?? null,
    failure_message: decline?.message ?? null,
    fraud_details: {},
    metadata: { ...f.metadata },
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: failed ? 'declined_by_network' : 'approved_by_network',
      reason: decline?.declineCode ?? null,
      risk_level: 'normal',
      seller_message: failed ? 'The bank did not return any further details with this decline.' : 'Payment complete.',
      type: failed ? 'issuer_declined' : 'authorized',
    },
    paid: !failed,
    payment_intent: f.paymentIntent,
    payment_method: pm.id,
    payment_method_details: f.details ?? { card: cardDetails(pm.card as Record<string, unknown>, f), type: 'card' },
    radar_options: {},
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    refunds: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/charges/${f.id}/refunds` },
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: failed ? 'failed' : 'succeeded',
    transfer_data: null,
    transfer_group: null,
  }
}

/**
 * A charge's card details: the card of its payment method as the charge saw it, with the
 * authorisation fields of the provider's charge object (not the payment method's own extras).
 */
function cardDetails(card: Record<string, unknown>, f: ChargeFacts): Record<string, unknown> {
  const rest = chargedCardOf(card)
  const wallet = card.wallet
  const failed = f.outcome.kind === 'decline'
  return {
    ...rest,
    amount_authorized: failed ? null : f.amount,
    authorization_code: failed ? null : '123456',
    // The network's final ECI: authenticated payments carry the 3-D Secure one, others none in test mode.
    electronic_commerce_indicator: f.authenticated && !failed ? '05' : null,
    extended_authorization: { status: 'disabled' },
    incremental_authorization: { status: f.incremental === true && !failed ? 'available' : 'unavailable' },
    installments: null,
    mandate: null,
    multicapture: { status: 'unavailable' },
    network: card.brand,
    network_token: { used: false },
    network_transaction_id: failed ? null : f.id.slice(3, 18),
    overcapture: { maximum_amount_capturable: f.amount, status: 'unavailable' },
    regulated_status: 'unregulated',
    three_d_secure: f.authenticated ? threeDSecure(f.id) : null,
    transaction_link_id: null,
    wallet,
  }
}

// A card without the payment method's own extras, by card: the card of a stored payment method is
// sealed (never changed in place), charged again and again (every retry), and an object rest
// pattern copies through a slow runtime path. Only ever spread into a new object. Weak: collected
// with the card.
const chargedCards = new WeakMap<object, Readonly<Record<string, unknown>>>()

function chargedCardOf(card: Record<string, unknown>): Readonly<Record<string, unknown>> {
  let rest = chargedCards.get(card)
  if (rest === undefined) {
    const { display_brand: _display, networks: _networks, wallet: _wallet, ...others } = card
    rest = others
    chargedCards.set(card, rest)
  }
  return rest
}

/** The 3-D Secure record of a payment the customer authenticated (a frictionless-or-challenge 2.x flow, as test cards run it). */
function threeDSecure(chargeId: string): Record<string, unknown> {
  return {
    authentication_flow: 'challenge',
    electronic_commerce_indicator: '05',
    exemption_indicator: null,
    result: 'authenticated',
    result_reason: null,
    transaction_id: `${chargeId.slice(3, 11)}-3ds2`,
    version: '2.2.0',
  }
}

/**
 * Whether the customer authenticated the payment of this charge (3-D Secure).
 *
 * @example
 * wasAuthenticated(charge) // true after sim.admin.completeAuthentication(pi, { outcome: 'succeed' })
 */
export function wasAuthenticated(c: Charge): boolean {
  const details = c.payment_method_details as { card?: { three_d_secure?: { result?: unknown } | null } } | null
  return details?.card?.three_d_secure?.result === 'authenticated'
}

/**
 * What is left to refund on a charge: its captured amount less its refunds (0 for a failed or
 * uncaptured charge).
 *
 * @example
 * refundableAmount(charge) // 2000 for a captured 20.00 charge with no refunds
 */
export function refundableAmount(c: Charge): number {
  if (c.status !== 'succeeded' || c.captured !== true) return 0
  // `amount_refunded` also counts what a partial capture released, which was never captured.
  return (c.amount as number) - (c.amount_refunded as number)
}
