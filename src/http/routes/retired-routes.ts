import { operations } from '#catalogue/index.js'
import { declaredAt, type RetiredOperation, retiredOperations, servedUpTo } from '#catalogue/versions.js'
import { expandPaths } from '#domain/engine/expand.js'
import { type ServiceError, tableError } from '#domain/service-error.js'
import { RETIRED_BEHAVIOURS } from '#domain/versions/retired/index.js'
import { catalogueParams } from '../operation-params.js'
import type { RequestContext, Route } from '../route.js'
import { createRouter, type Router } from '../router.js'
import { originOf, scopeOf } from './resource-helpers.js'

/** Per retired route, the operation as generated (its last version, its params type). */
const retiredOf = new WeakMap<Route, RetiredOperation>()

let router: Router | undefined

/**
 * The routes of operations the current client no longer declares and the simulator serves at the
 * versions that had them (`GET /v1/invoices/upcoming`...), built from the generated facts on the
 * first request no current route matches: a request at the current version never reads them.
 *
 * @example
 * retiredRouter().match('GET', '/v1/invoices/upcoming')?.route.operation // 'invoices.retrieveUpcoming'
 */
export function retiredRouter(): Router {
  if (router !== undefined) return router
  const routes: Route[] = []
  for (const [name, op] of Object.entries(retiredOperations())) {
    const behaviour = RETIRED_BEHAVIOURS[name]
    if (behaviour === undefined) continue
    const route: Route = {
      method: op.method,
      path: op.path,
      operation: name,
      mutates: op.method !== 'GET',
      ...(op.pathParams.length > 0 ? { object: op.pathParams.at(-1) as string } : {}),
      handle(ctx) {
        const params = checkedParams(ctx, op)
        const answer = behaviour({
          service: ctx.service,
          scope: scopeOf(ctx),
          version: ctx.version,
          path: ctx.params,
          params,
          run: (operation, current) => runCurrent(ctx, operation, current),
        })
        // `expand[]` as on any v1 answer (paths naming a field the version walk restores are
        // expanded on the walked answer instead).
        const paths = expandPaths(params)
        return paths.length === 0 ? answer : ctx.service.engine.expand(scopeOf(ctx), answer, paths)
      },
    }
    retiredOf.set(route, op)
    routes.push(route)
  }
  router = createRouter(routes)
  return router
}

/**
 * Refuses a retired operation at a version after the last one that had it, as the provider
 * answers a URL it no longer knows (404).
 *
 * @example
 * checkRetiredAt(route, '2025-03-31.basil', 'GET', '/v1/invoices/upcoming') // throws 404 url_unrecognized
 */
export function checkRetiredAt(route: Route, version: string, method: string, path: string): void {
  const op = retiredOf.get(route)
  if (op !== undefined && !servedUpTo(version, op.last)) throw tableError('url_unrecognized', { method, path })
}

/**
 * The provider's unrecognized-URL 404 for a request a current placeholder route took as its own
 * (`GET /v1/invoices/upcoming` read as the retrieve of an invoice `upcoming`) at a version after
 * the retired operation's last: the URL the provider no longer knows, not the refusal that route
 * gave (`resource_missing`, or `parameter_unknown` for the old operation's params). Called with a
 * refusal only: an id a placeholder matches is never a retired literal, so no answer is lost.
 *
 * @example
 * retiredShadow('GET', '/v1/invoices/upcoming', invoicesRetrieve, '2026-10-28.endive') // 404 url_unrecognized
 */
export function retiredShadow(method: string, path: string, route: Route, version: string): ServiceError | undefined {
  const older = retiredRouter().match(method, path)
  if (older === undefined || older.route === route) return undefined
  const op = retiredOf.get(older.route)
  if (op === undefined || servedUpTo(version, op.last)) return undefined
  return tableError('url_unrecognized', { method, path })
}

/** The params as sent (the query of a GET), with keys the version's params type did not declare refused. */
function checkedParams(ctx: RequestContext, op: RetiredOperation): Record<string, unknown> {
  const params = (ctx.method === 'GET' ? ctx.query : ctx.body) as Record<string, unknown>
  const declared = op.params === null ? undefined : declaredAt(ctx.version, op.params, 'params')
  if (declared !== undefined) {
    const listed = op.returns?.kind === 'list'
    for (const key of Object.keys(params)) {
      if (declared.has(key) || (listed && PAGE.has(key))) continue
      throw tableError('parameter_unknown', { param: key }, { param: key })
    }
  }
  return params
}

const PAGE = new Set(['limit', 'starting_after', 'ending_before'])

/** A route per current operation a retired one runs, so the catalogue check compiles its params once. */
const probes = new Map<string, Route>()

/** Runs a current operation as its own route would: its params checked by the catalogue first. */
function runCurrent(ctx: RequestContext, name: string, params: Record<string, unknown>): unknown {
  let probe = probes.get(name)
  if (probe === undefined) {
    const op = operations().find((o) => o.name === name)
    if (op === undefined) throw new TypeError(`no current operation ${name}`)
    probe = { method: op.method, path: op.path, operation: name, handle: () => undefined }
    probes.set(name, probe)
  }
  const checked = catalogueParams.check(probe, 'POST', params, {}, 'v1')
  return ctx.service.engine.run(name, {
    scope: scopeOf(ctx),
    origin: originOf(ctx),
    path: {},
    params: checked.body,
    flight: ctx.inflight,
  })
}
