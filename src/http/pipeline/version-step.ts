import { parseApiVersion } from '../api-version.js'
import { checkRetiredAt } from '../routes/retired-routes.js'
import { scopedHeader } from '../scoped-header.js'
import { checkServedVersion, needsWalk } from '../version-edge.js'
import type { PipelineContext } from './pipeline-context.js'

/**
 * Reads the API version in force (the version header, else the account's default) and refuses one
 * the service does not serve. At an older version a retired operation's literal path takes the
 * place of a current placeholder route, and a retired operation is refused after its last version.
 *
 * @example
 * versionStep(ctx) // ctx.version '2026-10-28.endive', ctx.walk false at the current version
 */
export function versionStep(ctx: PipelineContext): void {
  const { names } = ctx.host
  const header = scopedHeader(ctx.incoming.headers, names, 'version')
  const version = header === undefined ? ctx.principal!.account.apiVersion : parseApiVersion(header.value, header.name)
  ctx.version = version
  ctx.versionSent = header !== undefined
  if (header !== undefined) checkServedVersion(version, header.name)
  // At the current version nothing below walks: a string comparison is the whole cost.
  const walk = needsWalk(version)
  ctx.walk = walk
  const { method, path } = ctx
  // (Off the meter-events host the route step has refused already.)
  if (walk) {
    const older = ctx.host.routes.older(method, path)
    if (older !== undefined && older.route !== ctx.route) {
      ctx.route = older.route
      ctx.params = older.params
      ctx.flight.operation = older.route.operation
    }
  }
  checkRetiredAt(ctx.route!, version, method, path)
}
