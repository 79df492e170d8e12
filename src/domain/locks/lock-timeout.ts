import { headerNames } from '#kernel/header-names.js'
import { type ServiceError, tableError } from '../service-error.js'

/**
 * The 429 of an object lock that could not be taken in time: code `lock_timeout`, no
 * rate-limited reason, no request id, and `<Prefix>-Should-Retry: true` so the official client
 * retries it.
 *
 * @example
 * throw lockTimeout('cus_123', 'Service')
 */
export function lockTimeout(objectId: string, prefix: string): ServiceError {
  // The provider's wording names no object; the trace's `lock.timeout` entry does.
  return tableError(
    'lock_timeout',
    { id: objectId },
    { headers: { [headerNames(prefix).shouldRetry]: 'true' }, noRequestId: true },
  )
}
