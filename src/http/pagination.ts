import { z } from 'zod'
import { errorMessage } from '#catalogue/errors.js'
import { invalidRequest, resourceMissing, tableError } from '#domain/service-error.js'
import { formInt } from './params.js'

/** Anything with an `id`: the cursor of both list styles is an object id. */
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

// ---------------------------------------------------------------------------------------------
// v2 lists: `limit`, `page` in; `{ data, next_page_url, previous_page_url }` out.
// ---------------------------------------------------------------------------------------------

/** Default and largest page size of v2 lists (the provider's v2 reference: default 20, max 20). */
export const V2_DEFAULT_LIMIT = 20
export const V2_MAX_LIMIT = 20

/** Query fields every v2 list takes. Spread into a route schema with its own filters. */
export const v2ListFields = {
  limit: formInt
    .refine((n) => n >= 1 && n <= V2_MAX_LIMIT, {
      message: errorMessage('parameter_invalid', { param: 'limit', detail: `must be between 1 and ${V2_MAX_LIMIT}` }),
    })
    .optional(),
  page: z.string().min(1).optional(),
} as const

/**
 * The query schema of a v2 list without filters of its own.
 *
 * @example
 * const route = { method: 'GET', path: '/v2/core/event_destinations', query: v2ListQuery, ... }
 */
// Strict: its one user (off-session payments) is not an operation of the official client.
export const v2ListQuery = z.object(v2ListFields).strict()

/** The parsed v2 list parameters. */
export interface V2ListParams {
  readonly limit?: number | undefined
  readonly page?: string | undefined
}

/** The v2 list envelope. */
export interface V2List<J> {
  readonly data: J[]
  readonly next_page_url: string | null
  readonly previous_page_url: string | null
}

interface PageToken {
  /** Direction: items after `id` (`n`) or the page ending just before `id` (`p`). */
  readonly d: 'n' | 'p'
  readonly id: string
  readonly l: number
  /** The list's other query parameters, so a page token cannot be replayed against another filter. */
  readonly f: string
}

function encodeToken(token: PageToken): string {
  return Buffer.from(JSON.stringify(token), 'utf8').toString('base64url')
}

function decodeToken(page: string, filter: string): PageToken {
  let token: unknown
  try {
    token = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'))
  } catch {
    token = undefined
  }
  const t = token as Partial<PageToken> | undefined
  if (
    t === undefined ||
    t === null ||
    (t.d !== 'n' && t.d !== 'p') ||
    typeof t.id !== 'string' ||
    typeof t.l !== 'number' ||
    t.f !== filter
  ) {
    throw tableError('invalid_page_token', { page }, { param: 'page' })
  }
  return t as PageToken
}

function pageUrl(base: string, filter: Readonly<Record<string, string>>, token: PageToken): string {
  const q = new URLSearchParams(filter)
  q.set('page', encodeToken(token))
  return `${base}?${q.toString()}`
}

/**
 * Pages a v2 list the provider's way: `limit` (default and max 20) and an opaque `page` token; the
 * answer carries `next_page_url` and `previous_page_url` (path plus query, `null` at either end),
 * which the official client follows as they are. `items` must be in list order (newest first).
 * `filter` holds the list's other query parameters (e.g. `{ 'types[0]': 'x' }`): they are repeated
 * in the page urls and bound into the token, so a token used with other filters is refused with a
 * 400 `invalid_page_token`. The token keeps the limit of the first page unless the request sets one.
 *
 * A cursor object removed since the token was issued falls back to the list start (next) or end
 * (previous) rather than failing, so a client paging a changing list never gets stuck.
 *
 * @example
 * const page = v2List(paymentsNewestFirst, { limit: 2 }, '/v2/payments/off_session_payments', toJson)
 * // { data: [2 items], next_page_url: '/v2/payments/off_session_payments?page=eyJ…', previous_page_url: null }
 */
export function v2List<T extends HasId, J>(
  items: readonly T[],
  params: V2ListParams,
  base: string,
  toJson: (item: T) => J,
  filter: Readonly<Record<string, string>> = {},
): V2List<J> {
  const filterKey = new URLSearchParams(filter).toString()
  const token = params.page === undefined ? undefined : decodeToken(params.page, filterKey)
  const limit = params.limit ?? token?.l ?? V2_DEFAULT_LIMIT
  let start: number
  if (token === undefined) start = 0
  else {
    const i = items.findIndex((x) => x.id === token.id)
    if (token.d === 'n') start = i < 0 ? 0 : i + 1
    else start = Math.max(0, (i < 0 ? items.length : i) - limit)
  }
  const page = items.slice(start, start + limit)
  const end = start + page.length
  const first = page[0]
  const last = page[page.length - 1]
  return {
    data: page.map(toJson),
    next_page_url:
      end < items.length && last !== undefined ? pageUrl(base, filter, { d: 'n', id: last.id, l: limit, f: filterKey }) : null,
    previous_page_url:
      start > 0 && first !== undefined ? pageUrl(base, filter, { d: 'p', id: first.id, l: limit, f: filterKey }) : null,
  }
}
