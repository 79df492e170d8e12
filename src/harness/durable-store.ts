/** A JSON value, what a durable store holds (as a database row would: no functions, no classes). */
export type StoredValue = null | boolean | number | string | readonly StoredValue[] | { readonly [key: string]: StoredValue }

/**
 * A durable key-value store for what a real app keeps in its database (processed event ids, an
 * order table): it survives a restart of the client, while the client's in-memory state does not.
 * Values are JSON, copied in and out (a value changed after `set` is not changed in the store).
 * Every operation takes effect when it is called, before its promise settles, so `update` is atomic
 * (a transaction or a conditional `UPDATE`).
 *
 * @example
 * const fresh = await env.store.update(`seen:${event.id}`, (prev) => prev ?? env.clock.now)
 * await env.store.set(`order:${id}`, { status: 'paid' })
 * const order = await env.store.get(`order:${id}`)
 */
export interface DurableStore {
  /** The value at `key`, or `undefined`. */
  get(key: string): Promise<StoredValue | undefined>
  /** Writes `value` (JSON) at `key`. */
  set(key: string, value: StoredValue): Promise<void>
  /** Removes `key`; `true` if it was there. */
  delete(key: string): Promise<boolean>
  has(key: string): Promise<boolean>
  /** The keys starting with `prefix` (all without), in the order they were first written. */
  keys(prefix?: string): Promise<string[]>
  /**
   * Atomically replaces the value at `key` with `change(previous)` (`undefined` when absent; return
   * `undefined` to delete) and resolves to what it was before: insert-if-absent is
   * `(await update(k, (p) => p ?? v)) === undefined`.
   */
  update(key: string, change: (previous: StoredValue | undefined) => StoredValue | undefined): Promise<StoredValue | undefined>
}

// A round trip through JSON text is what a database column gives back: a copy, JSON only.
function copy(value: StoredValue | undefined, key: string): StoredValue | undefined {
  if (value === undefined) return undefined
  const text = JSON.stringify(value)
  if (text === undefined) throw new TypeError(`env.store: the value for '${key}' is not JSON`)
  return JSON.parse(text) as StoredValue
}

/**
 * A store that lives as long as the run (the harness makes one per run and hands the same one to
 * every instance of the client it builds, across restarts).
 *
 * @example
 * const store = createDurableStore()
 * await store.set('k', { n: 1 })
 * await store.get('k') // { n: 1 }
 */
export function createDurableStore(): DurableStore {
  const rows = new Map<string, StoredValue>()
  const write = (key: string, value: StoredValue | undefined): void => {
    const stored = copy(value, key)
    if (stored === undefined) rows.delete(key)
    else rows.set(key, stored)
  }
  return {
    get: (key) => Promise.resolve(copy(rows.get(key), key)),
    set(key, value) {
      try {
        write(key, value)
      } catch (error) {
        return Promise.reject(error)
      }
      return Promise.resolve()
    },
    delete: (key) => Promise.resolve(rows.delete(key)),
    has: (key) => Promise.resolve(rows.has(key)),
    keys: (prefix = '') => Promise.resolve([...rows.keys()].filter((k) => k.startsWith(prefix))),
    update(key, change) {
      const before = rows.get(key)
      try {
        write(key, change(copy(before, key)))
      } catch (error) {
        return Promise.reject(error)
      }
      return Promise.resolve(before)
    },
  }
}
