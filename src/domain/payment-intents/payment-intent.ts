import type { Mode } from '../mode.js'

/** The provider's payment intent statuses. */
export type PaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'canceled'

/** A payment intent of one account and mode. */
export interface PaymentIntent {
  readonly id: string
  readonly account: string
  readonly mode: Mode
  readonly created: number
  readonly clientSecret: string
  amount: number
  currency: string
  customer: string | null
  paymentMethod: string | null
  status: PaymentIntentStatus
  captureMethod: 'automatic' | 'automatic_async' | 'manual'
  description: string | null
  metadata: Record<string, string>
  receiptEmail: string | null
  setupFutureUsage: 'on_session' | 'off_session' | null
  statementDescriptor: string | null
  amountReceived: number
  amountCapturable: number
  latestCharge: string | null
  lastPaymentError: Record<string, unknown> | null
  /** Set in `requires_action`: what the client must do (3-D Secure through the provider's SDK). */
  nextAction: Record<string, unknown> | null
  canceledAt: number | null
  cancellationReason: string | null
}

/**
 * The v1 JSON of a payment intent.
 *
 * @example
 * paymentIntentJson(pi) // { id: 'pi_…', object: 'payment_intent', status: 'succeeded', ... }
 */
export function paymentIntentJson(p: PaymentIntent): Record<string, unknown> {
  return {
    id: p.id,
    object: 'payment_intent',
    amount: p.amount,
    amount_capturable: p.amountCapturable,
    amount_details: { tip: {} },
    amount_received: p.amountReceived,
    allowed_payment_method_types: null,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: p.canceledAt === null ? null : Math.floor(p.canceledAt / 1000),
    cancellation_reason: p.cancellationReason,
    capture_method: p.captureMethod,
    client_secret: p.clientSecret,
    confirmation_method: 'automatic',
    created: Math.floor(p.created / 1000),
    currency: p.currency,
    customer: p.customer,
    customer_account: null,
    description: p.description,
    excluded_payment_method_types: null,
    last_payment_error: p.lastPaymentError === null ? null : structuredClone(p.lastPaymentError),
    latest_charge: p.latestCharge,
    livemode: p.mode === 'live',
    managed_payments: null,
    metadata: { ...p.metadata },
    next_action: p.nextAction === null ? null : structuredClone(p.nextAction),
    on_behalf_of: null,
    payment_method: p.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: p.receiptEmail,
    review: null,
    setup_future_usage: p.setupFutureUsage,
    shipping: null,
    source: null,
    statement_descriptor: p.statementDescriptor,
    statement_descriptor_suffix: null,
    status: p.status,
    transfer_data: null,
    transfer_group: null,
  }
}
