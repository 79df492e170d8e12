import { RegExpRouter } from 'hono/router/reg-exp-router'
import type { Route } from './route.js'

/** The result of matching a method and path: the route and its path parameters. */
export interface RouteMatch {
  readonly route: Route
  readonly params: Record<string, string>
}

/**
 * The router interface: the handler depends on it, never on an implementation, so a faster or
 * simpler router can be swapped in.
 *
 * @example
 * const router = createRouter(routes)
 * router.match('GET', '/v1/customers/cus_1') // { route, params: { id: 'cus_1' } }
 * router.allows('/v1/customers/cus_1')       // ['GET', 'POST', 'DELETE'] when those exist
 */
export interface Router {
  match(method: string, path: string): RouteMatch | undefined
  /** Methods that exist for a path, to tell 405 from 404. */
  allows(path: string): string[]
}

const METHODS = ['GET', 'POST', 'DELETE'] as const

// Route tables are static, so the compiled router is shared by every simulator of a process:
// property runs create thousands of simulators and should not recompile the same expression.
const compiled = new WeakMap<readonly Route[], Router>()

/** A router over hono's `RegExpRouter`, which compiles every path into one regular expression. */
export function createRouter(routes: readonly Route[]): Router {
  const cached = compiled.get(routes)
  if (cached !== undefined) return cached
  const built = compile(routes)
  compiled.set(routes, built)
  return built
}

function compile(routes: readonly Route[]): Router {
  const router = new RegExpRouter<Route>()
  for (const r of routes) router.add(r.method, r.path, r)
  function match(method: string, path: string): RouteMatch | undefined {
    const [handlers, stash] = router.match(method, path) as [[Route, Record<string, number | string>][], string[] | undefined]
    const first = handlers[0]
    if (first === undefined) return undefined
    const [route, map] = first
    const params: Record<string, string> = {}
    for (const k in map) {
      const v = map[k]
      params[k] = stash && typeof v === 'number' ? decodeParam(stash[v] ?? '') : String(v)
    }
    return { route, params }
  }
  return {
    match,
    allows: (path) => METHODS.filter((m) => match(m, path) !== undefined),
  }
}

/** A malformed escape (`/v1/customers/%`) stays as written: the lookup then answers 404, not a throw. */
function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}
