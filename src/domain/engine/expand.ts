import { invalidRequest } from '../service-error.js'
import { isPlainObject } from './apply-params.js'

/** Finds an object of the request's scope by id (any resource the simulator knows). */
export type Lookup = (id: string) => Record<string, unknown> | undefined

/** The provider expands at most this many levels. */
export const MAX_EXPAND_DEPTH = 4

/**
 * The `expand` param as a list of dotted paths (`expand[]=customer&expand[]=data.charge`).
 *
 * @example
 * expandPaths({ expand: ['customer'] }) // ['customer']
 */
export function expandPaths(params: unknown): string[] {
  if (!isPlainObject(params)) return []
  const e = params.expand
  if (typeof e === 'string') return [e]
  if (Array.isArray(e)) return e.filter((x): x is string => typeof x === 'string')
  if (isPlainObject(e)) return Object.values(e).filter((x): x is string => typeof x === 'string')
  return []
}

/**
 * Refuses a path deeper than {@link MAX_EXPAND_DEPTH} levels (a list's `data.` not counted).
 *
 * @example
 * checkExpandDepth('a.b.c.d.e', ['a', 'b', 'c', 'd', 'e'], false) // throws 400, param expand
 */
export function checkExpandDepth(path: string, segs: readonly string[], listed: boolean): void {
  const depth = listed && segs[0] === 'data' ? segs.length - 1 : segs.length
  if (depth > MAX_EXPAND_DEPTH) {
    throw invalidRequest(`You cannot expand more than ${MAX_EXPAND_DEPTH} levels of a property (${path}).`, {
      param: 'expand',
    })
  }
}

/**
 * The value of an includable field an object does not carry (`customer.subscriptions`), or
 * `undefined` when the field is not one the object's type includes on request.
 */
export type Include = (object: Record<string, unknown>, field: string) => unknown

/**
 * A copy of `answer` with each path's id replaced by the object it names, and each includable
 * field on the path filled (`include`). Lists and search results expand through `data.<path>`;
 * ids the scope does not know stay ids; `null` stays `null`.
 *
 * @example
 * expand(pi, ['customer', 'latest_charge.balance_transaction'], lookup)
 * expand(customer, ['subscriptions'], lookup, include) // customer.subscriptions: the list
 */
export function expand(answer: unknown, paths: readonly string[], lookup: Lookup, include?: Include): unknown {
  if (paths.length === 0 || !isPlainObject(answer)) return answer
  const out = structuredClone(answer)
  for (const path of paths) {
    const segs = path.split('.')
    checkExpandDepth(path, segs, Array.isArray(out.data))
    walk(out, segs, lookup, include)
  }
  return out
}

function walk(at: unknown, segs: readonly string[], lookup: Lookup, include: Include | undefined): void {
  if (Array.isArray(at)) {
    for (const item of at) walk(item, segs, lookup, include)
    return
  }
  if (!isPlainObject(at) || segs.length === 0) return
  const [head, ...rest] = segs as [string, ...string[]]
  let value = at[head]
  if (value === undefined && include !== undefined) {
    value = include(at, head)
    if (value !== undefined) at[head] = value
  }
  if (typeof value === 'string') {
    const found = lookup(value)
    if (found !== undefined) {
      value = structuredClone(found)
      at[head] = value
    }
  } else if (Array.isArray(value) && value.some((v) => typeof v === 'string')) {
    // A list of ids (`discounts`): each id the scope knows becomes its object.
    value = value.map((v) => (typeof v === 'string' ? (structuredClone(lookup(v)) ?? v) : v))
    at[head] = value
  }
  if (rest.length > 0) walk(value, rest, lookup, include)
}
