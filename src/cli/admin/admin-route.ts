import { z } from 'zod'
import type { Simulator } from '../../simulator/create-simulator.js'
import type { AdminHost } from './host.js'

/**
 * An OpenAPI fragment, written as data (response schemas, `$ref`s to the document's components).
 *
 * @example
 * const ok: OpenApiFragment = { description: 'The meter', content: { 'application/json': { schema: { type: 'object' } } } }
 */
export type OpenApiFragment = Readonly<Record<string, unknown>>

/**
 * What a route's handler gets: the host, its simulator now, and the validated input.
 *
 * @example
 * handler: ({ sim, body }: AdminCall<unknown, { email?: string }>) => json(200, { email: body.email ?? null })
 */
export interface AdminCall<Q, B> {
  readonly host: AdminHost
  readonly sim: Simulator
  readonly req: Request
  readonly query: Q
  readonly body: B
  /** The path's `{name}` parts (`/customer/checkout/{id}/complete`: `{ id }`). */
  readonly path: Readonly<Record<string, string>>
}

/**
 * One admin route, declared once: the dispatcher serves it from here (validating `query` or `body`
 * before the handler runs) and the OpenAPI document is generated from it.
 *
 * @example
 * adminRoute({ method: 'POST', path: '/settle', summary: 'Run the work due now', responses: { '200': NOW },
 *   handler: async ({ sim }) => { await sim.settle(); return json(200, {}) } })
 */
export interface AdminRoute<Q = unknown, B = unknown> {
  readonly method: 'GET' | 'POST'
  /** Under `/__sim`; a `{name}` segment matches one path segment, given to the handler as `path.name`. */
  readonly path: string
  readonly summary: string
  readonly description?: string
  /** Query parameters (GET); none declared: any query is refused. */
  readonly query?: z.ZodType<Q>
  /** JSON body (POST); none declared: the body must be empty or `{}`. */
  readonly body?: z.ZodType<B>
  /** Whether the OpenAPI document marks the body required (default: when it has required fields). */
  readonly bodyRequired?: boolean
  /** The documented body when it differs from the schema's own (a union the generator cannot name well). */
  readonly bodyDoc?: OpenApiFragment
  /** Prefixed to a 400 about the body, to say what was expected. */
  readonly bodyHint?: string
  /** OpenAPI responses by status; the error response is added to every route. */
  readonly responses: Readonly<Record<string, OpenApiFragment>>
  readonly handler: (call: AdminCall<Q, B>) => Response | Promise<Response>
}

/**
 * No parameters at all.
 *
 * @example
 * readBody(req, empty) // {} or an empty body; anything else is a 400
 */
export const empty = z.strictObject({})

/**
 * Declares a route with its input types inferred from its schemas.
 *
 * @example
 * export const settle = adminRoute({ method: 'POST', path: '/settle', summary: '...', responses: {}, handler: () => json(200, {}) })
 */
export function adminRoute<Q = Record<string, never>, B = Record<string, never>>(route: AdminRoute<Q, B>): AdminRoute {
  return route as unknown as AdminRoute
}

/**
 * `METHOD /path` of a route, as the dispatcher matches it.
 *
 * @example
 * routeKey(settle) // 'POST /settle'
 */
export const routeKey = (route: AdminRoute): string => `${route.method} ${route.path}`

/**
 * The names of a route path's `{name}` segments, in order.
 *
 * @example
 * pathNames('/customer/checkout/{id}/complete') // ['id']
 */
export const pathNames = (path: string): string[] => [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string)

/**
 * A matcher of a templated route path (`/customer/checkout/{id}/complete`): the segment values by
 * name, or undefined when `path` is not one of its paths.
 *
 * @example
 * pathMatcher('/customer/checkout/{id}/complete')('/customer/checkout/cs_1/complete') // { id: 'cs_1' }
 */
export function pathMatcher(template: string): (path: string) => Record<string, string> | undefined {
  const names = pathNames(template)
  const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[a-z_]+\\?\}/g, '([^/]+)')}$`)
  return (path) => {
    const m = re.exec(path)
    if (m === null) return undefined
    try {
      return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] as string)]))
    } catch {
      return undefined // a malformed escape names no object
    }
  }
}
