import { requestParamsAt } from '../version-edge.js'
import type { PipelineContext } from './pipeline-context.js'

/**
 * At an older version, walks the decoded params forward to the current version's: expand paths
 * only the answer can honour are deferred to its walk back, and values with no current place are
 * kept aside for the route. Nothing happens at the current version.
 *
 * @example
 * walkForwardStep(ctx) // at 2022-08-01: ctx.body read as current params, ctx.deferred, ctx.aside
 */
export function walkForwardStep(ctx: PipelineContext): void {
  if (!ctx.walk) return
  const operation = ctx.route!.operation
  const version = ctx.version!
  const forwardBody = requestParamsAt(operation, version, ctx.body)
  const forwardQuery = requestParamsAt(operation, version, ctx.query)
  ctx.body = forwardBody.params
  ctx.query = forwardQuery.params
  ctx.deferred = [...forwardBody.deferred, ...forwardQuery.deferred]
  const kept = { ...forwardQuery.aside, ...forwardBody.aside }
  if (Object.keys(kept).length > 0) ctx.aside = kept
}
