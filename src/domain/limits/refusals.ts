import type { ErrorCode } from '#catalogue/errors.js'
import { headerNames } from '#kernel/header-names.js'
import { type ServiceError, tableError } from '../service-error.js'
import type { RateLimitedReason } from './limit-row.js'

// The error table's row of each reason's refusal.
const ROWS: Record<RateLimitedReason, ErrorCode> = {
  'global-rate': 'rate_limit',
  'endpoint-rate': 'rate_limit_endpoint',
  'global-concurrency': 'rate_limit_global_concurrency',
  'endpoint-concurrency': 'rate_limit_endpoint_concurrency',
  'resource-specific': 'rate_limit_resource',
}

/**
 * A 429 with `<Prefix>-Rate-Limited-Reason`. The envelope `type` is the one the official client
 * maps to its rate-limit error in each namespace: v1 maps any 429 (`invalid_request_error` with
 * code `rate_limit`, as the provider answers), v2 maps `type: 'rate_limit'`.
 *
 * @example
 * throw rateLimited('endpoint-rate', 'Service', 'v1')
 * throw rateLimited('global-rate', 'Service', 'v1', 'rate_limit_reads') // the read allocation's wording
 */
export function rateLimited(
  reason: RateLimitedReason,
  prefix: string,
  api: 'v1' | 'v2',
  row: ErrorCode = ROWS[reason],
  values: Readonly<Record<string, string | number>> = {},
): ServiceError {
  return tableError(row, values, { api, headers: { [headerNames(prefix).rateLimitedReason]: reason } })
}

/**
 * The 409 of the synchronous meter event endpoint: another call for the same customer and meter is
 * in flight.
 *
 * @example
 * throw tooManyConcurrent('cus_1', 'api_calls')
 */
export function tooManyConcurrent(customer: string, eventName: string): ServiceError {
  return tableError('too_many_concurrent_requests', { customer, event_name: eventName })
}
