import { checkClientSecret } from '../publishable.js'
import type { PipelineContext } from './pipeline-context.js'

/**
 * Narrows a publishable key's request to the one object its client secret names (an intent's read
 * or confirmation), taking the secret out of the params; a secret key's request is left as it is.
 *
 * @example
 * scopeStep(ctx) // throws 400 client_secret_mismatch when the secret is not the intent's
 */
export function scopeStep(ctx: PipelineContext): void {
  const principal = ctx.principal!
  if (principal.publishable !== true) return
  const route = ctx.route!
  const { params, host } = ctx
  const id = params[route.object ?? 'id'] ?? params.intent ?? ''
  if (ctx.method === 'GET') ctx.query = checkClientSecret(host.service, principal, route.operation, id, ctx.query)
  else ctx.body = checkClientSecret(host.service, principal, route.operation, id, ctx.body)
}
