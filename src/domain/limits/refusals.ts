import { headerNames } from '#kernel/header-names.js'
import { ServiceError } from '../service-error.js'
import type { RateLimitedReason } from './limit-row.js'

const MESSAGES: Record<RateLimitedReason, string> = {
  'global-rate': 'Request rate limit exceeded. Too many requests hit the API too quickly for this account.',
  'endpoint-rate': 'Request rate limit exceeded. Too many requests hit this endpoint too quickly.',
  'global-concurrency': 'Too many concurrent requests for this account. Lower the number of requests in flight.',
  'endpoint-concurrency': 'Too many concurrent requests to this endpoint. Lower the number of requests in flight.',
  'resource-specific': 'Request rate limit exceeded for this resource. Too many requests hit it too quickly.',
}

/**
 * A 429 with `<Prefix>-Rate-Limited-Reason`. The envelope `type` is the one the official client
 * maps to its rate-limit error in each namespace: v1 maps any 429 (`invalid_request_error` with
 * code `rate_limit`, as the provider answers), v2 maps `type: 'rate_limit'`.
 *
 * @example
 * throw rateLimited('endpoint-rate', 'Service', 'v1')
 */
export function rateLimited(
  reason: RateLimitedReason,
  prefix: string,
  api: 'v1' | 'v2',
  message: string = MESSAGES[reason],
): ServiceError {
  return new ServiceError({
    status: 429,
    type: api === 'v2' ? 'rate_limit' : 'invalid_request_error',
    code: 'rate_limit',
    message,
    headers: { [headerNames(prefix).rateLimitedReason]: reason },
  })
}

/**
 * The 409 of the synchronous meter event endpoint: another call for the same customer and meter is
 * in flight.
 *
 * @example
 * throw tooManyConcurrent('cus_1', 'api_calls')
 */
export function tooManyConcurrent(customer: string, eventName: string): ServiceError {
  return new ServiceError({
    status: 409,
    type: 'invalid_request_error',
    code: 'too_many_concurrent_requests',
    message: `Another meter event for customer '${customer}' and event name '${eventName}' is being processed. Send one event per customer and meter at a time.`,
  })
}
