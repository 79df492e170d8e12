import { errorMessage } from '#catalogue/errors.js'
import { invalidRequest } from '#domain/service-error.js'
import type { Route } from '../route.js'
import { scopeOf } from './resource-helpers.js'

/** The one parameter of a resend, checked here: the operation is not the official client's, so no catalogue type checks it. */
function endpointOf(body: Record<string, unknown>): string {
  for (const key of Object.keys(body)) {
    if (key !== 'webhook_endpoint') {
      throw invalidRequest(errorMessage('parameter_unknown', { param: key }), { code: 'parameter_unknown', param: key })
    }
  }
  const endpoint = body.webhook_endpoint
  if (typeof endpoint !== 'string' || endpoint === '') {
    throw invalidRequest(errorMessage('parameter_missing', { param: 'webhook_endpoint' }), {
      code: 'parameter_missing',
      param: 'webhook_endpoint',
    })
  }
  return endpoint
}

/**
 * `POST /v1/events/:id/retry`: the command-line tool's resend of an event to one endpoint (30
 * days), the one operation served beside the catalogue's (the official client has no resend).
 * It never cancels automatic retries.
 */
export const eventResendRoute: Route = {
  method: 'POST',
  path: '/v1/events/:id/retry',
  operation: 'events.retry',
  object: 'id',
  handle(ctx) {
    const endpoint = endpointOf(ctx.body as Record<string, unknown>)
    const scope = scopeOf(ctx)
    const id = ctx.params.id ?? ''
    // Not awaited: the receiver may call back into the service while this request is answered.
    void ctx.service.delivery.resend(id, endpoint, 'cli', scope)
    return ctx.service.events.get(scope, id)?.body ?? { id, object: 'event' }
  },
}
