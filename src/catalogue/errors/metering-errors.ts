import type { ErrorRow } from './error-row.js'
import { INVALID, row } from './error-row.js'

/**
 * The refusals of usage metering: meters, meter events and their payloads, meter event sessions and their tokens, event timestamps. Sorted by code; part of `ERRORS`.
 *
 * @example
 * METERING_ERRORS.no_meter.source // 'spec'
 */
export const METERING_ERRORS = {
  /** spec: "400 archived_meter: The meter is not Active." */
  archived_meter: row(
    400,
    INVALID,
    "The meter {meter} for event_name '{event_name}' is inactive (archived) and does not accept events.",
    'spec',
  ),
  /** spec: "Stream requests with the token fail with 401 `billing_meter_event_session_expired`" */
  billing_meter_event_session_expired: row(
    401,
    'temporary_session_expired',
    'The meter event session {id} expired at {expires_at}; create a new session.',
    'spec',
  ),
  /** spec: "400 duplicate_meter_event: An event with the same identifier was already submitted." */
  duplicate_meter_event: row(
    400,
    INVALID,
    "A meter event with identifier '{identifier}' was already submitted in the last 24 hours.",
    'spec',
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
  /** spec: "400 no_meter: No meter exists for the event name." */
  no_meter: row(400, INVALID, "No active meter was found for event_name '{event_name}'.", 'spec'),
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
} as const satisfies Record<string, ErrorRow>
