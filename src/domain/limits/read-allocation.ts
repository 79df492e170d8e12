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

/**
 * The GETs of one allocation over a rolling window, in 720 ring buckets (one hour each over 30
 * days), so its memory is fixed however long the run. The allowance is
 * `max(minimum, perTransaction × transactions in the window)`; transaction counts are only asked
 * for once the floor is passed, and at most once per bucket.
 *
 * @example
 * const a = new ReadAllocation(DEFAULT_READ_ALLOCATION, (since) => ledger.transactionCount(scope, since))
 * if (a.admits(now)) a.add(now)
 */
export class ReadAllocation {
  private readonly counts = new Int32Array(BUCKETS)
  private last = Number.NEGATIVE_INFINITY
  private total = 0
  private allowance = 0
  private allowanceAt = Number.NaN
  private readonly bucketMs: number

  constructor(
    private readonly config: ReadAllocationConfig,
    private readonly transactions: (since: number) => number,
  ) {
    this.bucketMs = config.windowMs / BUCKETS
  }

  /** The counters, for a snapshot. */
  save(): { counts: Int32Array; last: number; total: number; allowance: number; allowanceAt: number } {
    return {
      counts: this.counts.slice(),
      last: this.last,
      total: this.total,
      allowance: this.allowance,
      allowanceAt: this.allowanceAt,
    }
  }

  load(saved: ReturnType<ReadAllocation['save']>): void {
    this.counts.set(saved.counts)
    this.last = saved.last
    this.total = saved.total
    this.allowance = saved.allowance
    this.allowanceAt = saved.allowanceAt
  }

  private advance(now: number): number {
    const bucket = Math.floor(now / this.bucketMs)
    if (bucket > this.last) {
      const steps = this.last === Number.NEGATIVE_INFINITY ? 0 : Math.min(BUCKETS, bucket - this.last)
      for (let i = 1; i <= steps; i++) {
        const slot = (this.last + i) % BUCKETS
        this.total -= this.counts[slot] as number
        this.counts[slot] = 0
      }
      this.last = bucket
    }
    return bucket
  }

  /** True if one more GET fits in the allocation at `now`. */
  admits(now: number): boolean {
    const bucket = this.advance(now)
    if (this.total < this.config.minimum) return true
    if (this.allowanceAt !== bucket) {
      this.allowance = Math.max(this.config.minimum, this.config.perTransaction * this.transactions(now - this.config.windowMs))
      this.allowanceAt = bucket
    }
    return this.total < this.allowance
  }

  add(now: number): void {
    const bucket = this.advance(now)
    this.counts[bucket % BUCKETS] = (this.counts[bucket % BUCKETS] as number) + 1
    this.total++
  }

  /** GETs counted in the window at `now`. */
  used(now: number): number {
    this.advance(now)
    return this.total
  }
}
