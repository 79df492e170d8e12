import { LayeredMap } from '#kernel/layered-map.js'
import { type Scope, scopeKey } from '../mode.js'

/**
 * Objects kept per account and mode. Nothing is visible across scopes: `get` with another
 * account's or the other mode's scope finds nothing, which is how isolation is enforced.
 *
 * @example
 * const store = createScopedStore<Customer>()
 * store.add({ account: 'acct_1', mode: 'test' }, customer)
 * store.get({ account: 'acct_1', mode: 'live' }, customer.id) // undefined
 */
export interface ScopedStore<T extends { readonly id: string }> {
  add(scope: Scope, item: T): void
  get(scope: Scope, id: string): T | undefined
  /** Items of a scope, newest first (the provider's list order). */
  list(scope: Scope): T[]
  /** Number of items of a scope. */
  count(scope: Scope): number
  /** No item in any scope. */
  isEmpty(): boolean
  /** Puts `item` in the place of the item with its id (keeping list order); false when there is none. */
  replace(scope: Scope, item: T): boolean
  /** Removes the item with this id; false when there is none. */
  remove(scope: Scope, id: string): boolean
  /**
   * Every scope's items in insertion order, for a snapshot. The arrays are new; the items are the
   * stored ones, so an owner whose items change in place copies them (`toPlain`).
   */
  save(): Record<string, T[]>
  /** Replaces every scope with saved items (which the store then owns). */
  load(saved: Readonly<Record<string, readonly T[]>>): void
  /**
   * For an in-process fork: the store's contents, shared (copied on write by each side), for
   * `loadCopy`. One copy may be loaded by any number of stores.
   */
  copy(): ScopedStoreCopy<T>
  /** Replaces every scope with a `copy()`, shared until either side changes a scope. */
  loadCopy(copy: ScopedStoreCopy<T>): void
}

/** What `ScopedStore.copy()` returns: opaque outside the store. */
export interface ScopedStoreCopy<T> {
  readonly scopes: ReadonlyMap<string, ScopeItems<T>>
}

/** One scope's items: `shared` once a copy handed them out, after which nobody changes them. */
interface ScopeItems<T> {
  readonly order: T[]
  readonly byId: LayeredMap<string, T>
  shared: boolean
}

export function createScopedStore<T extends { readonly id: string }>(): ScopedStore<T> {
  return new Scoped<T>()
}

/**
 * A class rather than an object of closures: a store is made per resource per fork, and its
 * methods on the prototype cost nothing per instance (a dev-time transform that keeps function
 * names, tsx, would also name every closure at each creation).
 *
 * Copy on write: `copy()` hands out the scopes as they are and marks them shared; a store changes
 * a shared scope (or the shared map of scopes) only after copying it for itself. A fork of a
 * store, and every fork of the same copy, then costs nothing until it changes something.
 */
class Scoped<T extends { readonly id: string }> implements ScopedStore<T> {
  private scopes = new Map<string, ScopeItems<T>>()
  // The map itself is held by another store too (a copy was taken or loaded): copy it before a change.
  private sharedMap = false

  /** The map of scopes, this store's own. */
  private ownMap(): Map<string, ScopeItems<T>> {
    if (this.sharedMap) {
      this.scopes = new Map(this.scopes)
      this.sharedMap = false
    }
    return this.scopes
  }

  /** A scope's items to change, this store's own (copied first when shared); undefined when none. */
  private writable(k: string): ScopeItems<T> | undefined {
    const s = this.scopes.get(k)
    if (s === undefined || !s.shared) return s
    const own = { order: s.order.slice(), byId: s.byId.fork(), shared: false }
    this.ownMap().set(k, own)
    return own
  }

  add(scope: Scope, item: T): void {
    const k = scopeKey(scope)
    let s = this.writable(k)
    if (s === undefined) {
      s = { order: [], byId: new LayeredMap(), shared: false }
      this.ownMap().set(k, s)
    }
    s.order.push(item)
    s.byId.set(item.id, item)
  }

  get(scope: Scope, id: string): T | undefined {
    return this.scopes.get(scopeKey(scope))?.byId.get(id)
  }

  list(scope: Scope): T[] {
    return [...(this.scopes.get(scopeKey(scope))?.order ?? [])].reverse()
  }

  count(scope: Scope): number {
    return this.scopes.get(scopeKey(scope))?.order.length ?? 0
  }

  isEmpty(): boolean {
    for (const s of this.scopes.values()) if (s.order.length > 0) return false
    return true
  }

  replace(scope: Scope, item: T): boolean {
    const k = scopeKey(scope)
    const old = this.scopes.get(k)?.byId.get(item.id)
    if (old === undefined) return false
    const s = this.writable(k) as ScopeItems<T>
    s.order[s.order.lastIndexOf(old)] = item
    s.byId.set(item.id, item)
    return true
  }

  save(): Record<string, T[]> {
    const out: Record<string, T[]> = {}
    for (const [k, s] of this.scopes) out[k] = s.order.slice()
    return out
  }

  load(saved: Readonly<Record<string, readonly T[]>>): void {
    // A new map, not a cleared one: the old one may be shared.
    this.scopes = new Map()
    this.sharedMap = false
    for (const [k, items] of Object.entries(saved)) {
      const byId = new LayeredMap<string, T>()
      for (const item of items) byId.set(item.id, item)
      this.scopes.set(k, { order: items.slice(), byId, shared: false })
    }
  }

  copy(): ScopedStoreCopy<T> {
    for (const s of this.scopes.values()) s.shared = true
    this.sharedMap = true
    return { scopes: this.scopes }
  }

  loadCopy(copy: ScopedStoreCopy<T>): void {
    this.scopes = copy.scopes as Map<string, ScopeItems<T>>
    this.sharedMap = true
  }

  remove(scope: Scope, id: string): boolean {
    const k = scopeKey(scope)
    const old = this.scopes.get(k)?.byId.get(id)
    if (old === undefined) return false
    const s = this.writable(k) as ScopeItems<T>
    s.order.splice(s.order.lastIndexOf(old), 1)
    s.byId.delete(id)
    return true
  }
}
