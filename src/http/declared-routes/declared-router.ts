import { declaredRouteKey } from './declared-route.js'

/**
 * How a router reads path segments. `strict`: literal segments match as sent, a `{name}` segment
 * is non-empty and percent-decoded, and a malformed escape matches nothing. `lenient`: every
 * segment is decoded first (a malformed escape stays as sent) and a `{name}` segment may be empty,
 * as a page's URL is read.
 */
export type SegmentDecoding = 'strict' | 'lenient'

/** What a router found: the route with its path's named segments, or whether the path is served at all. */
export type DeclaredMatch<R> =
  | { readonly route: R; readonly params: Record<string, string> }
  | { readonly route: undefined; readonly known: boolean }

interface Pattern<R> {
  readonly route: R
  /** Literal text, or a `{name}` (`rest`: the last `{name*}`). */
  readonly segments: readonly ({ readonly literal: string } | { readonly name: string; readonly rest: boolean })[]
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>

function pattern<R extends { readonly path: string }>(route: R): Pattern<R> {
  const segments = route.path
    .split('/')
    .slice(1)
    .map((seg) => {
      const named = /^\{([a-z_]+)(\*?)\}$/.exec(seg)
      return named === null ? { literal: seg } : { name: named[1] as string, rest: named[2] === '*' }
    })
  return { route, segments }
}

/** A segment decoded, or undefined when its escape is malformed. */
function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/**
 * Matches method and path against routes declared with `{name}` patterns (the admin API, serve's
 * customer pages). A route whose path is plain matches first, by one lookup; patterns are tried in
 * declaration order.
 *
 * @example
 * const router = new DeclaredRouter([{ method: 'POST', path: '/customer/checkout/{id}/complete' }])
 * router.find('POST', '/customer/checkout/cs_1/complete') // { route, params: { id: 'cs_1' } }
 * router.find('GET', '/customer/checkout/cs_1/complete') // { route: undefined, known: true }
 */
export class DeclaredRouter<R extends { readonly method: string; readonly path: string }> {
  private readonly exact = new Map<string, R>()
  private readonly paths = new Set<string>()
  private readonly patterns: readonly Pattern<R>[]

  constructor(
    readonly routes: readonly R[],
    private readonly decoding: SegmentDecoding = 'strict',
  ) {
    for (const r of routes) {
      if (!this.exact.has(declaredRouteKey(r))) this.exact.set(declaredRouteKey(r), r)
      this.paths.add(r.path)
    }
    // Strictly, a plain path matches only itself (the lookup above); leniently, its decoded segments too.
    this.patterns = routes.filter((r) => decoding === 'lenient' || r.path.includes('{')).map(pattern)
  }

  /** The route serving `method path`, or whether another method serves that path (a 405, not a 404). */
  find(method: string, path: string): DeclaredMatch<R> {
    const plain = this.exact.get(`${method} ${path}`)
    if (plain !== undefined) return { route: plain, params: NO_PARAMS }
    let known = this.paths.has(path)
    const segs = path.split('/').slice(1)
    for (const p of this.patterns) {
      const params = this.match(p, segs)
      if (params === undefined) continue
      if (p.route.method === method) return { route: p.route, params }
      known = true
    }
    return { route: undefined, known }
  }

  private match(p: Pattern<R>, segs: readonly string[]): Record<string, string> | undefined {
    const strict = this.decoding === 'strict'
    const params: Record<string, string> = {}
    for (let i = 0; i < p.segments.length; i++) {
      const want = p.segments[i] as Pattern<R>['segments'][number]
      const seg = segs[i]
      if (seg === undefined) return undefined
      if ('name' in want && want.rest) {
        params[want.name] = segs.slice(i).join('/')
        return params
      }
      const value = strict ? seg : (decode(seg) ?? seg)
      if ('literal' in want) {
        if (value !== want.literal) return undefined
      } else {
        if (strict && seg === '') return undefined
        const decoded = strict ? decode(seg) : value
        if (decoded === undefined) return undefined
        params[want.name] = decoded
      }
    }
    return segs.length === p.segments.length ? params : undefined
  }
}
