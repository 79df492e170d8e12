/**
 * A deep copy of live state into JSON-safe plain data, and back. Modules save their mutable
 * records through it, so a snapshot is detached from the simulator it came from (neither sees the
 * other's later changes) and survives `JSON.stringify`/`JSON.parse` unchanged:
 *
 * - `undefined` (as a member or an element), `NaN`, `Infinity`, `-Infinity` and `-0` are kept;
 * - `Set`, `Map`, `Float64Array` and `Int32Array` are kept;
 * - a member whose name starts with `$` is escaped, so tags never collide with user data (metadata);
 * - anything else that is not plain data (a class instance, a function, a symbol, a bigint) throws,
 *   so state that cannot be carried is never dropped silently.
 *
 * @example
 * const data = toPlain({ modes: new Set(['test']), firstAttemptAt: undefined })
 * fromPlain(JSON.parse(JSON.stringify(data))) // { modes: Set { 'test' }, firstAttemptAt: undefined }
 */
export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain }

export function toPlain(value: unknown, path = '$'): Plain {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      if (Number.isNaN(value)) return { $n: 'NaN' }
      if (value === Number.POSITIVE_INFINITY) return { $n: 'Infinity' }
      if (value === Number.NEGATIVE_INFINITY) return { $n: '-Infinity' }
      if (Object.is(value, -0)) return { $n: '-0' }
      return value
    case 'undefined':
      return { $u: 1 }
    case 'object': {
      if (value === null) return null
      if (Array.isArray(value)) return value.map((v, i) => toPlain(v, `${path}[${i}]`))
      if (value instanceof Set) return { $set: [...value].map((v, i) => toPlain(v, `${path}<set ${i}>`)) }
      if (value instanceof Map) {
        return { $map: [...value].map(([k, v]) => [toPlain(k, `${path}<map key>`), toPlain(v, `${path}.get(${String(k)})`)]) }
      }
      if (value instanceof Float64Array) return { $f64: [...value].map((v) => toPlain(v)) }
      if (value instanceof Int32Array) return { $i32: [...value] }
      const proto = Object.getPrototypeOf(value)
      if (proto !== Object.prototype && proto !== null) {
        throw new TypeError(`snapshot: ${path} is a ${proto?.constructor?.name ?? 'non-plain object'}, not plain data`)
      }
      const out: Record<string, Plain> = {}
      for (const k of Object.keys(value)) {
        out[k.startsWith('$') ? `$${k}` : k] = toPlain((value as Record<string, unknown>)[k], `${path}.${k}`)
      }
      return out
    }
    default:
      throw new TypeError(`snapshot: ${path} is a ${typeof value}, not plain data`)
  }
}

const NUMBERS: Record<string, number> = {
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  '-Infinity': Number.NEGATIVE_INFINITY,
  '-0': -0,
}

export function fromPlain<T = any>(value: unknown): T {
  return decode(value) as T
}

function decode(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(decode)
  const o = value as Record<string, unknown>
  const keys = Object.keys(o)
  if (keys.length === 1) {
    const k = keys[0] as string
    const v = o[k]
    if (k === '$u') return undefined
    if (k === '$n') return NUMBERS[String(v)]
    if (k === '$set') return new Set((v as unknown[]).map(decode))
    if (k === '$map') return new Map((v as [unknown, unknown][]).map(([a, b]) => [decode(a), decode(b)]))
    if (k === '$f64') return Float64Array.from((v as unknown[]).map(decode) as number[])
    if (k === '$i32') return Int32Array.from(v as number[])
  }
  const out: Record<string, unknown> = {}
  for (const k of keys) out[k.startsWith('$') ? k.slice(1) : k] = decode(o[k])
  return out
}
