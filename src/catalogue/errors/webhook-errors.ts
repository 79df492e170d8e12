import type { ErrorRow } from './error-row.js'
import { INVALID, row } from './error-row.js'

/**
 * The refusals of webhook endpoints and event resends: endpoint URLs, the endpoint limit, events too old to resend. Sorted by code; part of `ERRORS`.
 *
 * @example
 * WEBHOOK_ERRORS.url_invalid.status // 400
 */
export const WEBHOOK_ERRORS = {
  event_too_old: row(400, INVALID, "Event '{id}' is older than {days} days and can no longer be resent from the {via}."),
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
  webhook_endpoint_limit_reached: row(
    400,
    INVALID,
    'You have reached the maximum of {max} webhook endpoints for this account in {mode} mode.',
  ),
} as const satisfies Record<string, ErrorRow>
