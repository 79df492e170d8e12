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
    amount_refunded: 0,
    balance_transaction: c.balanceTransaction,
    billing_details: pm.billing_details,
    captured: c.captured,
    created: Math.floor(c.created / 1000),
    currency: c.currency,
    customer: c.customer,
    description: c.description,
    disputed: false,
    failure_code: c.failureCode,
    failure_message: c.failureMessage,
    livemode: c.mode === 'live',
    metadata: { ...c.metadata },
    outcome: {
      network_status: failed ? 'declined_by_network' : 'approved_by_network',
      reason: failed ? c.declineCode : null,
      risk_level: 'normal',
      seller_message: failed ? 'The bank did not return any further details with this decline.' : 'Payment complete.',
      type: failed ? 'issuer_declined' : 'authorized',
    },
    paid: c.status === 'succeeded',
    payment_intent: c.paymentIntent,
    payment_method: c.paymentMethod.id,
    payment_method_details: { card: pm.card, type: 'card' },
    refunded: false,
    status: c.status,
  }
}
