import type { ErrorRow } from './error-row.js'
import { INVALID, row } from './error-row.js'

/**
 * The refusals of a request as such: keys, versions, parameters and bodies, idempotency, rate and concurrency limits, locks, unknown routes and resources, server errors. Sorted by code; part of `ERRORS`.
 *
 * @example
 * REQUEST_ERRORS.resource_missing.status // 404
 */
export const REQUEST_ERRORS = {
  account_invalid: row(
    403,
    INVALID,
    "The provided key '{key}' does not have access to account '{account}' (or that account does not exist).{revoked}",
  ),
  api_key_invalid: row(401, INVALID, 'Invalid API Key provided: {key}'),
  /** No credential in `Authorization` (`{basic}`: how else `/v1` takes one). */
  api_key_missing: row(
    401,
    INVALID,
    'You did not provide an API key. Provide it in the Authorization header as Bearer <key>{basic}.',
  ),
  /** A well-formed version the service does not serve (the provider's wording, its brand renamed). */
  api_version_unknown: row(400, INVALID, 'Invalid {brand} API version: {value}', 'provider', { code: 'invalid_api_version' }),
  authorization_header_invalid: row(401, INVALID, 'Invalid Authorization header: {expected}.'),
  email_invalid: row(400, INVALID, 'Invalid email address: {value}'),
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
  /** A scoped header sent under both prefixes with different values (decision: refused, never one silently chosen). */
  scoped_header_conflict: row(
    400,
    INVALID,
    'The headers {first} and {second} name different values ({firstValue} and {secondValue}); send one of them.',
    'simulator',
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
  invalid_api_version: row(
    400,
    INVALID,
    "Invalid {header} '{value}': expected '<YYYY-MM-DD>.<release>' such as '{example}' or '{preview}'.",
    'simulator',
  ),
  invalid_content_type: row(
    400,
    INVALID,
    "Invalid content type '{type}': {namespace} endpoints take {expected} bodies.",
    'simulator',
  ),
  invalid_json: row(400, INVALID, 'Invalid JSON body: {detail}', 'simulator'),
  invalid_page_token: row(
    400,
    INVALID,
    "Invalid page token '{page}': pass the next_page_url or previous_page_url of a previous list unchanged.",
    'simulator',
  ),
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
  method_not_allowed: row(405, INVALID, 'Unrecognized request method: {method} {path}. Allowed: {allowed}.', 'simulator'),
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
  request_too_large: row(413, INVALID, 'Request body is larger than the limit of {max} bytes.', 'simulator'),
  resource_already_exists: row(400, INVALID, "{kind} already exists: '{id}'"),
  resource_missing: row(404, INVALID, "No such {kind}: '{id}'"),
  /** A search clause on a field the resource's search does not know (instead of silently matching nothing). */
  search_field_unsupported: row(
    400,
    INVALID,
    'Field `{field}` is an unsupported search field for resource `{resource}`. See https://stripe.com/docs/search#query-fields-for-{anchor} for a list of supported fields.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  /** A query the search grammar cannot read (`{detail}`: where and what it expected). */
  search_query_invalid: row(400, INVALID, 'Invalid search query: {detail}', 'simulator', { code: 'parameter_invalid' }),
  search_query_mixed: row(400, INVALID, 'Search queries cannot mix AND and OR.', 'provider', { code: 'parameter_invalid' }),
  /** A clause whose operator or value the field's type does not take (`~` on a token, `>` on a string). */
  search_value_unsupported: row(
    400,
    INVALID,
    'Field `{field}` of resource `{resource}` is a {type} field and does not support {what}.',
    'simulator',
    { code: 'parameter_invalid' },
  ),
  secret_key_required: row(401, INVALID, 'This API call cannot be made with a publishable API key. Please use a secret API key.'),
  server_error: row(500, 'api_error', 'An unknown error occurred on the server.', 'provider', { shouldRetry: true }),
  /** spec: "409 too_many_concurrent_requests: Concurrent usage events for the same customer and meter." */
  too_many_concurrent_requests: row(
    409,
    INVALID,
    'Another request for the same customer and meter is in progress; retry this one later.',
    'spec',
  ),
  url_unrecognized: row(404, INVALID, 'Unrecognized request URL ({method}: {path}).'),
  /** A count or amount below its minimum (the provider's wording, under `parameter_invalid_integer`). */
  value_too_small: row(400, INVALID, 'This value must be greater than or equal to {min}.', 'provider', {
    code: 'parameter_invalid_integer',
  }),
} as const satisfies Record<string, ErrorRow>
