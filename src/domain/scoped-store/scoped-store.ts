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
}

export function createScopedStore<T extends { readonly id: string }>(): ScopedStore<T> {
  const scopes = new Map<string, { order: T[]; byId: Map<string, T> }>()
  return {
    add(scope, item) {
      const k = scopeKey(scope)
      let s = scopes.get(k)
      if (s === undefined) {
        s = { order: [], byId: new Map() }
        scopes.set(k, s)
      }
      s.order.push(item)
      s.byId.set(item.id, item)
    },
    get: (scope, id) => scopes.get(scopeKey(scope))?.byId.get(id),
    list: (scope) => [...(scopes.get(scopeKey(scope))?.order ?? [])].reverse(),
    count: (scope) => scopes.get(scopeKey(scope))?.order.length ?? 0,
  }
}
