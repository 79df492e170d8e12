import { ServiceError } from '#domain/service-error.js'
import { DeclaredInputError, declaredError, readDeclaredInput } from './declared-input.js'
import type { DeclaredInput, DeclaredRoute } from './declared-route.js'
import type { DeclaredRouter } from './declared-router.js'

/** A request to a table of declared routes: the path the table's patterns are written against, and the body on demand. */
export interface DeclaredRequest {
  readonly method: string
  /** The path as the table declares it (the admin API's `/state`, under its `/__sim` prefix). */
  readonly path: string
  readonly url: URL
  /** The body text, read only when a route that takes one matched (it may refuse with a 413). */
  text(): string | Promise<string>
}

/**
 * A table of declared routes and how it answers: `X` is what it serves (a simulator, a host), `C`
 * what each handler is called with, `A` an answer.
 *
 * @example
 * const table: DeclaredTable<AdminHost, AdminCall, Response> = { router, call, unknown, refuse }
 */
export interface DeclaredTable<X, C, A> {
  readonly router: DeclaredRouter<DeclaredRoute<C, A>>
  /** Builds the handler's call from what the table serves and the validated input. */
  call(context: X, input: DeclaredInput): C
  /** The answer when no route has this path (`known` false) or another method serves it. */
  unknown(method: string, path: string, known: boolean): A
  /** The answer of a refused input or a handler's throw (see `declaredRefusal`). */
  refuse(error: unknown): A
}

/**
 * What a throw from a declared route's input or handler answers, in the API's envelope: an input
 * refusal keeps its status, a service refusal is a 404 or a 400, anything else a 400 saying it.
 *
 * @example
 * declaredRefusal(new Error('no')).status // 400
 */
export function declaredRefusal(error: unknown): ServiceError {
  if (error instanceof DeclaredInputError) return declaredError(error.status, error.message, error.param)
  if (error instanceof ServiceError) return declaredError(error.status === 404 ? 404 : 400, error.message, error.param)
  return declaredError(400, error instanceof Error ? error.message : String(error))
}

/**
 * Serves a request from a table of declared routes: match, read and validate the input before
 * anything changes, run the handler, answer a refusal in the table's envelope.
 *
 * @example
 * const res = await serveDeclared(adminTable, host, { method: 'POST', path: '/settle', url, text: () => '' })
 */
export async function serveDeclared<X, C, A>(table: DeclaredTable<X, C, A>, context: X, request: DeclaredRequest): Promise<A> {
  const found = table.router.find(request.method, request.path)
  if (found.route === undefined) return table.unknown(request.method, request.path, found.known)
  const route = found.route
  try {
    const text = () => request.text()
    const { query, body } = await readDeclaredInput(route as DeclaredRoute<never, unknown>, request.url, text)
    return await route.handler(table.call(context, { query, body, path: found.params, url: request.url, text }))
  } catch (error) {
    return table.refuse(error)
  }
}
