import { ServiceError } from '#domain/service-error.js'
import type { Simulator } from '../simulator/create-simulator.js'
import { AdminInputError, fail, readBody, readQuery } from './admin/admin-io.js'
import { type AdminRoute, empty, pathMatcher, routeKey } from './admin/admin-route.js'
import { adminRoutes } from './admin/admin-routes.js'
import { ADMIN_PREFIX, type AdminHost, manualHost } from './admin/host.js'

export { ADMIN_PREFIX, type AdminHost, MAX_BODY_BYTES } from './admin/host.js'

const byKey = new Map(adminRoutes.map((r) => [routeKey(r), r]))
const servedPaths = new Set(adminRoutes.map((r) => r.path))
// Routes with `{name}` segments, tried in order when no plain route has the exact path.
const templated = adminRoutes.filter((r) => r.path.includes('{')).map((r) => ({ route: r, match: pathMatcher(r.path) }))

/** The route serving `method path`, with its path's named segments. */
function find(method: string, path: string): { route: AdminRoute | undefined; params: Record<string, string>; known: boolean } {
  const plain = byKey.get(`${method} ${path}`)
  if (plain !== undefined) return { route: plain, params: {}, known: true }
  let known = servedPaths.has(path)
  for (const t of templated) {
    const params = t.match(path)
    if (params === undefined) continue
    if (t.route.method === method) return { route: t.route, params, known: true }
    known = true
  }
  return { route: undefined, params: {}, known }
}

/**
 * Every route of the admin API, as `METHOD /path` under `/__sim` (read off the declarations in
 * `src/cli/admin/`, from which `docs/admin-api.openapi.yaml` is generated).
 *
 * @example
 * ADMIN_ROUTES.includes('POST /events/trigger') // true
 */
export const ADMIN_ROUTES: readonly string[] = adminRoutes.map(routeKey)

/** Reads a route's declared input, refusing what it does not declare, before anything changes. */
async function serve(
  route: AdminRoute,
  host: AdminHost,
  req: Request,
  url: URL,
  path: Record<string, string>,
): Promise<Response> {
  let query: unknown = {}
  let body: unknown = {}
  if (route.method === 'GET') query = readQuery(url, route.query ?? empty)
  else {
    // A stray query on a write is a mistake worth saying.
    if (url.search !== '') return fail(400, `${routeKey(route)} takes no query parameters`)
    body = await readBody(req, route.body ?? empty).catch((error: unknown) => {
      if (route.bodyHint !== undefined && error instanceof AdminInputError && error.status === 400)
        throw new AdminInputError(400, `${route.bodyHint}: ${error.message}`, error.param)
      throw error
    })
  }
  return route.handler({ host, sim: host.sim, req, query, body, path })
}

/**
 * The admin API of `service-sim serve`: setup, inspection, time travel, events, deliveries, faults
 * and reset over HTTP, so test suites in any language can drive the simulation. Everything outside
 * `/__sim/` goes to the served simulator's `fetch`. Every input is validated (zod) before anything
 * changes; a refusal is answered in the JSON error envelope. The routes are `adminRoutes`.
 *
 * @example
 * const handler = withAdminApi(sim)
 * await handler(new Request('http://127.0.0.1/__sim/clock/advance', { method: 'POST', body: '{"duration":"15m"}' }))
 */
export function withAdminApi(target: Simulator | AdminHost): (req: Request) => Promise<Response> {
  const host: AdminHost = 'fetch' in target ? manualHost(target) : target
  return async (req) => {
    const url = new URL(req.url)
    if (!url.pathname.startsWith(ADMIN_PREFIX)) return host.sim.fetch(req)
    const path = url.pathname.slice(ADMIN_PREFIX.length - 1)
    const { route, params, known } = find(req.method, path)
    if (route === undefined)
      return known
        ? fail(405, `${req.method} is not served at /__sim${path}; see docs/admin-api.openapi.yaml`)
        : fail(404, `no admin route ${req.method} ${path}; see docs/admin-api.openapi.yaml or 'service-sim serve --help'`)
    try {
      return await serve(route, host, req, url, params)
    } catch (error) {
      if (error instanceof AdminInputError) return fail(error.status, error.message, error.param)
      if (error instanceof ServiceError) return fail(error.status === 404 ? 404 : 400, error.message, error.param)
      return fail(400, error instanceof Error ? error.message : String(error))
    }
  }
}
