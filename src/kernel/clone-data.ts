/** Nesting deeper than this is left to `structuredClone` (which also handles cycles). */
const MAX_DEPTH = 64

const NOT_PLAIN = Symbol('not plain')

/**
 * A deep copy of plain data (objects, arrays, primitives), equal to what `structuredClone` gives
 * for it: own enumerable string keys in their order, plain objects out (null-prototype objects
 * included), arrays as arrays, `undefined` members kept. Several times cheaper than
 * `structuredClone` on the small wire objects the service copies on every change. Anything else
 * (a class instance such as a `Date` or a `Map`, a sparse array, an array with extra members,
 * shared or cyclic references, very deep nesting) goes to `structuredClone` whole, so the result
 * and the errors stay exactly those of `structuredClone`.
 *
 * @example
 * const snapshot = cloneData(customer) // a fresh copy: later changes to customer do not reach it
 */
export function cloneData<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return typeof value === 'function' ? structuredClone(value) : value
  const seen = new Set<object>()
  const out = copy(value, 0, seen)
  return out === NOT_PLAIN ? structuredClone(value) : (out as T)
}

function copy(value: unknown, depth: number, seen: Set<object>): unknown {
  if (typeof value !== 'object' || value === null) {
    // Symbols and functions make structuredClone throw; bigints and the rest copy as they are.
    return typeof value === 'symbol' || typeof value === 'function' ? NOT_PLAIN : value
  }
  // structuredClone keeps a shared object shared (and cycles): only trees are copied here.
  if (depth >= MAX_DEPTH || seen.has(value)) return NOT_PLAIN
  seen.add(value)
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_PLAIN
    const n = value.length
    if (n > 0) {
      // Own keys list the indexes in order, then any other member: n keys ending with index n - 1
      // means every index is there and nothing else (no hole, no extra member to keep).
      const keys = Object.keys(value)
      if (keys.length !== n || keys[n - 1] !== String(n - 1)) return NOT_PLAIN
    } else if (Object.keys(value).length !== 0) return NOT_PLAIN
    const out = new Array<unknown>(n)
    for (let i = 0; i < n; i++) {
      const v = copy(value[i], depth + 1, seen)
      if (v === NOT_PLAIN) return NOT_PLAIN
      out[i] = v
    }
    return out
  }
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN
  // A spread copies the members in order into an object of the same layout: built member by
  // member instead, an object of more than about sixteen members becomes a hash table on V8
  // (twice the memory, JSON.stringify twice as slow). Members holding objects are then replaced
  // by their copies, which changes no layout. Symbol-keyed members, which a spread would copy
  // and structuredClone drops, go to structuredClone.
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  for (const key in out) {
    // `__proto__` as a member is left to structuredClone.
    if (key === '__proto__') return NOT_PLAIN
    const member = out[key]
    if (typeof member !== 'object' && typeof member !== 'symbol' && typeof member !== 'function') continue
    const v = copy(member, depth + 1, seen)
    if (v === NOT_PLAIN) return NOT_PLAIN
    out[key] = v
  }
  if (Object.getOwnPropertySymbols(value).length !== 0) return NOT_PLAIN
  return out
}
