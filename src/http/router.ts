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
const NO_PARAMS: Record<string, string> = Object.freeze({})

// Route tables are static, so the compiled router is shared by every simulator of a process:
// property runs create thousands of simulators and should not rebuild the same tree.
const compiled = new WeakMap<readonly Route[], Router>()

/**
 * A router over a tree of path segments. A literal segment always wins over a placeholder at the
 * same place (`/v1/customers/search` is the search, never a retrieve of id `search`), and a
 * placeholder matches where no literal leads to a route. Routes added earlier win a tie (the same
 * method and path twice).
 */
export function createRouter(routes: readonly Route[]): Router {
  const cached = compiled.get(routes)
  if (cached !== undefined) return cached
  const built = compile(routes)
  compiled.set(routes, built)
  return built
}

interface Leaf {
  readonly route: Route
  /** Placeholder names in path order. */
  readonly names: readonly string[]
}

interface Node {
  readonly literal: Map<string, Node>
  param: Node | undefined
  readonly leaves: Map<string, Leaf>
}

const node = (): Node => ({ literal: new Map(), param: undefined, leaves: new Map() })

/** Segments after the leading `/`; an empty one (a trailing or doubled `/`) matches no placeholder. */
function segments(path: string): string[] {
  return path.split('/').slice(1)
}

function compile(routes: readonly Route[]): Router {
  const root = node()
  for (const r of routes) {
    let at = root
    const names: string[] = []
    for (const seg of segments(r.path)) {
      if (seg.startsWith(':')) {
        names.push(seg.slice(1))
        at.param ??= node()
        at = at.param
      } else {
        let next = at.literal.get(seg)
        if (next === undefined) {
          next = node()
          at.literal.set(seg, next)
        }
        at = next
      }
    }
    if (!at.leaves.has(r.method)) at.leaves.set(r.method, { route: r, names })
  }

  /** The node a path ends at, literals first, backtracking to placeholders; `accept` says whether a node ends a match. */
  function walk(segs: readonly string[], i: number, at: Node, values: string[], accept: (n: Node) => boolean): Node | undefined {
    if (i === segs.length) return accept(at) ? at : undefined
    const seg = segs[i] as string
    const lit = at.literal.get(seg)
    if (lit !== undefined) {
      const found = walk(segs, i + 1, lit, values, accept)
      if (found !== undefined) return found
    }
    if (at.param !== undefined && seg !== '') {
      values.push(seg)
      const found = walk(segs, i + 1, at.param, values, accept)
      if (found !== undefined) return found
      values.pop()
    }
    return undefined
  }

  // A path matches the same way every time (a usage reporter calls two paths over and over, a
  // client retrieves the same object again and again): its match is kept, its params frozen.
  // Bounded, as paths are input.
  const matches = new Map<string, RouteMatch>()

  function match(method: string, path: string): RouteMatch | undefined {
    const key = `${method} ${path}`
    const known = matches.get(key)
    if (known !== undefined) return known
    const found = walkMatch(method, path)
    if (found !== undefined) {
      if (matches.size >= 1024) matches.clear()
      matches.set(key, found)
    }
    return found
  }

  function walkMatch(method: string, path: string): RouteMatch | undefined {
    const values: string[] = []
    // The segments after the leading `/` (index 0 is the empty text before it): no sliced copy.
    const end = walk(path.split('/'), 1, root, values, (n) => n.leaves.has(method))
    const leaf = end?.leaves.get(method)
    if (leaf === undefined) return undefined
    if (leaf.names.length === 0) return { route: leaf.route, params: NO_PARAMS }
    const params: Record<string, string> = {}
    leaf.names.forEach((name, i) => {
      params[name] = decodeParam(values[i] ?? '')
    })
    return { route: leaf.route, params: Object.freeze(params) }
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
