import { fromPlain, toPlain } from '#kernel/plain.js'
import type { Kernel } from '../kernel-parts.js'
import type { Admission, Gate } from './admission.js'
import type { ReadAllocationConfig } from './default-limits.js'
import { type LimitRow, reasonOf } from './limit-row.js'
import { limitTableOf, type PlanShape, type Step } from './limit-table.js'
import { ReadAllocation, type TransactionCounts } from './read-allocation.js'
import { rateLimited, tooManyConcurrent } from './refusals.js'
import { SlidingLog } from './sliding-log.js'

/** The counters one account's requests of one plan touch, found once and kept (until a sweep). */
interface Bound {
  readonly logs: (SlidingLog | undefined)[]
  readonly slots: (Slot | undefined)[]
  reads: ReadAllocation | undefined
}

interface Slot {
  n: number
}

/** A kind of request's rows (shared by every limiter over the table) and this limiter's bindings. */
interface Plan extends PlanShape {
  readonly bound: Map<string, Bound>
}

const SWEEP_EVERY = 4096

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
  const table = limitTableOf(options.rows, options.reads)
  const readConfig = options.reads
  const longestWindow = table.longestWindow
  const plans = new Map<string, (Plan | undefined)[]>()
  const logs = new Map<string, SlidingLog>()
  const inFlight = new Map<string, Slot>()
  const allocations = new Map<string, ReadAllocation>()
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
    let byKind = plans.get(r.operation)
    if (byKind === undefined) {
      byKind = []
      plans.set(r.operation, byKind)
    }
    const index = table.index(r)
    let p = byKind[index]
    if (p === undefined) {
      const shape = table.shape(r, index)
      p = { rate: shape.rate, concurrency: shape.concurrency, reads: shape.reads, empty: shape.empty, bound: new Map() }
      byKind[index] = p
    }
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
      case 'subscription':
        return undefined
    }
  }

  function logFor(key: string): SlidingLog {
    let log = logs.get(key)
    if (log === undefined) {
      log = new SlidingLog()
      logs.set(key, log)
    }
    return log
  }

  function slotFor(key: string): Slot {
    let slot = inFlight.get(key)
    if (slot === undefined) {
      slot = { n: 0 }
      inFlight.set(key, slot)
    }
    return slot
  }

  function allocationFor(r: LimitedRequest): ReadAllocation {
    const key = r.onBehalf ? `${r.authenticated}|${r.mode}|behalf` : `${r.account}|${r.mode}`
    return allocationOf(key, r)
  }

  function allocationOf(key: string, r: Pick<LimitedRequest, 'account' | 'authenticated' | 'mode' | 'onBehalf'>): ReadAllocation {
    let a = allocations.get(key)
    if (a === undefined) {
      const { account, authenticated, mode, onBehalf } = r
      a = new ReadAllocation(readConfig as ReadAllocationConfig, (since) => {
        if (transactions === undefined) return 0
        return onBehalf
          ? transactions.connectedTransactionCount(authenticated, mode, since)
          : transactions.transactionCount({ account, mode }, since)
      })
      allocations.set(key, a)
    }
    return a
  }

  function bind(p: Plan, r: LimitedRequest): Bound {
    const id = r.onBehalf ? `${r.account}|${r.authenticated}` : r.account
    let b = p.bound.get(id)
    if (b === undefined) {
      b = {
        logs: p.rate.map((s) => (s.perAccount ? logFor(keyOf(s, r) as string) : undefined)),
        slots: p.concurrency.map((s) => (s.perAccount ? slotFor(keyOf(s, r) as string) : undefined)),
        reads: p.reads ? allocationFor(r) : undefined,
      }
      p.bound.set(id, b)
    }
    return b
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

  // Windows, slots and read allocations are counters: saved as numbers, rebuilt on load (the
  // plans' bindings to them are dropped, as a sweep does, and found again on next use).
  interface SavedLimits {
    admissions: number
    nextSweep: number
    logs: [string, number[]][]
    inFlight: [string, number][]
    allocations: [string, ReturnType<ReadAllocation['save']>][]
  }
  // The counters as fresh records: a snapshot encodes them (`toPlain`); a fork takes them as they are.
  const own = {
    records(): SavedLimits {
      return {
        admissions,
        nextSweep,
        logs: [...logs].map(([k, log]) => [k, log.save()]),
        inFlight: [...inFlight].map(([k, slot]) => [k, slot.n]),
        allocations: [...allocations].map(([k, a]) => [k, a.save()]),
      }
    },
    apply(saved: SavedLimits): void {
      admissions = saved.admissions
      nextSweep = saved.nextSweep
      logs.clear()
      for (const [k, times] of saved.logs) logs.set(k, SlidingLog.load(times))
      inFlight.clear()
      for (const [k, n] of saved.inFlight) inFlight.set(k, { n })
      allocations.clear()
      for (const [k, a] of saved.allocations) {
        const [who = '', mode = 'test', behalf] = k.split('|')
        const onBehalf = behalf === 'behalf'
        allocationOf(k, { account: who, authenticated: who, mode: mode as LimitedRequest['mode'], onBehalf }).load(a)
      }
      for (const byKind of plans.values()) for (const p of byKind) p?.bound.clear()
    },
  }
  kernel.state.register('limits', {
    save() {
      return toPlain(own.records())
    },
    load(data) {
      own.apply(fromPlain<SavedLimits>(data))
    },
    copy() {
      return own.records()
    },
    loadCopy(data) {
      own.apply(data as SavedLimits)
    },
  })

  function sweep(now: number): void {
    for (const [key, log] of logs) if (log.newest() <= now - longestWindow) logs.delete(key)
    for (const [key, slot] of inFlight) if (slot.n <= 0) inFlight.delete(key)
    for (const [key, a] of allocations) if (a.used(now) === 0) allocations.delete(key)
    // Bindings point at counters that may just have been dropped: find them again on next use.
    for (const byKind of plans.values()) for (const p of byKind) p?.bound.clear()
  }

  function check(r: LimitedRequest): void | (() => void) {
    const p = plan(r)
    if (p.empty) return
    const now = kernel.clock.now
    // Idle keys are dropped every few thousand admissions and at least once per longest window, so
    // memory follows the traffic of the last window, not of the whole run.
    if (++admissions % SWEEP_EVERY === 0 || now >= nextSweep) {
      sweep(now)
      nextSweep = now + longestWindow
    }
    const b = bind(p, r)
    const rate = p.rate
    let ownLogs: (SlidingLog | undefined)[] | undefined
    for (let i = 0; i < rate.length; i++) {
      const step = rate[i] as Step
      let log = b.logs[i]
      if (log === undefined) {
        const key = keyOf(step, r)
        if (key === undefined) continue
        log = logFor(key)
        ownLogs ??= []
        ownLogs[i] = log
      }
      if (!log.admits(now, step.window, step.row.max)) refuse(step, r)
    }
    const concurrency = p.concurrency
    let held: Slot[] | undefined
    for (let i = 0; i < concurrency.length; i++) {
      const step = concurrency[i] as Step
      let slot = b.slots[i]
      if (slot === undefined) {
        const key = keyOf(step, r)
        if (key === undefined) continue
        slot = slotFor(key)
      }
      if (slot.n >= step.row.max) refuse(step, r)
      held ??= []
      held.push(slot)
    }
    if (b.reads !== undefined) {
      if (!b.reads.admits(now)) {
        kernel.trace.append('limit.refused', { row: 'reads', operation: r.operation, account: r.account, mode: r.mode })
        throw rateLimited('global-rate', kernel.prefix, r.api ?? 'v1', 'rate_limit_reads')
      }
      b.reads.add(now)
    }
    for (let i = 0; i < rate.length; i++) (b.logs[i] ?? ownLogs?.[i])?.add(now)
    if (held === undefined) return
    const slots = held
    for (const slot of slots) slot.n++
    return () => {
      for (const slot of slots) slot.n--
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
    readsUsed(account, mode, onBehalf = false) {
      return allocations.get(onBehalf ? `${account}|${mode}|behalf` : `${account}|${mode}`)?.used(kernel.clock.now) ?? 0
    },
    usage() {
      return {
        rateKeys: logs.size,
        concurrencyKeys: [...inFlight.values()].filter((s) => s.n > 0).length,
        readAllocations: allocations.size,
      }
    },
  }
}
