import { errorMessage } from '#catalogue/errors.js'
import { DESTINATION_OBJECT } from '#domain/events/destinations/destinations.js'
import { includesOf, renderDestination } from '#domain/events/destinations/render.js'
import { invalidRequest, tableError } from '#domain/service-error.js'
import type { Route } from '../route.js'
import { scopeOf } from './resource-helpers.js'

const PARAMS = new Set(['expires_in', 'include'])

/** The old secret's overlap in ms; the operation is not the official client's, so no catalogue type checks its params. */
function overlapOf(body: Record<string, unknown>): number {
  for (const key of Object.keys(body)) {
    if (!PARAMS.has(key)) {
      throw invalidRequest(errorMessage('parameter_unknown', { param: key }), { code: 'parameter_unknown', param: key })
    }
  }
  const seconds = body.expires_in ?? 0
  if (typeof seconds !== 'number' || !Number.isInteger(seconds)) {
    throw tableError('parameter_invalid_integer', { value: String(seconds) }, { param: 'expires_in' })
  }
  return seconds * 1000
}

/**
 * `POST /v2/core/event_destinations/:id/roll_secret`: the dashboard's roll of a destination's
 * signing secret, the old one active `expires_in` seconds more (0 to 24 hours). Served beside the
 * catalogue (the official client has no roll); answers the destination with its new secret.
 */
export const rollSecretRoute: Route = {
  method: 'POST',
  path: '/v2/core/event_destinations/:id/roll_secret',
  operation: 'v2.core.eventDestinations.rollSecret',
  object: 'id',
  handle(ctx) {
    const body = ctx.body as Record<string, unknown>
    const scope = scopeOf(ctx)
    const id = ctx.params.id ?? ''
    const overlapMs = overlapOf(body)
    const secret = ctx.service.destinations.rollSecret(scope, id, overlapMs)
    const stored = ctx.service.engine.resource(DESTINATION_OBJECT).require(scope, id)
    const includes = ['webhook_endpoint.signing_secret', ...includesOf(body)]
    return renderDestination(stored, includes, ctx.service.accounts.get(scope.account)?.apiVersion, secret)
  },
}
