import type { ErrorRow } from './error-row.js'
import { INVALID, row } from './error-row.js'

/**
 * The refusals of billing: checkout sessions, payment links, invoices, credit notes, subscriptions and their schedules, the billing portal, products, test clocks. Sorted by code; part of `ERRORS`.
 *
 * @example
 * BILLING_ERRORS.invoice_unexpected_state.status // 400
 */
export const BILLING_ERRORS = {
  /** Line items of one session all in one currency. */
  checkout_currencies: row(
    400,
    INVALID,
    'All line items of a Checkout Session must have the same currency; got {currencies}.',
    'simulator',
    {
      code: 'parameter_invalid',
    },
  ),
  /** provider: `customer_creation` only in the modes that may leave the customer a guest. */
  checkout_customer_creation_mode: row(
    400,
    INVALID,
    '`customer_creation` can only be used in `payment` and `setup` modes.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  /** provider: a session lives between 30 minutes and 24 hours. */
  checkout_expires_at_range: row(
    400,
    INVALID,
    'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  /** provider: `setup` mode collects a payment method and sells nothing. */
  checkout_line_items_in_setup: row(400, INVALID, 'You cannot pass `line_items` in `setup` mode.', 'provider', {
    code: 'parameter_invalid',
  }),
  /** provider: a subscription-mode session needs something that recurs. */
  checkout_no_recurring_price: row(
    400,
    INVALID,
    'You must provide at least one recurring price in `subscription` mode when using prices.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  /** provider: line items name active prices only (inline `price_data` makes its own). */
  checkout_price_inactive: row(
    400,
    INVALID,
    'The price specified is inactive. This field only accepts active prices.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  /** provider: a recurring price needs `subscription` mode. */
  checkout_recurring_in_payment: row(
    400,
    INVALID,
    'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  /** The customer's side completes only an open session (a completed or expired one stays as it is). */
  checkout_session_inactive: row(
    400,
    INVALID,
    'This Checkout Session is {status}; only an open Checkout Session can be completed.',
    'simulator',
  ),
  /** provider: "You can only expire Checkout Sessions that are open" (a complete or expired session stays as it is). */
  checkout_session_not_open: row(
    400,
    INVALID,
    'This Checkout Session is {status}; only an open Checkout Session can be expired.',
    'simulator',
  ),
  /** `checkout.sessions.update` with `line_items` on a session that is no longer open. */
  checkout_session_not_updatable: row(
    400,
    INVALID,
    'This Checkout Session is {status}; only an open Checkout Session can have its line items updated.',
    'simulator',
  ),
  /** `setup` mode without line items: the currency of the payment methods it offers. */
  checkout_setup_currency: row(
    400,
    INVALID,
    'You must provide `currency` (or `payment_method_types`) when using `setup` mode.',
    'simulator',
    { code: 'parameter_missing' },
  ),
  /** provider: `subscription_data` configures the subscription a session makes. */
  checkout_subscription_data_mode: row(400, INVALID, '`subscription_data` can only be used in `subscription` mode.', 'provider', {
    code: 'parameter_invalid',
  }),
  /** Voiding a credit note its invoice's state or its refunds no longer allow (decision: code and wording ours). */
  credit_note_unexpected_state: row(400, INVALID, 'This credit note {reason}; it cannot be {action}.', 'simulator'),
  /** Removing the discount of a customer or subscription that has none in force. */
  discount_missing: row(404, INVALID, "The {kind} '{id}' has no discount to remove.", 'simulator', { code: 'resource_missing' }),
  /** Paying an invoice with no payment method to charge (decision: wording close to the provider's). */
  invoice_no_customer_payment_method: row(
    400,
    INVALID,
    'This customer has no attached payment source or default payment method. Please consider adding a default payment method.',
    'simulator',
  ),
  /** Sending an invoice that is charged automatically (decision: the provider's wording, our code). */
  invoice_not_send_invoice: row(
    400,
    INVALID,
    "You can only manually send an invoice if its collection method is 'send_invoice'.",
    'simulator',
  ),
  /** Paying, finalizing or voiding an invoice whose status does not allow it (decision: code and wording ours). */
  invoice_unexpected_state: row(400, INVALID, 'This invoice is {status}; it cannot be {action}.', 'simulator'),
  invoice_upcoming_none: row(404, INVALID, 'No upcoming invoices for customer: {customer}'),
  /** A payment link whose prices are in more than one currency. */
  payment_link_currencies: row(400, INVALID, 'All prices on a payment link must share the same currency.'),
  /** Opening a payment link that was deactivated. */
  payment_link_inactive: row(400, INVALID, 'The payment link {id} is no longer active.'),
  /** A portal session naming a configuration that is not active. */
  portal_configuration_inactive: row(
    400,
    INVALID,
    'The configuration {id} is not active. Activate it or use another configuration.',
  ),
  /** Deactivating the account's default portal configuration. */
  portal_default_configuration_inactive: row(
    400,
    INVALID,
    'You cannot deactivate the default configuration. Make another configuration the default first.',
  ),
  product_has_prices: row(
    400,
    INVALID,
    'This product cannot be deleted because it has one or more user-created prices.',
    'provider',
    { code: 'invalid_request' },
  ),
  /** Changing a canceled subscription beyond its metadata (the provider's rule; code generic). */
  subscription_canceled: row(
    400,
    INVALID,
    'A canceled subscription can only update its cancellation_details and metadata.',
    'provider',
    { code: 'invalid_request' },
  ),
  /** provider: one request schedules or clears a cancellation by one of the two parameters (no code given; ours generic). */
  subscription_cancel_params_exclusive: row(
    400,
    INVALID,
    'Received both cancel_at_period_end and cancel_at parameters. Please pass in only one.',
    'provider',
    { code: 'invalid_request' },
  ),
  subscription_last_item: row(
    400,
    INVALID,
    'A subscription must have at least one active plan. To cancel a subscription, please use the cancel endpoint.',
    'provider',
    { code: 'invalid_request' },
  ),
  /** Changing, releasing or canceling a schedule that has ended (decision: the provider's wording, our code). */
  subscription_schedule_unexpected_state: row(
    400,
    INVALID,
    'You cannot {action} a subscription schedule that is currently in the `{status}` status.',
    'simulator',
  ),
  /** Pausing, resuming or migrating a subscription whose state does not allow it. */
  subscription_unexpected_state: row(400, INVALID, 'You cannot {action} subscription {id}: {reason}.', 'simulator'),
  /** Advancing a test clock that is still advancing (decision: code and wording ours). */
  test_clock_unexpected_state: row(
    400,
    INVALID,
    'The test clock is currently advancing; wait until its status is `ready` to advance it again.',
    'simulator',
  ),
} as const satisfies Record<string, ErrorRow>
