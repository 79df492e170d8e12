import type { z } from 'zod'

/**
 * What a declared route's handler reads of its request: the validated query (GET) or JSON body
 * (other methods), the path's `{name}` segments, and the URL as sent.
 *
 * @example
 * const input: DeclaredInput<{ since?: number }, Record<string, never>> = { query: { since: 3 }, body: {}, path: {}, url, text: () => '' }
 */
export interface DeclaredInput<Q = unknown, B = unknown> {
  readonly query: Q
  readonly body: B
  /** The path's `{name}` parts (`/customer/checkout/{id}/complete`: `{ id }`). */
  readonly path: Readonly<Record<string, string>>
  readonly url: URL
  /** The body text as sent, for a `raw` route (a route with declared input has it in `body`). */
  readonly text: () => string | Promise<string>
}

/**
 * One route declared as data: method, path pattern, input schemas and handler. A table of them is
 * served by `serveDeclared` (match, decode, validate, answer refusals in the error envelope) and
 * documented from the same declarations. `C` is what the handler is called with (built by the
 * table from its context and the validated input), `A` its answer.
 *
 * @example
 * const settle: DeclaredRoute<{ sim: Simulator }, Response> = {
 *   method: 'POST', path: '/settle', handler: async ({ sim }) => { await sim.settle(); return new Response('{}') },
 * }
 */
export interface DeclaredRoute<C = never, A = unknown, Q = unknown, B = unknown> {
  readonly method: 'GET' | 'POST'
  /**
   * A path pattern: `{name}` matches one segment (given to the handler as `path.name`), a last
   * `{name*}` the rest of the path as sent (undecoded).
   */
  readonly path: string
  /** Query parameters (GET); none declared: any query is refused. */
  readonly query?: z.ZodType<Q>
  /** JSON body (other methods); none declared: the body must be empty or `{}`. */
  readonly body?: z.ZodType<B>
  /** Prefixed to a 400 about the body, to say what was expected. */
  readonly bodyHint?: string
  /**
   * The handler reads the URL and the body text itself (a page, an action it passes on): nothing
   * is decoded or refused before it runs.
   */
  readonly raw?: true
  readonly handler: (call: C) => A | Promise<A>
}

/**
 * `METHOD /path` of a route, as the router matches it.
 *
 * @example
 * declaredRouteKey({ method: 'POST', path: '/settle' }) // 'POST /settle'
 */
export const declaredRouteKey = (route: { readonly method: string; readonly path: string }): string =>
  `${route.method} ${route.path}`

/**
 * The names of a path pattern's `{name}` segments, in order.
 *
 * @example
 * declaredPathNames('/customer/checkout/{id}/complete') // ['id']
 */
export const declaredPathNames = (path: string): string[] => [...path.matchAll(/\{([a-z_]+)\*?\}/g)].map((m) => m[1] as string)
