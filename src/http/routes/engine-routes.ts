import { errorMessage } from '#catalogue/errors.js'
import { operations } from '#catalogue/index.js'
import { NOT_SERVED } from '#catalogue/not-served.js'
import type { Operation } from '#catalogue/types.js'
import type { OperationCall } from '#domain/engine/declaration.js'
import { expandPaths } from '#domain/engine/expand.js'
import { servingsOf } from '#domain/engine/operation-index.js'
import { servedDeclarations as declarations } from '#domain/served-declarations.js'
import { ServiceError } from '#domain/service-error.js'
import { headerNames } from '../prefixed-headers.js'
import type { RequestContext, Route } from '../route.js'
import { originOf, scopeOf } from './resource-helpers.js'

/**
 * A route handler that runs an engine operation with the request's scope, origin, path params and
 * params (the body, or the query of a GET).
 *
 * @example
 * const route: Route = { method: 'POST', path: '/v1/customers', operation: 'customers.create', handle: engineHandle('customers.create') }
 */
export function engineHandle(operation: string): (ctx: RequestContext) => unknown {
  return (ctx) => {
    // Members added after the literal, in the order the call always had: no temporary objects spread per request.
    const call: { -readonly [K in keyof OperationCall]: OperationCall[K] } = {
      scope: scopeOf(ctx),
      origin: originOf(ctx),
      path: ctx.params,
      // The official client sends a DELETE's params in the query (`subscriptions.cancel({ prorate })`).
      params: paramsOf(ctx.method, ctx.query as Record<string, unknown>, ctx.body as Record<string, unknown>),
      flight: ctx.inflight,
    }
    // The version header's value when the request sent one (the version in force otherwise comes from the account).
    if (ctx.versionSent) call.versionHeader = ctx.version
    if (ctx.aside !== undefined) call.aside = ctx.aside
    return ctx.service.engine.run(operation, call)
  }
}

function paramsOf(method: string, query: Record<string, unknown>, body: Record<string, unknown>): Record<string, unknown> {
  if (method === 'GET') return query
  return method === 'DELETE' ? { ...query, ...body } : body
}

/** The answer of an operation nobody serves: 501 `not_implemented` naming it (the client must not retry). */
function notImplemented(op: Operation): Route {
  return {
    method: op.method,
    path: op.path,
    operation: op.name,
    mutates: false,
    // Whatever it is sent, the answer is the same 501.
    checksParams: false,
    handle(ctx) {
      throw new ServiceError({
        status: 501,
        type: 'invalid_request_error',
        code: 'not_implemented',
        message: errorMessage('not_implemented', { operation: op.name, method: op.method, path: op.path }),
        headers: { [headerNames(ctx.service.kernel.prefix).shouldRetry]: 'false' },
      })
    },
  }
}

/** Path with placeholders blanked, so `/v1/customers/:customer` and `/v1/customers/:id` are one path. */
const shapeOf = (method: string, path: string) => `${method} ${path.replace(/:\w+/g, ':')}`

/** `expand[]` on any v1 answer: ids the scope knows become objects, includable fields are shown only when named. */
function withExpand(route: Route): Route {
  if (route.path.startsWith('/v2/')) return route
  return {
    ...route,
    async handle(ctx) {
      const answer = await route.handle(ctx)
      const paths = expandPaths(ctx.method === 'GET' ? ctx.query : ctx.body)
      return ctx.service.engine.render(scopeOf(ctx), answer, paths)
    },
  }
}

/**
 * The route table from the catalogue: every operation of the official client is answered, by
 * (a) a hand-written route (behaviour) with its verb and path, else (b) the resource engine when
 * the operation belongs to a declared resource, else (c) a 501 naming it. Hand-written routes the
 * catalogue does not list (admin-style extras) stay as they are.
 *
 * @example
 * const routes = catalogueRoutes([eventResendRoute, ...offSessionPaymentRoutes])
 */
export function catalogueRoutes(behaviours: readonly Route[]): Route[] {
  const taken = new Set(behaviours.map((r) => shapeOf(r.method, r.path)))
  const servings = servingsOf(operations(), declarations)
  const out: Route[] = behaviours.map(withExpand)
  for (const op of operations()) {
    const key = shapeOf(op.method, op.path)
    if (taken.has(key)) continue
    taken.add(key)
    const serving = Object.hasOwn(NOT_SERVED, op.name) ? undefined : servings.get(op.name)
    if (serving === undefined) {
      out.push(notImplemented(op))
      continue
    }
    const onId =
      serving.verb === 'retrieve' || serving.verb === 'update' || serving.verb === 'delete' || serving.verb === 'action'
    out.push(
      withExpand({
        method: op.method,
        path: op.path,
        operation: op.name,
        ...(onId && op.pathParams.length > 0 ? { object: op.pathParams.at(-1) as string } : {}),
        ...serving.declaration.traits?.[op.name],
        handle: engineHandle(op.name),
      }),
    )
  }
  return out
}
