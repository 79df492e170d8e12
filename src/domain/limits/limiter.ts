import type { Kernel } from '../kernel.js'
import type { Admission, Gate } from '../service.js'
import type { ReadAllocationConfig } from './default-limits.js'
import { type LimitRow, type LimitScope, reasonOf } from './limit-row.js'
import { compileGlob, type OperationGlob } from './operation-glob.js'
import { createReadAllocations, type TransactionCounts } from './read-allocation.js'
import { rateLimited, tooManyConcurrent } from './refusals.js'
import { SlidingLog } from './sliding-log.js'

interface CompiledRow {
  readonly row: LimitRow
  readonly operations: readonly OperationGlob[]
  readonly except: readonly OperationGlob[]
  readonly window: number
  readonly rank: number
}

/** A row as it applies to one kind of request. */
interface Step {
  readonly row: LimitRow
  readonly window: number
  readonly rank: number
}

interface Plan {
  readonly rate: readonly Step[]
  readonly concurrency: readonly Step[]
  readonly reads: boolean
}

// Most specific first: a request refused by several rows gets the reason of the narrowest one, so
// the 26th call to one endpoint in sandbox reads `endpoint-rate` although the global 25/s is also full.
const SCOPE_RANK: Record<LimitScope, number> = { object: 0, customer_meter: 1, resource: 2, endpoint: 3, account: 4 }
const SINGLE_ROW_SCOPES = new Set<LimitScope>(['account', 'endpoint'])
const SWEEP_EVERY = 4096

/** How a request is told apart for limits: the fields of an Admission the limiter reads. */
export type LimitedRequest = Pick<
  Admission,
  'operation' | 'method' | 'account' | 'authenticated' | 'mode' | 'onBehalf' | 'objectId' | 'mutates' | 'body'
> & { readonly api?: 'v1' | 'v2' }

/** Inspection of the limiter's state, for tests and the admin. */
export interface LimiterUsage {
  /** Admissions in the current window of a rate row for a key (see `keyOf`). */
  readonly rateKeys: number
  readonly concurrencyKeys: number
  readonly readAllocations: number
}

/**
 * Rate, concurrency and read-allocation limits, driven by the limit table. One gate checks every
 * row that applies to a request (rows are compiled once per operation, mode, method and mutation
 * flag), refuses with the reason of the most specific full row, and only then counts the request,
 * so a refused request consumes nothing. Windows slide on the virtual clock; idle keys are swept.
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
  /** How the customer and meter of a synchronous meter event are read from its body. */
  setMeterKey(fn: (body: unknown) => { customer: string; meter: string } | undefined): void
  /** GETs counted against an allocation: `{ account, mode }` own, or `onBehalf` for the platform's. */
  readsUsed(account: string, mode: string, onBehalf?: boolean): number
  usage(): LimiterUsage
}

export interface LimiterOptions {
  readonly rows: readonly LimitRow[]
  readonly reads: ReadAllocationConfig | undefined
  readonly transactions?: TransactionCounts
}

export function createLimiter(kernel: Kernel, options: LimiterOptions): Limiter {
  const compiled: CompiledRow[] = options.rows
    .filter((row) => row.max !== Number.POSITIVE_INFINITY)
    .map((row) => ({
      row,
      operations: (row.operations ?? ['*']).map(compileGlob),
      except: (row.except ?? []).map(compileGlob),
      window: row.windowMs ?? 1000,
      rank: SCOPE_RANK[row.scope],
    }))
  const excludedReads = (options.reads?.excluded ?? []).map(compileGlob)
  const reads = options.reads === undefined ? undefined : createReadAllocations(options.reads)
  const longestWindow = Math.max(1000, ...compiled.map((c) => c.window))
  const plans = new Map<string, Plan>()
  const logs = new Map<string, SlidingLog>()
  const inFlight = new Map<string, number>()
  let transactions: TransactionCounts | undefined = options.transactions
  const customerKey = `${kernel.prefix.toLowerCase()}_customer_id`
  let meterKey = (body: unknown): { customer: string; meter: string } | undefined => {
    if (body === null || typeof body !== 'object') return undefined
    const b = body as { event_name?: unknown; payload?: Record<string, unknown> }
    const customer = b.payload?.[customerKey]
    if (typeof b.event_name !== 'string' || typeof customer !== 'string') return undefined
    return { customer, meter: b.event_name }
  }
  let admissions = 0
  let nextSweep = Number.NEGATIVE_INFINITY

  function plan(r: LimitedRequest): Plan {
    const id = `${r.mode} ${r.method} ${r.mutates ? 1 : 0} ${r.operation}`
    let p = plans.get(id)
    if (p !== undefined) return p
    const best = new Map<string, { c: CompiledRow; specificity: number }>()
    const steps: Step[] = []
    for (const c of compiled) {
      const { row } = c
      if (row.mode !== undefined && row.mode !== r.mode) continue
      if (row.methods !== undefined && !row.methods.includes(r.method)) continue
      if (row.mutatesOnly === true && !r.mutates) continue
      if (c.except.some((g) => g.test(r.operation))) continue
      let specificity = -1
      for (const g of c.operations) if (g.test(r.operation)) specificity = Math.max(specificity, g.specificity)
      if (specificity < 0) continue
      if (SINGLE_ROW_SCOPES.has(row.scope)) {
        const slot = `${row.scope} ${row.kind}`
        const held = best.get(slot)
        // Later rows win ties, so a row added through the option overrides a default of equal rank.
        if (held === undefined || specificity >= held.specificity) best.set(slot, { c, specificity })
      } else steps.push({ row, window: c.window, rank: c.rank })
    }
    for (const { c } of best.values()) steps.push({ row: c.row, window: c.window, rank: c.rank })
    steps.sort((a, b) => a.rank - b.rank)
    const readCounted = reads !== undefined && r.method === 'GET' && !excludedReads.some((g) => g.test(r.operation))
    p = {
      rate: steps.filter((s) => s.row.kind === 'rate'),
      concurrency: steps.filter((s) => s.row.kind === 'concurrency'),
      reads: readCounted,
    }
    plans.set(id, p)
    return p
  }

  function keyOf(step: Step, r: LimitedRequest): string | undefined {
    const { row } = step
    switch (row.scope) {
      case 'account':
      case 'resource':
        return `${row.id}|${r.account}|${r.mode}`
      case 'endpoint':
        return `${row.id}|${r.account}|${r.mode}|${r.operation}`
      case 'object':
        return r.objectId === undefined ? undefined : `${row.id}|${r.mode}|${r.objectId}`
      case 'customer_meter': {
        const m = meterKey(r.body)
        return m === undefined ? undefined : `${row.id}|${r.account}|${r.mode}|${m.customer}|${m.meter}`
      }
    }
  }

  function refuse(step: Step, r: LimitedRequest): never {
    kernel.trace.append('limit.refused', { row: step.row.id, operation: r.operation, account: r.account, mode: r.mode })
    const reason = reasonOf(step.row)
    if (reason === undefined) {
      const m = meterKey(r.body)
      throw tooManyConcurrent(m?.customer ?? '', m?.meter ?? '')
    }
    throw rateLimited(reason, kernel.prefix, r.api ?? 'v1')
  }

  function readKey(r: LimitedRequest): string {
    return r.onBehalf ? `${r.authenticated}|${r.mode}|behalf` : `${r.account}|${r.mode}`
  }

  function sweep(now: number): void {
    for (const [key, log] of logs) if (log.newest() <= now - longestWindow) logs.delete(key)
    reads?.sweep(now)
  }

  function check(r: LimitedRequest): void | (() => void) {
    const p = plan(r)
    if (p.rate.length === 0 && p.concurrency.length === 0 && !p.reads) return
    const now = kernel.clock.now
    // Idle keys are dropped every few thousand admissions and at least once per longest window, so
    // memory follows the traffic of the last window, not of the whole run.
    if (++admissions % SWEEP_EVERY === 0 || now >= nextSweep) {
      sweep(now)
      nextSweep = now + longestWindow
    }
    const rateKeys: (string | undefined)[] = []
    for (const step of p.rate) {
      const key = keyOf(step, r)
      rateKeys.push(key)
      if (key === undefined) continue
      const log = logs.get(key)
      if (log !== undefined && !log.admits(now, step.window, step.row.max)) refuse(step, r)
      if (log === undefined && step.row.max <= 0) refuse(step, r)
    }
    const concurrencyKeys: (string | undefined)[] = []
    for (const step of p.concurrency) {
      const key = keyOf(step, r)
      concurrencyKeys.push(key)
      if (key !== undefined && (inFlight.get(key) ?? 0) >= step.row.max) refuse(step, r)
    }
    if (p.reads && reads !== undefined) {
      const key = readKey(r)
      const counts = (since: number): number => {
        if (transactions === undefined) return 0
        return r.onBehalf
          ? transactions.connectedTransactionCount(r.authenticated, r.mode, since)
          : transactions.transactionCount({ account: r.account, mode: r.mode }, since)
      }
      if (!reads.admits(key, now, counts)) {
        kernel.trace.append('limit.refused', { row: 'reads', operation: r.operation, account: r.account, mode: r.mode })
        throw rateLimited(
          'global-rate',
          kernel.prefix,
          r.api ?? 'v1',
          'Read allocation exhausted: GET requests over the last 30 days exceed 500 per transaction (at least 10,000).',
        )
      }
      reads.add(key, now)
    }
    for (const key of rateKeys) {
      if (key === undefined) continue
      let log = logs.get(key)
      if (log === undefined) {
        log = new SlidingLog()
        logs.set(key, log)
      }
      log.add(now)
    }
    const held = concurrencyKeys.filter((k): k is string => k !== undefined)
    if (held.length === 0) return
    for (const key of held) inFlight.set(key, (inFlight.get(key) ?? 0) + 1)
    return () => {
      for (const key of held) {
        const n = (inFlight.get(key) ?? 1) - 1
        if (n <= 0) inFlight.delete(key)
        else inFlight.set(key, n)
      }
    }
  }

  return {
    gate: check,
    rows: options.rows,
    setTransactionCounts(counts) {
      transactions = counts
    },
    setMeterKey(fn) {
      meterKey = fn
    },
    readsUsed: (account, mode, onBehalf = false) =>
      reads === undefined ? 0 : reads.used(onBehalf ? `${account}|${mode}|behalf` : `${account}|${mode}`, kernel.clock.now),
    usage: () => ({ rateKeys: logs.size, concurrencyKeys: inFlight.size, readAllocations: reads?.size ?? 0 }),
  }
}
