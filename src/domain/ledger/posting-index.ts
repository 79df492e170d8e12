import type { Resource } from '../engine/resource.js'
import { type Scope, scopeKey } from '../mode.js'
import type { BalanceTransaction } from './balance-transaction.js'

/** What the ledger derives of one scope's stored transactions; rebuilt from them after a snapshot load. */
export interface ScopeIndex {
  /** Each transaction's `created` (unix seconds), oldest first: non-decreasing, so counts since a time are a binary search. */
  readonly created: number[]
  /** Posting key to transaction id: a second posting of one movement answers the first. */
  readonly byPosting: Map<string, string>
}

/**
 * The key that makes a posting idempotent: its source and type. Two movements of one type from one
 * source differ by reporting category (a dispute's withdrawal and reinstatement); the key keeps
 * its short form where they agree.
 *
 * @example
 * postingKey('adjustment', 'dispute', 'dp_1') // 'adjustment|dispute|dp_1'
 */
export function postingKey(type: string, category: string, source: string | null): string | undefined {
  if (source === null) return undefined
  return category === type ? `${type}|${source}` : `${type}|${category}|${source}`
}

/**
 * A scope's stored balance transactions, oldest first (the store lists newest first).
 *
 * @example
 * storedOldestFirst(engine.resource('balance_transaction'), scope)[0] // the first posting
 */
export function storedOldestFirst(resource: Resource, scope: Scope): BalanceTransaction[] {
  return (resource.list(scope) as unknown as BalanceTransaction[]).reverse()
}

/**
 * The ledger's per-scope indexes over the stored transactions: the `created` seconds that
 * transaction counts search, and the posting keys that make a posting idempotent. Nothing of its
 * own is saved: a scope's index is built from its stored transactions on first use (after a load,
 * {@link PostingIndex.clear} drops them all).
 *
 * @example
 * const index = new PostingIndex(() => engine.resource('balance_transaction'))
 * index.countSince(scope, now - 30 * DAY) // O(log n)
 */
export class PostingIndex {
  private readonly indexes = new Map<string, ScopeIndex>()
  private readonly resource: () => Resource

  constructor(resource: () => Resource) {
    this.resource = resource
  }

  /** A scope's index, built from its stored transactions on first use. */
  of(scope: Scope): ScopeIndex {
    const k = scopeKey(scope)
    let ix = this.indexes.get(k)
    if (ix === undefined) {
      ix = { created: [], byPosting: new Map() }
      for (const t of storedOldestFirst(this.resource(), scope)) addToIndex(ix, t)
      this.indexes.set(k, ix)
    }
    return ix
  }

  clear(): void {
    this.indexes.clear()
  }

  /** Transactions of a scope whose `created` second starts at or after `since` (epoch ms). O(log n). */
  countSince(scope: Scope, since: number): number {
    const created = this.of(scope).created
    let lo = 0
    let hi = created.length
    // A transaction counts while the window starts at or before the second it was made in.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((created[mid] as number) * 1000 < since) lo = mid + 1
      else hi = mid
    }
    return created.length - lo
  }
}

/**
 * Adds a newer transaction to a scope's index.
 *
 * @example
 * addToIndex(index.of(scope), txn)
 */
export function addToIndex(ix: ScopeIndex, t: BalanceTransaction): void {
  ix.created.push(t.created)
  const key = postingKey(t.type, t.reporting_category, t.source)
  if (key !== undefined) ix.byPosting.set(key, t.id)
}
