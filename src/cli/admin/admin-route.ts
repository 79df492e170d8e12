import type { DeclaredInput, DeclaredRoute } from '#http/index.js'
import type { Simulator } from '#simulator/index.js'
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
export interface AdminCall<Q = unknown, B = unknown> extends DeclaredInput<Q, B> {
  readonly host: AdminHost
  readonly sim: Simulator
}

/**
 * One admin route, declared once as a declared route of the HTTP layer (method, path pattern,
 * input schemas, handler) with its documentation: the declared-route dispatcher serves it
 * (validating `query` or `body` before the handler runs) and the OpenAPI document is generated
 * from it.
 *
 * @example
 * adminRoute({ method: 'POST', path: '/settle', summary: 'Run the work due now', responses: { '200': NOW },
 *   handler: async ({ sim }) => { await sim.settle(); return json(200, {}) } })
 */
export interface AdminRoute<Q = unknown, B = unknown> extends DeclaredRoute<AdminCall<Q, B>, Response, Q, B> {
  readonly summary: string
  readonly description?: string
  /** Whether the OpenAPI document marks the body required (default: when it has required fields). */
  readonly bodyRequired?: boolean
  /** The documented body when it differs from the schema's own (a union the generator cannot name well). */
  readonly bodyDoc?: OpenApiFragment
  /** OpenAPI responses by status; the error response is added to every route. */
  readonly responses: Readonly<Record<string, OpenApiFragment>>
}

/**
 * Declares a route with its input types inferred from its schemas.
 *
 * @example
 * export const settle = adminRoute({ method: 'POST', path: '/settle', summary: '...', responses: {}, handler: () => json(200, {}) })
 */
export function adminRoute<Q = Record<string, never>, B = Record<string, never>>(route: AdminRoute<Q, B>): AdminRoute {
  return route as unknown as AdminRoute
}
