import { tableError } from '../service-error.js'
import { isPlainObject } from './apply-params.js'
import type { Json } from './list.js'

/**
 * Default and largest page size of v2 lists (the provider's v2 reference: default 20, max 20).
 *
 * @example
 * pageV2(items, {}, base).data.length <= V2_DEFAULT_LIMIT
 */
export const V2_DEFAULT_LIMIT = 20
/**
 * The largest v2 page.
 *
 * @example
 * v2Limit(V2_MAX_LIMIT + 1, 20) // throws 400 on limit
 */
export const V2_MAX_LIMIT = 20

/**
 * The v2 list envelope.
 *
 * @example
 * const page: V2Page = pageV2(items, { limit: 2 }, '/v2/core/event_destinations')
 */
export interface V2Page<J = Json> {
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

/** Params of a v2 list that steer paging rather than filter it. */
const PAGING = new Set(['limit', 'page'])

/**
 * The filters of a v2 list request as query pairs (`types[0]`, `created[gte]`), in request order:
 * repeated in the page urls and bound into the page token.
 *
 * @example
 * v2Filter({ limit: 2, types: ['a', 'b'], object_id: 'mtr_1' }) // { 'types[0]': 'a', 'types[1]': 'b', object_id: 'mtr_1' }
 */
export function v2Filter(params: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {}
  const put = (key: string, value: unknown): void => {
    if (value === undefined || value === null) return
    if (Array.isArray(value)) for (const [i, v] of value.entries()) put(`${key}[${i}]`, v)
    else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) put(`${key}[${k}]`, v)
    else out[key] = String(value)
  }
  for (const [k, v] of Object.entries(params)) if (!PAGING.has(k)) put(k, v)
  return out
}

/**
 * The `limit` of a v2 list: 1 to 20, default 20 (or the page token's).
 *
 * @example
 * v2Limit(5, undefined) // 5
 */
export function v2Limit(value: unknown, fallback: number): number {
  if (value === undefined) return fallback
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > V2_MAX_LIMIT) {
    throw tableError(
      'parameter_invalid',
      { param: 'limit', detail: `must be between 1 and ${V2_MAX_LIMIT} (param: limit)` },
      { param: 'limit' },
    )
  }
  return n
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
  const t = token as Partial<PageToken> | undefined | null
  const valid =
    t !== undefined &&
    t !== null &&
    (t.d === 'n' || t.d === 'p') &&
    typeof t.id === 'string' &&
    typeof t.l === 'number' &&
    t.f === filter
  if (!valid) {
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
 * `filter` holds the list's other query parameters (see {@link v2Filter}): they are repeated in the
 * page urls and bound into the token, so a token used with other filters is refused with a 400
 * `invalid_page_token`. The token keeps the limit of the first page unless the request sets one.
 * A cursor object removed since the token was issued falls back to the list start (next) or end
 * (previous) rather than failing, so a client paging a changing list never gets stuck.
 *
 * @example
 * pageV2(destinationsNewestFirst, { limit: 2 }, '/v2/core/event_destinations')
 * // { data: [2 items], next_page_url: '/v2/core/event_destinations?page=eyJ…', previous_page_url: null }
 */
export function pageV2<T extends { readonly id: string }, J = T>(
  items: readonly T[],
  params: Readonly<Record<string, unknown>>,
  base: string,
  filter: Readonly<Record<string, string>> = v2Filter(params),
  render: (item: T) => J = (item) => item as unknown as J,
): V2Page<J> {
  const filterKey = new URLSearchParams(filter).toString()
  const page = typeof params.page === 'string' && params.page !== '' ? params.page : undefined
  const token = page === undefined ? undefined : decodeToken(page, filterKey)
  const limit = v2Limit(params.limit, token?.l ?? V2_DEFAULT_LIMIT)
  let start = 0
  if (token !== undefined) {
    const i = items.findIndex((x) => x.id === token.id)
    start = token.d === 'n' ? (i < 0 ? 0 : i + 1) : Math.max(0, (i < 0 ? items.length : i) - limit)
  }
  const slice = items.slice(start, start + limit)
  const end = start + slice.length
  const first = slice[0]
  const last = slice[slice.length - 1]
  return {
    data: slice.map(render),
    next_page_url:
      end < items.length && last !== undefined ? pageUrl(base, filter, { d: 'n', id: last.id, l: limit, f: filterKey }) : null,
    previous_page_url:
      start > 0 && first !== undefined ? pageUrl(base, filter, { d: 'p', id: first.id, l: limit, f: filterKey }) : null,
  }
}

/** Milliseconds of a v2 `created` bound: an ISO 8601 time as the API takes it, or unix seconds as the client declares it. */
function boundMs(value: unknown, param: string): number {
  const ms =
    typeof value === 'number'
      ? value * 1000
      : typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value) * 1000
        : Date.parse(String(value))
  if (!Number.isFinite(ms)) {
    throw tableError(
      'parameter_invalid',
      { param: 'timestamp', detail: `expected ISO 8601 or unix seconds (param: ${param})` },
      { param },
    )
  }
  return ms
}

const BOUNDS = ['gt', 'gte', 'lt', 'lte'] as const

/**
 * A v2 `created` filter `{ gt, gte, lt, lte }` (ISO 8601 or unix seconds) as a test of a time in
 * epoch ms; checked at once, so a bad bound is refused even when nothing is listed.
 *
 * @example
 * v2Range({ gte: '2024-01-01T00:00:00.000Z' }, 'created')(Date.parse('2024-01-02T00:00:00Z')) // true
 */
export function v2Range(filter: unknown, param: string): (ms: number) => boolean {
  if (filter === undefined) return () => true
  if (!isPlainObject(filter)) throw tableError('parameter_invalid', { param, detail: 'expected an object of bounds' }, { param })
  for (const key of Object.keys(filter)) {
    if (!(BOUNDS as readonly string[]).includes(key)) {
      throw tableError('parameter_unknown', { param: `${param}.${key}` }, { param: `${param}.${key}` })
    }
  }
  const bounds = BOUNDS.flatMap((op) => (filter[op] === undefined ? [] : [[op, boundMs(filter[op], `${param}.${op}`)] as const]))
  return (ms) => bounds.every(([op, b]) => (op === 'gt' ? ms > b : op === 'gte' ? ms >= b : op === 'lt' ? ms < b : ms <= b))
}
