import { operations, typeShape } from '#catalogue/index.js'
import type { Field, Operation, Shape } from '#catalogue/types.js'
import { expandPaths } from '#domain/engine/expand.js'
import { ParamsCompiler, type ParamsValidator } from './catalogue-params.js'
import { checkExpand } from './expand-paths.js'
import type { Route } from './route.js'

/** What the params check needs of the catalogue (`#catalogue/index.js` provides it). */
export interface ParamsCatalogue {
  operations(): readonly Operation[]
  typeShape(name: string): Shape | undefined
}

/** The parameters of a request after the catalogue check: coerced, unknown keys refused. */
export interface CheckedParams {
  readonly body: Record<string, unknown>
  readonly query: Record<string, unknown>
}

const V2_PAGE: Readonly<Record<string, Field>> = { page: { shape: { t: 'string' }, optional: true } }

/** `GET /v1/customers/:id` and `/v1/customers/:customer` are one operation: placeholder names do not matter. */
function key(method: string, path: string): string {
  return `${method} ${path.replace(/:[^/]+/g, ':')}`
}

/**
 * The catalogue's parameters on every served operation: each route is matched once (by verb and
 * path template) to the official client's operation, whose params type is compiled on first use.
 * Nothing is read or compiled at import or construction.
 *
 * @example
 * const params = createOperationParams(catalogue)
 * const { body, query } = params.check(route, 'POST', decoded, rawQuery, 'v1') // throws the provider's 400
 */
export function createOperationParams(catalogue: ParamsCatalogue) {
  let index: Map<string, Operation> | undefined
  let compiler: ParamsCompiler | undefined
  const perRoute = new WeakMap<Route, ParamsValidator | null>()

  function operationOf(route: Pick<Route, 'method' | 'path'>): Operation | undefined {
    index ??= new Map(catalogue.operations().map((op) => [key(op.method, op.path), op]))
    return index.get(key(route.method, route.path))
  }

  function validatorOf(route: Route): ParamsValidator | null {
    const known = perRoute.get(route)
    if (known !== undefined) return known
    const op = route.checksParams === false ? undefined : operationOf(route)
    let validator: ParamsValidator | null = null
    if (op !== undefined) {
      compiler ??= new ParamsCompiler((name) => catalogue.typeShape(name))
      validator = compiler.validator(op.params, {
        ...(route.checksOwn === undefined ? {} : { own: route.checksOwn }),
        // The client follows a v2 list's `next_page_url` as it is: its `page` token is no declared param.
        ...(op.api === 'v2' && op.returns.kind === 'list' ? { extra: V2_PAGE } : {}),
      })
    }
    perRoute.set(route, validator)
    return validator
  }

  return {
    operationOf,
    /**
     * Checks and coerces a request's parameters against its operation's params type: the body of
     * a POST, the query of a GET or DELETE (and a DELETE's body, should a caller send one there).
     * A route no catalogue operation matches gets its input unchanged (its own schema decides).
     */
    check(
      route: Route,
      method: string,
      body: Record<string, unknown>,
      query: Record<string, unknown>,
      style: 'v1' | 'v2',
    ): CheckedParams {
      const validate = validatorOf(route)
      if (validate === null) return { body, query }
      const checked =
        method === 'POST'
          ? { body: validate(body, style === 'v1' ? 'form' : 'json'), query }
          : {
              body: Object.keys(body).length === 0 ? body : validate(body, style === 'v1' ? 'form' : 'json'),
              query: validate(query, style === 'v1' ? 'form' : 'query'),
            }
      const expand = checked.body.expand ?? checked.query.expand
      if (expand !== undefined) {
        const op = operationOf(route)
        if (op !== undefined) checkExpand(op, expandPaths({ expand }), catalogue.typeShape)
      }
      return checked
    },
  }
}

/** The params check of a handler. */
export type OperationParams = ReturnType<typeof createOperationParams>

/** The params check over the generated catalogue, shared by every simulator of a process (compiled types are plain data). */
export const catalogueParams: OperationParams = createOperationParams({ operations, typeShape })
