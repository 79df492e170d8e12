import { z } from 'zod'
import { errorMessage } from '#catalogue/errors.js'
import { invalidRequest, resourceMissing } from '#domain/service-error.js'
import { formInt } from './params.js'

/** Anything with an `id`: the cursor of a v1 list is an object id (v2 lists: `#domain/engine/v2-list.js`). */
export interface HasId {
  readonly id: string
}

// ---------------------------------------------------------------------------------------------
// v1 lists: `limit`, `starting_after`, `ending_before` in; `{ object: 'list', data, has_more, url }` out.
// ---------------------------------------------------------------------------------------------

/** Query fields every v1 list takes. Spread into a route schema with its own filters. */
export const v1ListFields = {
  limit: formInt
    .refine((n) => n >= 1 && n <= 100, {
      message: errorMessage('parameter_invalid', { param: 'limit', detail: 'must be between 1 and 100' }),
    })
    .optional(),
  starting_after: z.string().min(1).optional(),
  ending_before: z.string().min(1).optional(),
  expand: z.array(z.string()).optional(),
} as const

/** The `created` filter of a v1 list: an integer or a `{ gt, gte, lt, lte }` range (unix seconds). */
export const createdFilter = z
  .union([formInt, z.object({ gt: formInt, gte: formInt, lt: formInt, lte: formInt }).partial().strict()])
  .optional()

/**
 * The query schema of a v1 list without filters of its own.
 *
 * @example
 * const route = { method: 'GET', path: '/v1/products', query: v1ListQuery, ... }
 */
export const v1ListQuery = z.object(v1ListFields)

/** The parsed v1 list parameters. */
export interface V1ListParams {
  readonly limit?: number | undefined
  readonly starting_after?: string | undefined
  readonly ending_before?: string | undefined
}

/** The v1 list envelope. */
export interface V1List<J> {
  readonly object: 'list'
  readonly data: J[]
  readonly has_more: boolean
  readonly url: string
}

/**
 * Pages a v1 list the provider's way. `items` must be in list order (newest first, as the provider
 * lists). `starting_after` returns the items after that id, `ending_before` the items just before
 * it (still in list order); `has_more` says whether more exist in the direction of travel. A cursor
 * that is not in `items` (another account's object, a deleted one, garbage) is a 404
 * `resource_missing` on that param, as the provider answers.
 *
 * @example
 * v1List(customersNewestFirst, { limit: 2, starting_after: 'cus_B' }, '/v1/customers', toJson)
 * // { object: 'list', data: [cus_C, cus_D] as JSON, has_more: true, url: '/v1/customers' }
 */
export function v1List<T extends HasId, J>(
  items: readonly T[],
  params: V1ListParams,
  url: string,
  toJson: (item: T) => J,
  kind = 'object',
): V1List<J> {
  const limit = params.limit ?? 10
  if (params.starting_after !== undefined && params.ending_before !== undefined) {
    throw invalidRequest(errorMessage('parameters_exclusive', { params: 'starting_after, ending_before' }), {
      code: 'parameters_exclusive',
      param: 'starting_after',
    })
  }
  const indexOf = (id: string, param: string): number => {
    const i = items.findIndex((x) => x.id === id)
    if (i < 0) throw resourceMissing(kind, id, param)
    return i
  }
  let page: readonly T[]
  let hasMore: boolean
  if (params.ending_before !== undefined) {
    const end = indexOf(params.ending_before, 'ending_before')
    const start = Math.max(0, end - limit)
    page = items.slice(start, end)
    hasMore = start > 0
  } else {
    const start = params.starting_after === undefined ? 0 : indexOf(params.starting_after, 'starting_after') + 1
    page = items.slice(start, start + limit)
    hasMore = start + limit < items.length
  }
  return { object: 'list', data: page.map(toJson), has_more: hasMore, url }
}
