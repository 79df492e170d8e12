import {
  DeclaredInputError,
  type DeclaredRequest,
  DeclaredRouter,
  type DeclaredTable,
  declaredRefusal,
  declaredRouteKey,
  serveDeclared,
} from '#http/index.js'
import type { Simulator } from '#simulator/index.js'
import { fail, json, readLimited } from './admin/admin-io.js'
import type { AdminCall } from './admin/admin-route.js'
import { adminRoutes } from './admin/admin-routes.js'
import { ADMIN_PREFIX, type AdminHost, MAX_BODY_BYTES, manualHost } from './admin/host.js'

export { ADMIN_PREFIX, type AdminHost, MAX_BODY_BYTES } from './admin/host.js'

/**
 * Every route of the admin API, as `METHOD /path` under `/__sim` (read off the declarations in
 * `src/cli/admin/`, from which `docs/admin-api.openapi.yaml` is generated).
 *
 * @example
 * ADMIN_ROUTES.includes('POST /events/trigger') // true
 */
export const ADMIN_ROUTES: readonly string[] = adminRoutes.map(declaredRouteKey)

/** The admin API as a table of declared routes: its answers pretty-printed, its refusals in the envelope. */
const adminTable: DeclaredTable<AdminHost, AdminCall, Response> = {
  router: new DeclaredRouter(adminRoutes),
  call: (host, input) => ({ host, sim: host.sim, ...input }),
  unknown: (method, path, known) =>
    known
      ? fail(405, `${method} is not served at /__sim${path}; see docs/admin-api.openapi.yaml`)
      : fail(404, `no admin route ${method} ${path}; see docs/admin-api.openapi.yaml or 'service-sim serve --help'`),
  refuse: (error) => {
    const refusal = declaredRefusal(error)
    return json(refusal.status, refusal.toJSON())
  },
}

/**
 * Serves one admin request whose URL is under `/__sim/`; `text` is its body (read on demand).
 *
 * @example
 * const res = await serveAdmin(host, 'POST', new URL('http://127.0.0.1/__sim/settle'), () => '')
 */
export function serveAdmin(host: AdminHost, method: string, url: URL, text: () => string | Promise<string>): Promise<Response> {
  const request: DeclaredRequest = { method, path: url.pathname.slice(ADMIN_PREFIX.length - 1), url, text }
  return serveDeclared(adminTable, host, request)
}

/** The body of a `Request`, refused with a 413 (without reading it whole) when over `MAX_BODY_BYTES`. */
async function limitedText(req: Request): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) throw new DeclaredInputError(413, `request body over ${MAX_BODY_BYTES} bytes`)
  const text = await readLimited(req.body, MAX_BODY_BYTES)
  if (text === undefined) throw new DeclaredInputError(413, `request body over ${MAX_BODY_BYTES} bytes`)
  return text
}

/**
 * The admin API of `service-sim serve`: setup, inspection, time travel, events, deliveries, faults
 * and reset over HTTP, so test suites in any language can drive the simulation. Everything outside
 * `/__sim/` goes to the served simulator's `fetch`. Every input is validated (zod) before anything
 * changes; a refusal is answered in the JSON error envelope. The routes are `adminRoutes`, served
 * by the HTTP layer's declared-route dispatcher.
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
    return serveAdmin(host, req.method, url, () => limitedText(req))
  }
}
