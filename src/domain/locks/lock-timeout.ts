import { headerNames } from '#kernel/header-names.js'
import { ServiceError } from '../service-error.js'

/**
 * The 429 of an object lock that could not be taken in time: code `lock_timeout`, no
 * rate-limited reason, no request id, and `<Prefix>-Should-Retry: true` so the official client
 * retries it.
 *
 * @example
 * throw lockTimeout('cus_123', 'Service')
 */
export function lockTimeout(objectId: string, prefix: string): ServiceError {
  return new ServiceError({
    status: 429,
    type: 'invalid_request_error',
    code: 'lock_timeout',
    message: `This object (${objectId}) cannot be accessed right now because another API request or internal process is currently accessing it. If you see this error intermittently, retry the request. If you see it frequently and make concurrent requests to one object, make them serially or at a lower rate.`,
    headers: { [headerNames(prefix).shouldRetry]: 'true' },
    noRequestId: true,
  })
}
