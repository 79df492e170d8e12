import type { Kernel } from '../kernel-parts.js'
import type { Admission, Gate } from './admission.js'
import type { ReadAllocationConfig } from './default-limits.js'
import type { LimitRow } from './limit-row.js'
import { limitTableOf } from './limit-table.js'
import { admit } from './limiter-gate.js'
import { registerLimiterSnapshot } from './limiter-snapshot.js'
import { limiterState } from './limiter-state.js'
import type { TransactionCounts } from './read-allocation.js'

/**
 * How a request is told apart for limits: the fields of an Admission the limiter reads.
 *
 * @example
 * limiter.gate(admission) // an Admission is a LimitedRequest
 */
export type LimitedRequest = Pick<
  Admission,
  'operation' | 'method' | 'account' | 'authenticated' | 'mode' | 'onBehalf' | 'objectId' | 'mutates' | 'body' | 'api'
>

/**
 * Inspection of the limiter's memory, for tests and the admin.
 *
 * @example
 * service.limits?.usage().rateKeys
 */
export interface LimiterUsage {
  /** Rate-limit keys holding a window. */
  readonly rateKeys: number
  /** Concurrency keys with requests in flight. */
  readonly concurrencyKeys: number
  readonly readAllocations: number
}

/**
 * Rate, concurrency and read-allocation limits, driven by the limit table. One gate checks every
 * row that applies to a request (rows are compiled once per operation, mode, method and mutation
 * flag, and the counters of an account found once per plan), refuses with the reason of the most
 * specific full row, and only then counts the request, so a refused request consumes nothing.
 * Windows slide on the virtual clock; idle keys are swept.
 *
 * @example
 * const limiter = createLimiter(kernel, { rows: DEFAULT_LIMITS, reads: DEFAULT_READ_ALLOCATION })
 * service.gates.push(limiter.gate)
 */
export interface Limiter {
  readonly gate: Gate
  readonly rows: readonly LimitRow[]
  /** Where read allocations get transaction counts; the ledger by default. */
  setTransactionCounts(counts: TransactionCounts): void
  /** How the customer and meter of a synchronous meter event are read from its body (customer_meter rows). */
  setMeterKey(fn: (body: unknown) => { customer: string; meter: string } | undefined): void
  /** GETs counted against an allocation: the account's own, or (`onBehalf`) a platform's for its connected accounts. */
  readsUsed(account: string, mode: string, onBehalf?: boolean): number
  usage(): LimiterUsage
}

/**
 * What a limiter runs on: the resolved rows and read allocation, and where transactions are counted.
 *
 * @example
 * createLimiter(kernel, { rows: DEFAULT_LIMITS, reads: undefined })
 */
export interface LimiterOptions {
  readonly rows: readonly LimitRow[]
  readonly reads: ReadAllocationConfig | undefined
  readonly transactions?: TransactionCounts
}

/**
 * Creates the limiter of one service (see {@link Limiter}).
 *
 * @example
 * const limiter = createLimiter(kernel, { rows: config.rows, reads: config.reads, transactions: ledger })
 */
export function createLimiter(kernel: Kernel, options: LimiterOptions): Limiter {
  const state = limiterState(kernel, limitTableOf(options.rows, options.reads), options.reads, options.transactions)
  registerLimiterSnapshot(state)
  return {
    gate: (r) => admit(state, r),
    rows: options.rows,
    setTransactionCounts(counts) {
      state.transactions = counts
    },
    setMeterKey(fn) {
      state.meterKey = fn
    },
    readsUsed(account, mode, onBehalf = false) {
      const key = onBehalf ? `${account}|${mode}|behalf` : `${account}|${mode}`
      return state.allocations.get(key)?.used(kernel.clock.now) ?? 0
    },
    usage() {
      return {
        rateKeys: state.logs.size,
        concurrencyKeys: [...state.inFlight.values()].filter((s) => s.n > 0).length,
        readAllocations: state.allocations.size,
      }
    },
  }
}
