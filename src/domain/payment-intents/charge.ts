import type { Mode } from '../mode.js'
import { type PaymentMethod, paymentMethodJson } from './payment-method.js'

/** A charge: one attempt to move money with a payment method. */
export interface Charge {
  readonly id: string
  readonly account: string
  readonly mode: Mode
  readonly created: number
  readonly amount: number
  readonly currency: string
  readonly customer: string | null
  readonly paymentIntent: string | null
  readonly paymentMethod: PaymentMethod
  readonly description: string | null
  readonly metadata: Record<string, string>
  status: 'succeeded' | 'failed' | 'pending'
  captured: boolean
  amountCaptured: number
  /** Sum of the charge's refunds, in minor units. */
  amountRefunded: number
  balanceTransaction: string | null
  failureCode: string | null
  failureMessage: string | null
  declineCode: string | null
}

/**
 * The v1 JSON of a charge.
 *
 * @example
 * chargeJson(ch) // { id: 'ch_…', object: 'charge', status: 'succeeded', paid: true, ... }
 */
export function chargeJson(c: Charge): Record<string, unknown> {
  const pm = paymentMethodJson(c.paymentMethod)
  const failed = c.status === 'failed'
  return {
    id: c.id,
    object: 'charge',
    amount: c.amount,
    amount_captured: c.amountCaptured,
    amount_refunded: c.amountRefunded,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: c.balanceTransaction,
    billing_details: { ...(pm.billing_details as Record<string, unknown>), tax_id: null },
    calculated_statement_descriptor: failed ? null : 'SERVICE-SIM',
    captured: c.captured,
    created: Math.floor(c.created / 1000),
    currency: c.currency,
    customer: c.customer,
    description: c.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: c.failureCode,
    failure_message: c.failureMessage,
    fraud_details: {},
    livemode: c.mode === 'live',
    metadata: { ...c.metadata },
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: failed ? 'declined_by_network' : 'approved_by_network',
      reason: failed ? c.declineCode : null,
      risk_level: 'normal',
      seller_message: failed ? 'The bank did not return any further details with this decline.' : 'Payment complete.',
      type: failed ? 'issuer_declined' : 'authorized',
    },
    paid: c.status === 'succeeded',
    payment_intent: c.paymentIntent,
    payment_method: c.paymentMethod.id,
    payment_method_details: { card: cardDetails(pm.card as Record<string, unknown>, c), type: 'card' },
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: c.amountRefunded > 0 && c.amountRefunded >= c.amountCaptured,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: c.status,
    transfer_data: null,
    transfer_group: null,
  }
}

/**
 * A charge's card details: the card of its payment method as the charge saw it, with the
 * authorisation fields of the provider's charge object (not the payment method's own extras).
 */
function cardDetails(card: Record<string, unknown>, c: Charge): Record<string, unknown> {
  const { display_brand: _display, networks: _networks, wallet, ...rest } = card
  return {
    ...rest,
    amount_authorized: c.status === 'failed' ? null : c.amount,
    authorization_code: c.status === 'failed' ? null : '123456',
    extended_authorization: { status: 'disabled' },
    incremental_authorization: { status: 'unavailable' },
    installments: null,
    mandate: null,
    multicapture: { status: 'unavailable' },
    network: card.brand,
    network_token: { used: false },
    network_transaction_id: c.status === 'failed' ? null : c.id.slice(3, 18),
    overcapture: { maximum_amount_capturable: c.amount, status: 'unavailable' },
    regulated_status: 'unregulated',
    three_d_secure: null,
    wallet,
  }
}
