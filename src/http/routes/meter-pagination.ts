import { z } from 'zod'
import { errorMessage } from '#catalogue/errors.js'
import { invalidRequest } from '#domain/service-error.js'
import { formInt } from '../params.js'

/** The v1 list parameters: `limit` (1 to 100, default 10), `starting_after`, `ending_before`. */
export const listParams = {
  limit: formInt.refine((n) => n >= 1 && n <= 100, { message: 'Invalid limit: must be between 1 and 100' }).optional(),
  starting_after: z.string().min(1).optional(),
  ending_before: z.string().min(1).optional(),
}

/**
 * One page of a v1 list, in the order given, as `{ object: 'list', data, has_more, url }`. Cursors
 * are object ids of the same list; an unknown cursor is a 400 naming it.
 *
 * @example
 * page(meters.map(meterJson), { limit: 2 }, '/v1/billing/meters')
 */
export function page<T extends { readonly id?: unknown }>(
  items: readonly T[],
  params: { limit?: number | undefined; starting_after?: string | undefined; ending_before?: string | undefined },
  url: string,
): { object: 'list'; data: T[]; has_more: boolean; url: string } {
  const limit = params.limit ?? 10
  if (params.starting_after !== undefined && params.ending_before !== undefined) {
    throw invalidRequest(errorMessage('parameters_exclusive', { params: 'starting_after, ending_before' }), {
      code: 'parameters_exclusive',
      param: 'ending_before',
    })
  }
  const cursor = params.starting_after ?? params.ending_before
  if (cursor === undefined) return { object: 'list', data: items.slice(0, limit), has_more: items.length > limit, url }
  const at = items.findIndex((item) => item.id === cursor)
  const param = params.starting_after !== undefined ? 'starting_after' : 'ending_before'
  if (at < 0)
    throw invalidRequest(`Invalid ${param}: no object with id '${cursor}' in this list.`, { code: 'resource_missing', param })
  if (params.starting_after !== undefined) {
    const rest = items.slice(at + 1)
    return { object: 'list', data: rest.slice(0, limit), has_more: rest.length > limit, url }
  }
  const before = items.slice(0, at)
  return { object: 'list', data: before.slice(Math.max(0, before.length - limit)), has_more: before.length > limit, url }
}
