const GONE: unique symbol = Symbol('gone')

/**
 * A key-value index that `fork()` copies in time independent of its size: the entries are held in
 * a shared base layer (never changed once shared) under a small layer of this map's own changes.
 * A fork takes the same base and a copy of the changes; when the changes grow large, `fork()`
 * first folds them into a new base shared by both. Iteration is not offered (the order of a
 * layered map is not its insertion order): keep a separate list where order matters.
 *
 * @example
 * const byId = new LayeredMap<string, Customer>()
 * byId.set(c.id, c)
 * const copy = byId.fork() // independent: later sets and deletes on either side stay there
 */
export class LayeredMap<K, V> {
  #base: ReadonlyMap<K, V>
  #own: Map<K, V | typeof GONE>

  constructor(base: ReadonlyMap<K, V> = new Map(), own: Map<K, V | typeof GONE> = new Map()) {
    this.#base = base
    this.#own = own
  }

  get(key: K): V | undefined {
    const v = this.#own.get(key)
    if (v === GONE) return undefined
    return v === undefined ? this.#base.get(key) : v
  }

  has(key: K): boolean {
    const v = this.#own.get(key)
    if (v === GONE) return false
    return v !== undefined || this.#base.has(key)
  }

  set(key: K, value: V): this {
    this.#own.set(key, value)
    return this
  }

  delete(key: K): boolean {
    const had = this.has(key)
    if (had) {
      if (this.#base.has(key)) this.#own.set(key, GONE)
      else this.#own.delete(key)
    }
    return had
  }

  clear(): void {
    this.#base = new Map()
    this.#own = new Map()
  }

  /** An independent map with the same entries. */
  fork(): LayeredMap<K, V> {
    // Fold the changes into a new shared base once they outgrow a fraction of it, so lookups stay
    // two probes at most and a fork copies little.
    if (this.#base.size === 0) {
      // Nothing shared yet: the changes become the base as they are (no GONE marks without a base).
      this.#base = this.#own as Map<K, V>
      this.#own = new Map()
    } else if (this.#own.size > 64 && this.#own.size * 8 > this.#base.size) {
      const merged = new Map(this.#base)
      for (const [k, v] of this.#own) {
        if (v === GONE) merged.delete(k)
        else merged.set(k, v)
      }
      this.#base = merged
      this.#own = new Map()
    }
    return new LayeredMap(this.#base, new Map(this.#own))
  }
}
