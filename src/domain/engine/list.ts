import { resourceMissing, tableError } from '../service-error.js'
import { isPlainObject } from './apply-params.js'

/** A stored object: wire JSON with an id. */
export type Json = Record<string, unknown> & { readonly id: string }

/**
 * The `limit` of a v1 list or search: 1 to 100, default 10.
 *
 * @example
 * listLimit('25') // 25
 */
export function listLimit(value: unknown, max = 100, fallback = 10): number {
  if (value === undefined) return fallback
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > max) {
    throw tableError('parameter_invalid', { param: 'limit', detail: `must be between 1 and ${max}` }, { param: 'limit' })
  }
  return n
}

/**
 * Pages a v1 list: `items` newest first; `starting_after` gives the items after that id,
 * `ending_before` the items just before it; an unknown cursor is a 404 on its param.
 *
 * @example
 * pageV1(customers, { limit: 2, starting_after: 'cus_B' }, '/v1/customers', 'customer')
 */
export function pageV1(
  items: readonly Json[],
  params: Readonly<Record<string, unknown>>,
  url: string,
  kind: string,
): { object: 'list'; data: Json[]; has_more: boolean; url: string } {
  const limit = listLimit(params.limit)
  const after = params.starting_after
  const before = params.ending_before
  if (after !== undefined && before !== undefined) {
    throw tableError('parameters_exclusive', { params: 'starting_after, ending_before' }, { param: 'starting_after' })
  }
  const indexOf = (id: unknown, param: string): number => {
    const i = items.findIndex((x) => x.id === id)
    if (i < 0) throw resourceMissing(kind, String(id), param)
    return i
  }
  if (before !== undefined) {
    const end = indexOf(before, 'ending_before')
    const start = Math.max(0, end - limit)
    return { object: 'list', data: items.slice(start, end), has_more: start > 0, url }
  }
  const start = after === undefined ? 0 : indexOf(after, 'starting_after') + 1
  return { object: 'list', data: items.slice(start, start + limit), has_more: start + limit < items.length, url }
}

const RANGE = ['gt', 'gte', 'lt', 'lte'] as const

/**
 * Whether a unix-seconds value passes a `created`-style filter: an integer (equal) or
 * `{ gt, gte, lt, lte }`.
 *
 * @example
 * passesRange(100, { gte: 50 }, 'created') // true
 */
export function passesRange(value: unknown, filter: unknown, param: string): boolean {
  if (typeof value !== 'number') return false
  if (!isPlainObject(filter)) return value === toInt(filter, param)
  for (const op of RANGE) {
    const bound = filter[op]
    if (bound === undefined) continue
    const b = toInt(bound, `${param}[${op}]`)
    if (op === 'gt' ? !(value > b) : op === 'gte' ? !(value >= b) : op === 'lt' ? !(value < b) : !(value <= b)) return false
  }
  return true
}

function toInt(v: unknown, param: string): number {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw tableError('parameter_invalid_integer', { value: String(v) }, { param })
  return n
}

/**
 * Whether an object's field equals a list filter (an expanded or unexpanded id, a boolean given
 * as a form string, a string).
 */
export function fieldEquals(value: unknown, filter: unknown): boolean {
  // A nested filter (`scope[type]=account`) matches the keys it names.
  if (isPlainObject(filter) && isPlainObject(value)) return Object.entries(filter).every(([k, f]) => fieldEquals(value[k], f))
  const v = isPlainObject(value) && typeof value.id === 'string' ? value.id : value
  if (typeof v === 'boolean') return v === filter || String(v) === filter
  if (typeof v === 'number') return v === filter || String(v) === filter
  return v === filter
}
