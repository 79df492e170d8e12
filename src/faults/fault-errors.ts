import { rateLimited } from '#domain/limits/refusals.js'
import { type ServiceError, tableError } from '#domain/service-error.js'
import { headerNames } from '#kernel/header-names.js'
import type { rateLimitReasons } from './faults-schema.js'

/** Fallback when the admission does not say: operations served under `/v2` (their error types differ) are named `v2.*`. */
function isV2(operation: string): boolean {
  return operation.startsWith('v2.')
}

/**
 * The forced 429 of one rate-limit reason, with `<Prefix>-Rate-Limited-Reason`.
 *
 * @example
 * throw forcedRateLimit('global-rate', 'Service', 'v2.billing.meterEventStream.create')
 */
export function forcedRateLimit(
  reason: (typeof rateLimitReasons)[number],
  prefix: string,
  operation: string,
  api?: 'v1' | 'v2',
): ServiceError {
  return rateLimited(reason, prefix, (api ?? (isV2(operation) ? 'v2' : 'v1')) as 'v1' | 'v2')
}

/**
 * A lock timeout: 429 `lock_timeout`, no request id, no rate-limit reason, `<Prefix>-Should-Retry: true`.
 *
 * @example
 * throw forcedLockTimeout('Service')
 */
export function forcedLockTimeout(prefix: string): ServiceError {
  return tableError('lock_timeout', {}, { headers: { [headerNames(prefix).shouldRetry]: 'true' }, noRequestId: true })
}

/**
 * A 409 `too_many_concurrent_requests`.
 *
 * @example
 * throw forcedConflict()
 */
export function forcedConflict(): ServiceError {
  return tableError('too_many_concurrent_requests')
}

/**
 * A 500 `api_error` that changed nothing.
 *
 * @example
 * throw forcedServerError(prefix)
 */
export function forcedServerError(prefix: string): ServiceError {
  return tableError('server_error', {}, { headers: { [headerNames(prefix).shouldRetry]: 'true' } })
}
