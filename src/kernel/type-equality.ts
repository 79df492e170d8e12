/**
 * Compile-time equality of two types: `true` only when each is exactly the other (optional and
 * readonly modifiers included), which mutual assignability does not guarantee. The hand-written
 * public types that mirror a zod schema are pinned with it, so the declarations a user installs
 * need no zod and still cannot drift from what the schema parses.
 *
 * @example
 * type Pinned = Assert<Equal<FaultEntry, z.output<typeof faultEntrySchema>>>
 */
export type Equal<A, B> = (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false

/**
 * A type, its object shapes merged and walked into, so that `{ a: 1 } & { b: 2 }` equals
 * `{ a: 1; b: 2 }` as zod's inferred intersections need.
 *
 * @example
 * type Same = Equal<Flat<{ a: 1 } & { b: 2 }>, { a: 1; b: 2 }> // true
 */
export type Flat<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly unknown[]
    ? { [K in keyof T]: Flat<T[K]> }
    : T extends object
      ? { [K in keyof T]: Flat<T[K]> }
      : T

/**
 * Refuses to compile unless its argument is `true`: `type Pinned = Assert<Equal<A, B>>`.
 *
 * @example
 * type Pinned = Assert<Equal<{ a: number }, { a: number }>>
 */
export type Assert<T extends true> = T
