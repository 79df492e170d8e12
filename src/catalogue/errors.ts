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
  /** spec: "400 archived_meter: The meter is not Active." */
  archived_meter: row(400, INVALID, "The meter '{meter}' for event name '{event_name}' is not active.", 'spec'),
  authentication_required: row(402, 'card_error', 'Your card was declined. This transaction requires authentication.'),
  /** spec: "Stream requests with the token fail with 401 `billing_meter_event_session_expired`" */
  balance_insufficient: row(400, INVALID, 'You have insufficient funds in your account for this {what}.'),
  billing_meter_event_session_expired: row(
    401,
    'temporary_session_expired',
    'The meter event session {id} expired at {expires_at}; create a new session.',
    'spec',
  ),
  card_declined: row(402, 'card_error', 'Your card was declined.'),
  charge_already_captured: row(400, INVALID, 'Charge {charge} has already been captured.'),
  charge_already_refunded: row(400, INVALID, 'Charge {charge} has already been refunded.'),
  /** spec: "400 duplicate_meter_event: An event with the same identifier was already submitted." */
  duplicate_meter_event: row(
    400,
    INVALID,
    "A meter event with identifier '{identifier}' was already submitted in the last 24 hours.",
    'spec',
  ),
  email_invalid: row(400, INVALID, 'Invalid email address: {value}'),
  event_too_old: row(400, INVALID, "Event '{id}' is older than {days} days and can no longer be resent from the {via}."),
  idempotency_key_in_use: row(
    400,
    'idempotency_error',
    "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '{key}' if you meant to execute a different request.",
  ),
  idempotency_key_invalid: row(400, INVALID, 'Invalid Idempotency-Key: it must be 1 to 255 characters long.', 'simulator'),
  invalid_api_version: row(400, INVALID, "Invalid {header} '{value}': expected '<YYYY-MM-DD>.<release>'.", 'simulator'),
  invalid_content_type: row(400, INVALID, "Invalid content type '{type}'.", 'simulator'),
  invalid_json: row(400, INVALID, 'Invalid JSON body: {detail}', 'simulator'),
  invalid_page_token: row(400, INVALID, "Invalid page token '{page}'.", 'simulator'),
  invalid_payment_method: row(400, INVALID, 'The payment method {id} cannot be used for this payment.'),
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
  /** spec: "Status 429, code `lock_timeout`." Retried by the client libraries. */
  lock_timeout: row(
    429,
    INVALID,
    'This object ({id}) cannot be accessed right now because another API request or internal process is currently accessing it. If you see this error intermittently, retry the request. If you see this error frequently and are making multiple concurrent requests to a single object, make your requests serially or at a lower rate.',
    'spec',
    { shouldRetry: true },
  ),
  method_not_allowed: row(405, INVALID, 'Unrecognized request method: {method} {path}. Allowed: {allowed}.', 'simulator'),
  /** spec: "400 no_meter: No meter exists for the event name." */
  no_meter: row(400, INVALID, "No active meter was found for event name '{event_name}'.", 'spec'),
  not_cancelable: row(400, 'not_cancelable', 'The off-session payment {id} cannot be canceled because its status is {status}.'),
  /**
   * An operation of the official client the simulator does not serve (decision: 501 with
   * `invalid_request_error`, as stripe-mock types its refusals, and `Should-Retry: false` so the
   * client does not retry a 5xx that will never succeed).
   */
  not_implemented: row(501, INVALID, 'The simulator does not implement {operation} ({method} {path}) yet.', 'simulator', {
    shouldRetry: false,
  }),
  parameter_invalid: row(400, INVALID, 'Invalid {param}: {detail}'),
  parameter_invalid_empty: row(
    400,
    INVALID,
    "You passed an empty string for '{param}'. We assume empty values are an attempt to unset a parameter; however '{param}' cannot be unset. You should remove '{param}' from your request or supply a non-empty value.",
  ),
  parameter_invalid_integer: row(400, INVALID, 'Invalid integer: {value}'),
  parameter_invalid_string_too_long: row(400, INVALID, 'Invalid {param}: must be at most {max} characters (got {length}).'),
  parameter_missing: row(400, INVALID, 'Missing required param: {param}.'),
  parameter_unknown: row(400, INVALID, 'Received unknown parameter: {param}'),
  parameters_exclusive: row(400, INVALID, 'You may only specify one of these parameters: {params}.'),
  /** spec: "400 payload_invalid_value: The value is not a positive integer." */
  payload_invalid_value: row(400, INVALID, "The value '{value}' of payload key '{key}' is not a positive integer.", 'spec'),
  /** spec: "400 payload_no_customer_defined: The payload lacks the customer reference." */
  payload_no_customer_defined: row(400, INVALID, "The payload does not define the customer key '{key}'.", 'spec'),
  /** spec: "400 payload_no_value_defined: The payload lacks the value." */
  payload_no_value_defined: row(400, INVALID, "The payload does not define the value key '{key}'.", 'spec'),
  payment_intent_authentication_failure: row(400, INVALID, 'The provided PaymentMethod has failed authentication.'),
  payment_intent_unexpected_state: row(
    400,
    INVALID,
    'You cannot {action} this PaymentIntent because it has a status of {status}.',
  ),
  payment_method_unexpected_state: row(400, INVALID, 'The PaymentMethod {id} cannot be used in its current state.'),
  /** spec: "A rate-limited response has status `429 Too Many Requests` and header `Service-Rate-Limited-Reason`" */
  rate_limit: row(
    429,
    INVALID,
    'Request rate limit exceeded. Learn more about rate limits here https://docs.stripe.com/rate-limits.',
    'spec',
    { v2Type: 'rate_limit' },
  ),
  request_too_large: row(413, INVALID, 'Request body is larger than the limit of {max} bytes.', 'simulator'),
  resource_already_exists: row(400, INVALID, '{detail}'),
  resource_missing: row(404, INVALID, "No such {kind}: '{id}'"),
  server_error: row(500, 'api_error', 'An unknown error occurred on the server.', 'provider', { shouldRetry: true }),
  /** Advancing a test clock that is still advancing (decision: code and wording ours). */
  test_clock_unexpected_state: row(
    400,
    INVALID,
    'The test clock is currently advancing; wait until its status is `ready` to advance it again.',
    'simulator',
  ),
  timestamp_in_future: row(400, INVALID, 'The timestamp {timestamp} is more than 5 minutes in the future.', 'spec'),
  timestamp_too_far_in_past: row(400, INVALID, 'The timestamp {timestamp} is more than 35 calendar days in the past.', 'spec'),
  /** spec: "409 too_many_concurrent_requests: Concurrent usage events for the same customer and meter." */
  too_many_concurrent_requests: row(
    409,
    INVALID,
    'Another request for the same customer and meter is in progress; retry this one later.',
    'spec',
  ),
  url_invalid: row(400, INVALID, "Invalid URL '{url}'."),
  url_unrecognized: row(404, INVALID, 'Unrecognized request URL ({method}: {path}).'),
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
