import type { Mode, Scope } from '../mode.js'
import type { ReadAllocationConfig } from './default-limits.js'

/**
 * Where read allocations get transaction counts from. The ledger satisfies it; any object with these
 * two methods can stand in.
 *
 * @example
 * const counts: TransactionCounts = service.ledger
 */
export interface TransactionCounts {
  transactionCount(scope: Scope, since: number): number
  connectedTransactionCount(platform: string, mode: Mode, since: number): number
}

const BUCKETS = 720

interface Allocation {
  readonly counts: Int32Array
  /** Index of the newest bucket (absolute bucket number). */
  last: number
  total: number
  /** Allowance computed for bucket `allowanceAt` (transaction counts are read once per bucket). */
  allowance: number
  allowanceAt: number
}

/**
 * GET counts per allocation over a rolling window, kept in 720 ring buckets (one hour each over 30
 * days), so memory per allocation is fixed however long the run. The allowance is
 * `max(minimum, perTransaction × transactions in the window)`; transaction counts are only asked
 * for once the floor is passed, and at most once per bucket.
 *
 * @example
 * const reads = createReadAllocations(DEFAULT_READ_ALLOCATION, () => ledger)
 * if (!reads.admits(key, now, () => ledger.transactionCount(scope, now - DAY * 30))) refuse()
 * reads.add(key, now)
 */
export interface ReadAllocations {
  admits(key: string, now: number, transactions: (since: number) => number): boolean
  add(key: string, now: number): void
  /** GETs counted in the window for `key`. */
  used(key: string, now: number): number
  /** Drops allocations with nothing left in their window. */
  sweep(now: number): void
  readonly size: number
}

export function createReadAllocations(config: ReadAllocationConfig): ReadAllocations {
  const bucketMs = config.windowMs / BUCKETS
  const all = new Map<string, Allocation>()

  function advance(a: Allocation, bucket: number): void {
    if (bucket <= a.last) return
    const steps = Math.min(BUCKETS, bucket - a.last)
    for (let i = 1; i <= steps; i++) {
      const slot = (a.last + i) % BUCKETS
      a.total -= a.counts[slot] as number
      a.counts[slot] = 0
    }
    a.last = bucket
  }

  function get(key: string, bucket: number): Allocation {
    let a = all.get(key)
    if (a === undefined) {
      a = { counts: new Int32Array(BUCKETS), last: bucket, total: 0, allowance: config.minimum, allowanceAt: -1 }
      all.set(key, a)
    }
    advance(a, bucket)
    return a
  }

  return {
    admits(key, now, transactions) {
      const a = all.get(key)
      if (a === undefined) return config.minimum > 0 || config.perTransaction * transactions(now - config.windowMs) > 0
      const bucket = Math.floor(now / bucketMs)
      advance(a, bucket)
      if (a.total < config.minimum) return true
      if (a.allowanceAt !== bucket) {
        a.allowance = Math.max(config.minimum, config.perTransaction * transactions(now - config.windowMs))
        a.allowanceAt = bucket
      }
      return a.total < a.allowance
    },
    add(key, now) {
      const bucket = Math.floor(now / bucketMs)
      const a = get(key, bucket)
      a.counts[bucket % BUCKETS] = (a.counts[bucket % BUCKETS] as number) + 1
      a.total++
    },
    used(key, now) {
      const a = all.get(key)
      if (a === undefined) return 0
      advance(a, Math.floor(now / bucketMs))
      return a.total
    },
    sweep(now) {
      const bucket = Math.floor(now / bucketMs)
      for (const [key, a] of all) {
        advance(a, bucket)
        if (a.total === 0) all.delete(key)
      }
    },
    get size() {
      return all.size
    },
  }
}
