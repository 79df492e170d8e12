import { ServiceError } from '#domain/service-error.js'
import type { InFlightRequest } from '#kernel/request-timeline.js'
import type { PipelineHost } from './pipeline-context.js'

/**
 * A throw that is not a ServiceError is a simulator bug: it is answered as the provider answers its
 * own failures (500 `api_error`), so the client and the next request go on, and traced so tests
 * can assert there are none.
 *
 * @example
 * const error = internalError(host, new TypeError('x'), flight) // status 500, traced
 */
export function internalError(host: PipelineHost, error: unknown, flight: InFlightRequest): ServiceError {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  host.service.kernel.trace.append('http.internal_error', { operation: flight.operation ?? null, message })
  return new ServiceError({
    status: 500,
    type: 'api_error',
    message: 'An unexpected error occurred while processing the request.',
  })
}
