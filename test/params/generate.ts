import type { Field, Shape } from '../../src/catalogue/types.js'

/** Resolves a named type of the catalogue. */
export type Resolve = (name: string) => Shape | undefined

/**
 * Values the simulator's behaviours check beyond the declared type (formats, ranges, the kinds it
 * models), by parameter name; any other parameter gets the plain value of its type.
 */
export interface Hints {
  readonly strings: Readonly<Record<string, string>>
  readonly integers: Readonly<Record<string, number>>
  readonly arrays: Readonly<Record<string, readonly unknown[]>>
}

/**
 * A valid value of a shape, as a caller of the official client would pass it: strings `'x'` (or
 * the hint for the name), the first value of an enum, integers 1, booleans true, arrays of one,
 * maps `{ k: 'v' }`, nested objects with their required fields (or their first field when none is
 * required), unions by their first branch that is not `''`/`null`.
 *
 * @example
 * sampleOf({ t: 'array', of: { t: 'string' } }, 'expand', resolve, hints) // ['x']
 */
export function sampleOf(shape: Shape, name: string, resolve: Resolve, hints: Hints, depth = 0): unknown {
  if (depth > 12) return undefined
  switch (shape.t) {
    case 'string':
      return shape.enum?.[0] ?? hints.strings[name] ?? 'x'
    case 'integer':
      return hints.integers[name] ?? 1
    case 'number':
      return 1.5
    case 'decimal':
      return '1.5'
    case 'boolean':
      return true
    case 'literal':
      return shape.value
    case 'array': {
      const hinted = hints.arrays[name]
      if (hinted !== undefined) return [...hinted]
      const item = sampleOf(shape.of, name, resolve, hints, depth + 1)
      return item === undefined ? [] : [item]
    }
    case 'map':
      return { k: sampleOf(shape.of, 'k', resolve, hints, depth + 1) ?? 'v' }
    case 'object': {
      const entries = Object.entries(shape.fields)
      const required = entries.filter(([, f]) => f.optional !== true)
      const chosen = required.length > 0 ? required : entries.slice(0, 1)
      const out: Record<string, unknown> = {}
      for (const [key, field] of chosen) {
        const v = sampleOf(field.shape, key, resolve, hints, depth + 1)
        if (v !== undefined) out[key] = v
      }
      return out
    }
    case 'union': {
      const branch = shape.of.find((b) => !(b.t === 'literal' && (b.value === '' || b.value === null)))
      return branch === undefined ? null : sampleOf(branch, name, resolve, hints, depth + 1)
    }
    case 'ref': {
      const target = resolve(shape.name)
      return target === undefined ? 'x' : sampleOf(target, name, resolve, hints, depth + 1)
    }
    case 'expandable':
    case 'any':
      return 'x'
  }
}

/** The top-level fields of a params type (none when it is not an object). */
function fieldsOf(typeName: string | undefined, resolve: Resolve): Readonly<Record<string, Field>> {
  let shape = typeName === undefined ? undefined : resolve(typeName)
  while (shape?.t === 'ref') shape = resolve(shape.name)
  return shape?.t === 'object' ? shape.fields : {}
}

/** A valid value for each chosen field of a params type. */
function paramsOf(typeName: string | undefined, resolve: Resolve, hints: Hints, only?: (f: Field) => boolean) {
  const out: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(fieldsOf(typeName, resolve))) {
    if (only !== undefined && !only(field)) continue
    const v = sampleOf(field.shape, key, resolve, hints)
    if (v !== undefined) out[key] = v
  }
  return out
}

/**
 * Every top-level field of a params type with a valid value: the request that sends every
 * documented parameter of an operation at once.
 */
export function everyParam(typeName: string | undefined, resolve: Resolve, hints: Hints): Record<string, unknown> {
  return paramsOf(typeName, resolve, hints)
}

/**
 * The smallest valid params of a params type: only its required (non-optional) top-level fields,
 * each with a valid value; the request of a caller who sends nothing optional.
 *
 * @example
 * requiredParams('PlanCreateParams', resolve, hints) // { currency: 'usd', interval: 'day' }
 */
export function requiredParams(typeName: string | undefined, resolve: Resolve, hints: Hints): Record<string, unknown> {
  return paramsOf(typeName, resolve, hints, (f) => f.optional !== true)
}

/** Whether a params type declares a top-level field (`metadata`, say). */
export function hasParam(typeName: string | undefined, name: string, resolve: Resolve): boolean {
  return name in fieldsOf(typeName, resolve)
}
