import { authenticate } from '../auth.js'
import type { PipelineContext } from './pipeline-context.js'

/**
 * Authenticates the request for its route and records who it acts for on the request in flight.
 *
 * @example
 * authenticateStep(ctx) // ctx.principal; throws 401 api_key_missing without a key
 */
export function authenticateStep(ctx: PipelineContext): void {
  const { host, flight } = ctx
  const principal = authenticate(host.service, ctx.incoming.headers, ctx.route!, ctx.params, host.names, ctx.style)
  ctx.principal = principal
  flight.account = principal.account.id
  flight.mode = principal.mode
}
