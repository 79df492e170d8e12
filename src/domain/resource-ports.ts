import type { Billing } from './billing/billing.js'
import type { CheckoutTimers } from './checkout/checkout-timers.js'
import type { Accounts } from './connect/accounts.js'
import type { Delivery } from './events/delivery/delivery.js'
import type { Destinations } from './events/destinations/destinations.js'
import type { EventStore } from './events/event-store.js'
import type { Ledger } from './ledger/ledger.js'
import type { MoneyTimers } from './ledger/money-timers.js'
import type { MeteringPorts } from './meters/metering-ports.js'
import type { Charges } from './payments/charges.js'
import type { Disputes } from './payments/disputes/disputes.js'
import type { PaymentIntents } from './payments/payment-intents.js'
import type { PaymentMethods } from './payments/payment-methods.js'
import type { RefundTimers } from './payments/refunds/refund-timers.js'

/** The service areas outside the engine that resource behaviours use. */
export interface ResourcePorts {
  readonly paymentMethods: PaymentMethods
  readonly charges: Charges
  /** Disputes opened by the dispute test cards, and their outcome in the ledger. */
  readonly disputes: Disputes
  /** The payment intent flow: card attempts, 3-D Secure, `payment_intent.*` events. */
  readonly paymentIntents: PaymentIntents
  /** Meter events, the stream's sessions and meter ids, for the metering behaviours. */
  readonly metering: MeteringPorts
  /** Balances and postings: refunds, payouts and transfers move money. */
  readonly ledger: Ledger
  /** The account registry: transfers look up their destination; accounts open, list and close them. */
  readonly accounts: Pick<Accounts, 'get' | 'create' | 'list' | 'close'>
  /** Checkout sessions' work on the clock: expiry at `expires_at`, a delayed payment's outcome. */
  readonly checkoutTimers: CheckoutTimers
  /** Money movements' work on the clock: a payout's arrival, an uncaptured authorisation's expiry. */
  readonly moneyTimers: MoneyTimers
  /** Refunds' work on the clock: a pending refund's success, a failing card's refund failure, an unanswered wait's expiry. */
  readonly refundTimers: RefundTimers
  /** The billing loop (made after the engine, so read when a behaviour runs). */
  readonly billing: Billing
  /** Every emitted event: `/v1/events` and `/v2/core/events` read it; behaviours emit their own (a new account's `account.updated`). */
  readonly events: EventStore
  /** Event destinations' registration rules and keys. */
  readonly destinations: Destinations
  /** Webhook delivery: a destination's ping. */
  readonly delivery: Pick<Delivery, 'ping'>
}
