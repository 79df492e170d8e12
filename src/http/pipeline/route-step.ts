import { tableError } from '#domain/service-error.js'
import { offMeterEventsHost } from '../route-table.js'
import type { PipelineContext } from './pipeline-context.js'

/**
 * Finds the route of a request among the handler's routes, or refuses it: 405 naming the methods
 * the path has, else 404. The operation is named on the request in flight before anything else
 * runs, so a refusal by a later step (an expired session's 401) is traced with it.
 *
 * @example
 * routeStep(ctx) // ctx.route, ctx.params; throws 404 url_unrecognized for an unknown path
 */
export function routeStep(ctx: PipelineContext): void {
  const { method, path } = ctx
  const routes = ctx.host.routes
  const offHost = offMeterEventsHost(path, ctx.incoming.url.href)
  const match = offHost ? undefined : routes.match(method, path)
  if (match === undefined) {
    const allowed = offHost ? [] : routes.allows(path)
    if (allowed.length > 0) {
      const methods = allowed.join(', ')
      throw tableError('method_not_allowed', { method, path, allowed: methods }, { headers: { Allow: methods } })
    }
    throw tableError('url_unrecognized', { method, path })
  }
  ctx.route = match.route
  ctx.params = match.params
  ctx.flight.operation = match.route.operation
}
