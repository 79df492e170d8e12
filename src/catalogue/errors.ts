/**
 * The error table: every error code the simulator answers with, its HTTP status, its envelope
 * `type` and its message template, with the provider's wording where it is known. `{name}` in a
 * template is filled by {@link errorMessage}. Codes marked "spec" are the spec's Errors section;
 * the others are the provider's public codes the simulator also emits.
 *
 * @example
 * import { ERRORS, errorMessage } from '#catalogue/errors.js'
 * ERRORS.resource_missing.status                                  // 404
 * errorMessage('resource_missing', { kind: 'customer', id: 'cus_1' }) // "No such customer: 'cus_1'"
 */

/** One row of the error table. */
export interface ErrorRow {
  readonly status: number
  /** The envelope `type` (v1; and v2 unless {@link ErrorRow.v2Type} says otherwise). */
  readonly type: string
  /** The envelope `type` on `/v2` paths when it differs (the v2 client maps on `type` first). */
  readonly v2Type?: string
  /** Message template; `{name}` placeholders. */
  readonly message: string
  /** `<Prefix>-Should-Retry` header value the response carries, when it carries one. */
  readonly shouldRetry?: boolean
  /** Where the row comes from: the spec's tables, or the provider's public error codes. */
  readonly source: 'spec' | 'provider' | 'simulator'
  /**
   * The envelope `code` when it is not the row's key: a second refusal under one provider code
   * with its own status or wording (a 409 idempotency conflict beside the 400 one).
   */
  readonly code?: string
}

const row = (
  status: number,
  type: string,
  message: string,
  source: ErrorRow['source'] = 'provider',
  extra: Partial<ErrorRow> = {},
): ErrorRow => ({ status, type, message, source, ...extra })

const INVALID = 'invalid_request_error'

/**
 * code -> status, type, message template. Sorted by code.
 *
 * @example
 * ERRORS.lock_timeout // { status: 429, type: 'invalid_request_error', shouldRetry: true, ... }
 */
export const ERRORS = {
  account_invalid: row(
    403,
    INVALID,
    "The provided key '{key}' does not have access to account '{account}' (or that account does not exist).",
  ),
  already_canceled: row(400, 'already_canceled', 'The off-session payment {id} is already canceled.'),
  amount_too_large: row(400, INVALID, 'Amount must be no more than {max} {currency} minor units.'),
  amount_too_small: row(400, INVALID, 'Amount must be at least {min} {currency} minor units.'),
  api_key_invalid: row(401, INVALID, 'Invalid API Key provided: {key}'),
  /** No credential in `Authorization` (`{basic}`: how else `/v1` takes one). */
  api_key_missing: row(
    401,
    INVALID,
    'You did not provide an API key. Provide it in the Authorization header as Bearer <key>{basic}.',
  ),
  /** A well-formed version the service does not serve (the provider's wording, its brand renamed). */
  api_version_unknown: row(400, INVALID, 'Invalid {brand} API version: {value}', 'provider', { code: 'invalid_api_version' }),
  /** A refund of an application fee already refunded whole. */
  application_fee_already_refunded: row(400, INVALID, 'Application fee {fee} has already been fully refunded.'),
  /** `application_fee_amount` on a payment that pays no connected account. */
  application_fee_needs_connect: row(
    400,
    INVALID,
    'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).',
  ),
  /** spec: "400 archived_meter: The meter is not Active." */
  archived_meter: row(
    400,
    INVALID,
    "The meter {meter} for event_name '{event_name}' is inactive (archived) and does not accept events.",
    'spec',
  ),
  authentication_required: row(402, 'card_error', 'Your card was declined. This transaction requires authentication.'),
  authorization_header_invalid: row(401, INVALID, 'Invalid Authorization header: {expected}.'),
  balance_insufficient: row(
    400,
    INVALID,
    'You have insufficient funds in your account for this {what}: {amount} {currency} minor units requested, {available} available. Funds of a test charge become available after 2 days, or at once with pm_card_bypassPending.',
  ),
  /** spec: "Stream requests with the token fail with 401 `billing_meter_event_session_expired`" */
  billing_meter_event_session_expired: row(
    401,
    'temporary_session_expired',
    'The meter event session {id} expired at {expires_at}; create a new session.',
    'spec',
  ),
  /** `amount_to_capture` outside what the intent holds (under the provider's `amount_too_large`). */
  capture_amount_out_of_range: row(400, INVALID, 'amount_to_capture must be between 1 and {max}.', 'provider', {
    code: 'amount_too_large',
  }),
  card_declined: row(402, 'card_error', 'Your card was declined.'),
  charge_already_captured: row(400, INVALID, 'Charge {charge} has already been captured.'),
  charge_already_refunded: row(400, INVALID, 'Charge {charge} has already been refunded.'),
  /** A capture of more than the charge authorised (under the provider's `amount_too_large`). */
  charge_capture_amount_too_large: row(
    400,
    INVALID,
    'Amount to capture ({amount}) must be between 1 and the authorized amount of charge {charge} ({max}).',
    'provider',
    { code: 'amount_too_large' },
  ),
  /** A charge naming a customer with nothing to charge (the provider's wording, under `missing`). */
  charge_customer_no_source: row(400, INVALID, 'Cannot charge a customer that has no active card', 'provider', {
    code: 'missing',
  }),
  charge_disputed: row(400, INVALID, 'Charge {charge} has been charged back; cannot issue a refund.'),
  charge_not_captured: row(
    400,
    INVALID,
    'Charge {charge} has not been captured; cancel its PaymentIntent to release the authorization instead.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  charge_not_succeeded: row(400, INVALID, 'Charge {charge} has not succeeded, so it cannot be refunded.', 'provider', {
    code: 'parameter_invalid',
  }),
  /** A charge naming neither a source nor a customer (the provider's wording). */
  charge_source_missing: row(400, INVALID, 'Must provide source or customer.', 'provider', { code: 'parameter_missing' }),
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
  /** A publishable-key request whose `client_secret` is not the intent's (the provider's wording). */
  client_secret_mismatch: row(
    400,
    INVALID,
    'The client_secret provided does not match the client_secret associated with the {kind}.',
  ),
  /** A Connect amount (`application_fee_amount`, `transfer_data[amount]`) above the payment's amount. */
  connect_amount_too_large: row(
    400,
    INVALID,
    '{param} cannot be greater than the amount of the payment ({amount}).',
    'provider',
    {
      code: 'parameter_invalid',
    },
  ),
  /** Voiding a credit note its invoice's state or its refunds no longer allow (decision: code and wording ours). */
  credit_note_unexpected_state: row(400, INVALID, 'This credit note {reason}; it cannot be {action}.', 'simulator'),
  /** A balance transaction in another currency than the customer's balance (decision: refused, naming both). */
  customer_balance_currency_mismatch: row(
    400,
    INVALID,
    "This customer's balance is in {have}; a balance transaction in {currency} cannot be added to it.",
    'simulator',
    { code: 'parameter_invalid' },
  ),
  /** A customer balance applied with nothing in it. */
  customer_cash_balance_empty: row(
    400,
    INVALID,
    'Customer {customer} has no cash balance in {currency} to apply; fund it by bank transfer first.',
    'simulator',
  ),
  /** More applied than the intent needs or the customer's cash balance holds. */
  customer_cash_balance_short: row(
    400,
    INVALID,
    'Cannot apply {amount}: the PaymentIntent needs {remaining} and the customer cash balance holds {available}.',
    'simulator',
  ),
  customer_currency_mismatch: row(
    400,
    INVALID,
    'You cannot combine currencies on a single customer. This customer has an active subscription or pending invoice item with currency {have}; this {what} is in {currency}.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  /** Removing the discount of a customer or subscription that has none in force. */
  discount_missing: row(404, INVALID, "The {kind} '{id}' has no discount to remove.", 'simulator', { code: 'resource_missing' }),
  /** A change to a dispute that no longer waits for an answer (under review or closed). */
  dispute_not_open: row(
    400,
    INVALID,
    'Dispute {id} has a status of {status}: only a dispute that needs a response can be {past}.',
    'simulator',
  ),
  /** spec: "400 duplicate_meter_event: An event with the same identifier was already submitted." */
  duplicate_meter_event: row(
    400,
    INVALID,
    "A meter event with identifier '{identifier}' was already submitted in the last 24 hours.",
    'spec',
  ),
  email_invalid: row(400, INVALID, 'Invalid email address: {value}'),
  /** An ephemeral key must be for exactly one object. */
  ephemeral_key_target: row(
    400,
    INVALID,
    'You must pass exactly one of customer, issuing_card, nonce or verification_session when creating an ephemeral key.',
  ),
  /** An ephemeral key asked for without an explicit API version. */
  ephemeral_key_version_missing: row(
    400,
    INVALID,
    'You must specify an API version when creating an ephemeral key: send the version header with the version your mobile SDK uses.',
  ),
  event_too_old: row(400, INVALID, "Event '{id}' is older than {days} days and can no longer be resent from the {via}."),
  /** The same key sent again while its first request is still running (409, the provider's wording). */
  /** Deleting the default external account of the account's own currency. */
  external_account_default_delete: row(
    400,
    INVALID,
    'You cannot delete the default external account for your default currency. Please make another external account the default using the `default_for_currency` param, and then delete this one.',
  ),
  /** An application fee refund above what is left of the fee (under the provider's `amount_too_large`). */
  fee_refund_too_large: row(
    400,
    INVALID,
    'Refund amount ({amount}) is greater than the application fee amount remaining ({left}).',
    'provider',
    { code: 'amount_too_large' },
  ),
  /** The same key sent again while its first request is still running (409, the provider's wording). */
  idempotency_key_in_progress: row(
    409,
    'idempotency_error',
    'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): {key}. Please try again later.',
    'provider',
    { code: 'idempotency_key_in_use' },
  ),
  idempotency_key_in_use: row(
    400,
    'idempotency_error',
    "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '{key}' if you meant to execute a different request.",
  ),
  idempotency_key_invalid: row(400, INVALID, 'Invalid Idempotency-Key: it must be 1 to 255 characters long.', 'simulator'),
  /** A key `Headers` could not echo back (decision: refused as invalid, before anything runs). */
  idempotency_key_unprintable: row(
    400,
    INVALID,
    'Invalid Idempotency-Key: it may hold only printable ASCII and Latin-1 characters (no control characters).',
    'simulator',
    { code: 'idempotency_key_invalid' },
  ),
  incorrect_number: row(402, 'card_error', 'Your card number is incorrect.'),
  /** An increment to no more than is already authorised (under the provider's `amount_too_small`). */
  increment_amount_too_small: row(
    400,
    INVALID,
    'The amount must be greater than the currently authorized amount ({current}).',
    'provider',
    { code: 'amount_too_small' },
  ),
  /** An increment of an intent whose card authorisation cannot be raised (under `payment_intent_unexpected_state`). */
  incremental_authorization_unavailable: row(
    400,
    INVALID,
    'This PaymentIntent does not support incremental authorizations: confirm a manual-capture card payment with payment_method_options[card][request_incremental_authorization]=if_available.',
    'provider',
    { code: 'payment_intent_unexpected_state' },
  ),
  invalid_api_version: row(
    400,
    INVALID,
    "Invalid {header} '{value}': expected '<YYYY-MM-DD>.<release>' such as '{example}' or '{preview}'.",
    'simulator',
  ),
  /** A card given as an external account that cannot receive payouts (not a debit card). */
  invalid_card_type: row(
    400,
    INVALID,
    'The card provided as an external account is not supported for payouts. Provide a non-prepaid debit card instead.',
  ),
  invalid_content_type: row(
    400,
    INVALID,
    "Invalid content type '{type}': {namespace} endpoints take {expected} bodies.",
    'simulator',
  ),
  invalid_expiry_month: row(402, 'card_error', "Your card's expiration month is invalid."),
  invalid_expiry_year: row(402, 'card_error', "Your card's expiration year is invalid."),
  invalid_json: row(400, INVALID, 'Invalid JSON body: {detail}', 'simulator'),
  invalid_page_token: row(
    400,
    INVALID,
    "Invalid page token '{page}': pass the next_page_url or previous_page_url of a previous list unchanged.",
    'simulator',
  ),
  /** An off-session payment naming a payment method saved to another customer. */
  invalid_payment_method: row(
    400,
    INVALID,
    'The payment method {id} is not attached to customer {customer}; off-session payments charge a saved payment method of the customer.',
  ),
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
  /** A `/v2` body nested deeper than the simulator reads (decision: a guard against stack exhaustion). */
  json_too_deep: row(400, INVALID, 'Request body nesting exceeds the maximum depth of {max}.', 'simulator'),
  /** spec: "Status 429, code `lock_timeout`." Retried by the client libraries. */
  lock_timeout: row(
    429,
    INVALID,
    'This object cannot be accessed right now because another API request or internal process is currently accessing it. If you see this error intermittently, retry the request. If you see this error frequently and are making multiple concurrent requests to a single object, make your requests serially or at a lower rate.',
    'spec',
    { shouldRetry: true },
  ),
  /** A login link asked for an account that is not an Express account. */
  login_link_not_express: row(
    400,
    INVALID,
    'Cannot create a login link for account {id}: login links are only for Express accounts.',
  ),
  /** A meter whose event_name another meter of the account has (under the provider's `resource_already_exists`). */
  meter_event_name_taken: row(
    400,
    INVALID,
    "A meter with event_name '{event_name}' already exists ({id}); event names are unique per account.",
    'provider',
    { code: 'resource_already_exists' },
  ),
  /** A cancel adjustment naming no event received in the last 24 hours (a 400 `resource_missing`). */
  meter_event_not_received: row(
    400,
    INVALID,
    "No meter event with identifier '{identifier}' and event_name '{event_name}' was received in the last 24 hours; only those can be cancelled.",
    'provider',
    { code: 'resource_missing' },
  ),
  /** spec: "409 too_many_concurrent_requests" on the synchronous meter event endpoint, naming the customer and meter. */
  meter_events_concurrent: row(
    409,
    INVALID,
    "Another meter event request for customer '{customer}' and meter {meter} is in progress; send one at a time per customer and meter.",
    'spec',
    { code: 'too_many_concurrent_requests' },
  ),
  method_not_allowed: row(405, INVALID, 'Unrecognized request method: {method} {path}. Allowed: {allowed}.', 'simulator'),
  microdeposit_amounts_invalid: row(
    400,
    INVALID,
    'Provide exactly two microdeposit amounts, or the descriptor code of the microdeposit.',
    'provider',
    { code: 'payment_method_microdeposit_verification_amounts_invalid' },
  ),
  microdeposit_amounts_mismatch: row(
    400,
    INVALID,
    'The amounts provided do not match the amounts that were sent to the bank account.',
    'provider',
    { code: 'payment_method_microdeposit_verification_amounts_mismatch' },
  ),
  microdeposit_descriptor_mismatch: row(
    400,
    INVALID,
    'The verification code provided does not match the one sent to the bank account.',
    'provider',
    { code: 'payment_method_microdeposit_verification_descriptor_code_mismatch' },
  ),
  /** spec: "400 no_meter: No meter exists for the event name." */
  no_meter: row(400, INVALID, "No active meter was found for event_name '{event_name}'.", 'spec'),
  not_cancelable: row(
    400,
    'not_cancelable',
    'The off-session payment {id} cannot be canceled because its status is {status}; only pending, pending_retry or requires_capture payments can be canceled.',
  ),
  /**
   * An operation of the official client the simulator does not serve (decision: 501 with
   * `invalid_request_error`, as stripe-mock types its refusals, and `Should-Retry: false` so the
   * client does not retry a 5xx that will never succeed).
   */
  not_implemented: row(501, INVALID, 'The simulator does not implement {operation} ({method} {path}) yet.', 'simulator', {
    shouldRetry: false,
  }),
  parameter_invalid: row(400, INVALID, 'Invalid {param}: {detail}'),
  parameter_invalid_array: row(400, INVALID, 'Invalid array', 'provider', { code: 'parameter_invalid' }),
  parameter_invalid_boolean: row(400, INVALID, 'Invalid boolean: {value}', 'provider', { code: 'parameter_invalid' }),
  parameter_invalid_decimal: row(400, INVALID, 'Invalid decimal: {value}', 'provider', { code: 'parameter_invalid' }),
  parameter_invalid_empty: row(
    400,
    INVALID,
    "You passed an empty string for '{param}'. We assume empty values are an attempt to unset a parameter; however '{param}' cannot be unset. You should remove '{param}' from your request or supply a non-empty value.",
  ),
  parameter_invalid_integer: row(400, INVALID, 'Invalid integer: {value}'),
  /** The provider's wordings of a value of the wrong kind, sent under the generic `parameter_invalid`. */
  parameter_invalid_number: row(400, INVALID, 'Invalid number: {value}', 'provider', { code: 'parameter_invalid' }),
  parameter_invalid_object: row(400, INVALID, 'Invalid object', 'provider', { code: 'parameter_invalid' }),
  parameter_invalid_string: row(400, INVALID, 'Invalid string: {value}', 'provider', { code: 'parameter_invalid' }),
  parameter_invalid_string_too_long: row(400, INVALID, 'Invalid {param}: must be at most {max} characters (got {length}).'),
  parameter_missing: row(400, INVALID, 'Missing required param: {param}.'),
  parameter_unknown: row(400, INVALID, 'Received unknown parameter: {param}'),
  parameters_exclusive: row(400, INVALID, 'You may only specify one of these parameters: {params}.'),
  /** spec: "400 payload_invalid_value: The value is not a positive integer." */
  payload_invalid_value: row(
    400,
    INVALID,
    'The payload value under \'{key}\' must be a positive integer (a string of digits such as "25").',
    'spec',
  ),
  /** spec: "400 payload_no_customer_defined: The payload lacks the customer reference." */
  payload_no_customer_defined: row(
    400,
    INVALID,
    "The payload has no customer: add the key '{key}' holding a customer id (cus_...).",
    'spec',
  ),
  /** spec: "400 payload_no_value_defined: The payload lacks the value." */
  payload_no_value_defined: row(
    400,
    INVALID,
    "The payload has no value: add the key '{key}' holding a positive integer as a string.",
    'spec',
  ),
  payment_intent_authentication_failure: row(
    400,
    INVALID,
    'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
  ),
  /** A confirm of an intent that has no payment method and is given none (under `payment_intent_unexpected_state`). */
  payment_intent_confirm_missing_payment_method: row(
    400,
    INVALID,
    'You cannot confirm this PaymentIntent because it is missing a payment method. Update it with a payment_method, or pass payment_method to confirm.',
    'provider',
    { code: 'payment_intent_unexpected_state' },
  ),
  /** `confirm=true` without a payment method (under the provider's `payment_intent_unexpected_state`). */
  payment_intent_no_payment_method: row(
    400,
    INVALID,
    'You cannot confirm this PaymentIntent because it has no payment method: pass payment_method with confirm=true.',
    'provider',
    { code: 'payment_intent_unexpected_state' },
  ),
  payment_intent_unexpected_state: row(
    400,
    INVALID,
    'You cannot {action} this PaymentIntent because it has a status of {status}. Only a PaymentIntent with one of the following statuses may be {past}: {allowed}.',
  ),
  /** A payment link whose prices are in more than one currency. */
  payment_link_currencies: row(400, INVALID, 'All prices on a payment link must share the same currency.'),
  /** Opening a payment link that was deactivated. */
  payment_link_inactive: row(400, INVALID, 'The payment link {id} is no longer active.'),
  /** An attach of a payment method another customer holds (under `payment_method_unexpected_state`). */
  payment_method_already_attached: row(
    400,
    INVALID,
    'The payment method you provided has already been attached to a customer ({customer}).',
    'provider',
    { code: 'payment_method_unexpected_state' },
  ),
  /** A payment method named for a customer it is not attached to (the provider's wording, a 400 `resource_missing`). */
  payment_method_not_attached: row(400, INVALID, "No such PaymentMethod: '{id}' attached to this customer.", 'provider', {
    code: 'resource_missing',
  }),
  /** A payment method named for a customer other than the one it is saved to (under `payment_method_unexpected_state`). */
  payment_method_other_customer: row(
    400,
    INVALID,
    'The provided PaymentMethod {id} belongs to customer {customer}; pass that customer with it.',
    'provider',
    { code: 'payment_method_unexpected_state' },
  ),
  /** A detach of a payment method that is attached to no customer. */
  payment_method_unexpected_state: row(400, INVALID, 'The payment method {id} is not attached to a customer.'),
  /** An update of a payment method saved to no customer (the provider's wording, under `payment_method_unexpected_state`). */
  payment_method_update_unattached: row(
    400,
    INVALID,
    'You must save this PaymentMethod to a customer before you can update it.',
    'provider',
    { code: 'payment_method_unexpected_state' },
  ),
  /** A payout that is no longer pending (paid, canceled, failed): only a pending one can be canceled. */
  payout_not_cancelable: row(
    400,
    INVALID,
    'Payout {id} cannot be canceled because its status is {status}. Only a pending payout can be canceled.',
    'simulator',
  ),
  /** A reversal of a payout that is not paid, already reversed, a reversal itself, or the platform's own. */
  payout_not_reversible: row(400, INVALID, 'Payout {id} cannot be reversed: {reason}.', 'simulator'),
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
  /**
   * spec: "A rate-limited response has status `429 Too Many Requests` and header
   * `Service-Rate-Limited-Reason`". One row per reason (and per allocation), all under code `rate_limit`.
   */
  rate_limit: row(
    429,
    INVALID,
    'Request rate limit exceeded. Too many requests hit the API too quickly for this account.',
    'spec',
    { v2Type: 'rate_limit' },
  ),
  rate_limit_endpoint: row(
    429,
    INVALID,
    'Request rate limit exceeded. Too many requests hit this endpoint too quickly.',
    'spec',
    {
      v2Type: 'rate_limit',
      code: 'rate_limit',
    },
  ),
  rate_limit_endpoint_concurrency: row(
    429,
    INVALID,
    'Too many concurrent requests to this endpoint. Lower the number of requests in flight.',
    'spec',
    { v2Type: 'rate_limit', code: 'rate_limit' },
  ),
  rate_limit_global_concurrency: row(
    429,
    INVALID,
    'Too many concurrent requests for this account. Lower the number of requests in flight.',
    'spec',
    { v2Type: 'rate_limit', code: 'rate_limit' },
  ),
  /** spec: "GET requests of an account must average no more than 500 per transaction" */
  rate_limit_reads: row(
    429,
    INVALID,
    'Read allocation exhausted: GET requests over the rolling window exceed the allocation for this account (per transaction, with a monthly minimum).',
    'spec',
    { v2Type: 'rate_limit', code: 'rate_limit' },
  ),
  rate_limit_resource: row(
    429,
    INVALID,
    'Request rate limit exceeded for this resource. Too many requests hit it too quickly.',
    'spec',
    { v2Type: 'rate_limit', code: 'rate_limit' },
  ),
  /** spec: "Subscriptions: 10 new invoices per subscription per minute; ..." */
  rate_limit_subscription: row(
    429,
    INVALID,
    'Request rate limit exceeded for this subscription ({row}: {max} per {window}).',
    'spec',
    { v2Type: 'rate_limit', code: 'rate_limit' },
  ),
  /** A refund over what is left to refund (the provider's wording, under `amount_too_large`). */
  refund_amount_too_large: row(400, INVALID, 'Refund amount ({amount}) is greater than {than} ({left})', 'provider', {
    code: 'amount_too_large',
  }),
  refund_no_successful_charge: row(
    400,
    INVALID,
    'This PaymentIntent ({id}) does not have a successful charge to refund.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  /** A cancel of a refund not waiting for the customer (the provider cancels only `requires_action` refunds). */
  refund_not_cancelable: row(
    400,
    INVALID,
    'Refund {id} cannot be canceled because it has a status of {status}. Only a refund with a status of requires_action can be canceled.',
    'simulator',
  ),
  /** Expiring (a test helper) a refund that is not waiting for the customer. */
  refund_not_expirable: row(
    400,
    INVALID,
    'Refund {id} cannot be expired because it has a status of {status}. Only a refund with a status of requires_action can be expired.',
    'simulator',
  ),
  /** A refund naming neither a charge nor a payment intent (the provider's wording). */
  refund_source_missing: row(
    400,
    INVALID,
    'One of the following params should be provided for this request: payment_intent or charge.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  request_too_large: row(413, INVALID, 'Request body is larger than the limit of {max} bytes.', 'simulator'),
  resource_already_exists: row(400, INVALID, "{kind} already exists: '{id}'"),
  resource_missing: row(404, INVALID, "No such {kind}: '{id}'"),
  /** A search clause on a field the resource's search does not know (instead of silently matching nothing). */
  search_field_unsupported: row(
    400,
    INVALID,
    'Field `{field}` is an unsupported search field for resource `{resource}`.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  search_query_mixed: row(400, INVALID, 'Search queries cannot mix AND and OR.', 'provider', { code: 'parameter_invalid' }),
  secret_key_required: row(401, INVALID, 'This API call cannot be made with a publishable API key. Please use a secret API key.'),
  server_error: row(500, 'api_error', 'An unknown error occurred on the server.', 'provider', { shouldRetry: true }),
  /** A stream request whose bearer token is no meter event session's (decision: 401 under the generic code of its status). */
  session_token_invalid: row(
    401,
    INVALID,
    'Invalid meter event session token: create a session with POST /v2/billing/meter_event_session and use its authentication_token.',
    'simulator',
    { code: 'authentication_required' },
  ),
  /** A meter event session token anywhere but the stream (decision: the code of a publishable key, our wording). */
  session_token_off_stream: row(
    401,
    INVALID,
    'A meter event session token authenticates only the meter event stream; use a secret key here.',
    'simulator',
    { code: 'secret_key_required' },
  ),
  /** The customer failed the 3-D Secure challenge of a setup intent (its `last_setup_error`). */
  setup_intent_authentication_failure: row(
    400,
    INVALID,
    'The latest attempt to set up the payment method has failed because authentication failed.',
  ),
  /** The provider's refusal of an action a setup intent's status does not allow. */
  setup_intent_unexpected_state: row(
    400,
    INVALID,
    'You cannot {action} this SetupIntent because it has a status of {status}. Only a SetupIntent with one of the following statuses may be {past}: {allowed}.',
  ),
  /** Changing a canceled subscription beyond its metadata (the provider's rule; code generic). */
  subscription_canceled: row(
    400,
    INVALID,
    'A canceled subscription can only update its cancellation_details and metadata.',
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
  timestamp_in_future: row(
    400,
    INVALID,
    'The timestamp is more than {minutes} minutes in the future; the latest accepted now is {latest}.',
    'spec',
  ),
  timestamp_too_far_in_past: row(
    400,
    INVALID,
    'The timestamp is more than {days} calendar days in the past; the earliest accepted now is {earliest}.',
    'spec',
  ),
  token_already_used: row(400, INVALID, 'You cannot use a Stripe token more than once: {id}.'),
  /** spec: "409 too_many_concurrent_requests: Concurrent usage events for the same customer and meter." */
  too_many_concurrent_requests: row(
    409,
    INVALID,
    'Another request for the same customer and meter is in progress; retry this one later.',
    'spec',
  ),
  /** A reversal of a transfer already reversed whole. */
  transfer_already_reversed: row(400, INVALID, 'Transfer {transfer} has already been fully reversed.'),
  /** A reversal asking for more than is left of its transfer (under the provider's `amount_too_large`). */
  transfer_reversal_too_large: row(
    400,
    INVALID,
    'Amount requested to reverse ({amount}) is greater than the transfer amount remaining ({left}).',
    'provider',
    { code: 'amount_too_large' },
  ),
  url_invalid: row(400, INVALID, "Invalid URL '{url}'."),
  /** A webhook URL with user or password (under the provider's `url_invalid`, as the rows below). */
  url_invalid_credentials: row(400, INVALID, 'Webhook URLs cannot carry credentials.', 'provider', { code: 'url_invalid' }),
  url_invalid_live_http: row(400, INVALID, 'Live mode webhook endpoints require an HTTPS URL.', 'provider', {
    code: 'url_invalid',
  }),
  url_invalid_live_loopback: row(
    400,
    INVALID,
    "Live mode webhook URLs must be publicly accessible; '{host}' is a loopback host.",
    'provider',
    { code: 'url_invalid' },
  ),
  url_invalid_relative: row(400, INVALID, "Invalid URL '{url}': webhook endpoints need an absolute URL.", 'provider', {
    code: 'url_invalid',
  }),
  url_invalid_scheme: row(400, INVALID, "Invalid URL scheme '{scheme}': webhook endpoints take HTTPS URLs.", 'provider', {
    code: 'url_invalid',
  }),
  url_invalid_test_http: row(
    400,
    INVALID,
    'Test mode allows HTTP only on localhost or a loopback address (local development); use an HTTPS URL.',
    'provider',
    { code: 'url_invalid' },
  ),
  url_unrecognized: row(404, INVALID, 'Unrecognized request URL ({method}: {path}).'),
  /** A count or amount below its minimum (the provider's wording, under `parameter_invalid_integer`). */
  value_too_small: row(400, INVALID, 'This value must be greater than or equal to {min}.', 'provider', {
    code: 'parameter_invalid_integer',
  }),
  webhook_endpoint_limit_reached: row(
    400,
    INVALID,
    'You have reached the maximum of {max} webhook endpoints for this account in {mode} mode.',
  ),
} as const satisfies Record<string, ErrorRow>

/** Every code of the table. */
export type ErrorCode = keyof typeof ERRORS

/**
 * The provider's documentation address for a code: `https://docs.stripe.com/error-codes/` and the
 * code with dashes for underscores (decision: the provider's `doc_url` format).
 *
 * @example
 * errorDocUrl('resource_missing') // 'https://docs.stripe.com/error-codes/resource-missing'
 */
export function errorDocUrl(code: string): string {
  return `https://docs.stripe.com/error-codes/${code.replaceAll('_', '-')}`
}

/**
 * Fills a code's message template; placeholders without a value stay as written.
 *
 * @example
 * errorMessage('parameter_missing', { param: 'amount' }) // 'Missing required param: amount.'
 */
export function errorMessage(code: ErrorCode, values: Readonly<Record<string, string | number>> = {}): string {
  return ERRORS[code].message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  )
}
