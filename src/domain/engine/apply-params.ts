import type { Field, Shape } from '#catalogue/types.js'
import type { BuildContext } from './build-object.js'
import { emptyOf } from './build-object.js'
import { type CatalogueView, isListShape, objectShape, resolve } from './catalogue-view.js'

/** Params that steer a call and never land on the object. */
const STEERING = new Set(['expand', 'limit', 'starting_after', 'ending_before', 'page', 'query'])

/**
 * Maps params onto an object by name: a param named like a field of the object type sets it.
 * `metadata` merges (a key set to `''` is removed; `metadata: ''` clears all); `''` clears a
 * nullable field; a nested object param merges into the nested object (built with its defaults
 * when it was `null`); `currency` is lower-cased; numeric and boolean strings become the field's
 * declared type. Params without a field of that name are left to behaviours.
 *
 * @example
 * applyParams(view, fields, customer, { email: 'a@b.c', metadata: { plan: '' } }, ctx)
 */
export function applyParams(
  view: CatalogueView,
  fields: Readonly<Record<string, Field>>,
  target: Record<string, unknown>,
  params: Readonly<Record<string, unknown>>,
  ctx: BuildContext,
  find?: (id: string) => Record<string, unknown> | undefined,
): void {
  for (const key in params) {
    if (!Object.hasOwn(params, key)) continue
    const value = params[key]
    if (value === undefined || STEERING.has(key)) continue
    const field = fields[key]
    if (field === undefined || key === 'id' || key === 'object') continue
    const s = resolve(view, field.shape)
    // An id where the object type holds the whole object (`SubscriptionItem.price`): the object it names.
    const found = typeof value === 'string' && s.t === 'object' && find !== undefined ? find(value) : undefined
    target[key] = found ?? valueFor(view, field, key, target[key], value, ctx, 1)
  }
}

function valueFor(
  view: CatalogueView,
  field: Field,
  key: string,
  current: unknown,
  value: unknown,
  ctx: BuildContext,
  depth: number,
): unknown {
  if (key === 'metadata') return mergeMetadata(current, value)
  if (value === '' || value === null) return field.nullable ? null : value === '' ? emptyIfString(view, field.shape) : null
  const nested = objectShape(view, field.shape)
  if (nested !== undefined && isPlainObject(value) && !isListShape(view, nested) && depth < 6) {
    const base = isPlainObject(current) ? { ...current } : (emptyOf(view, nested, key, ctx, depth) as Record<string, unknown>)
    for (const [k, v] of Object.entries(value)) {
      const f = nested.fields[k]
      if (f !== undefined && v !== undefined) base[k] = valueFor(view, f, k, base[k], v, ctx, depth + 1)
    }
    return base
  }
  if (key === 'currency' && typeof value === 'string') return value.toLowerCase()
  return coerce(view, field.shape, value)
}

function emptyIfString(view: CatalogueView, shape: Shape): unknown {
  const s = resolve(view, shape)
  return s.t === 'string' || s.t === 'expandable' || s.t === 'union' ? '' : null
}

/** A form string as the declared scalar type (values normally arrive coerced by the params validator). */
function coerce(view: CatalogueView, shape: Shape, value: unknown): unknown {
  if (typeof value !== 'string') return value
  const s = resolve(view, shape)
  if ((s.t === 'integer' || s.t === 'number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value)
  if (s.t === 'boolean' && (value === 'true' || value === 'false')) return value === 'true'
  if (s.t === 'union') {
    for (const m of s.of) {
      const c = coerce(view, m, value)
      if (c !== value) return c
    }
  }
  return value
}

/**
 * The provider's metadata merge: keys set to `''` are removed, `''` as the whole value clears all.
 *
 * @example
 * mergeMetadata({ a: '1', b: '2' }, { a: '', c: '3' }) // { b: '2', c: '3' }
 */
export function mergeMetadata(current: unknown, value: unknown): Record<string, string> {
  if (value === '' || value === null) return {}
  const out: Record<string, string> = isPlainObject(current) ? { ...(current as Record<string, string>) } : {}
  if (!isPlainObject(value)) return out
  for (const [k, v] of Object.entries(value)) {
    if (v === '' || v === null) delete out[k]
    else out[k] = String(v)
  }
  return out
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
