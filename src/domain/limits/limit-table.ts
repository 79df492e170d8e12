import type { ReadAllocationConfig } from './default-limits.js'
import type { LimitRow, LimitScope } from './limit-row.js'
import type { LimitedRequest } from './limiter.js'
import { compileGlob, type OperationGlob } from './operation-glob.js'

/**
 * A row as it applies to one kind of request.
 *
 * @example
 * const step: Step = { row, window: 1000, rank: 4, perAccount: true }
 */
export interface Step {
  readonly row: LimitRow
  readonly window: number
  readonly rank: number
  /** Its counter is the same for every request of the plan from one account (not per object). */
  readonly perAccount: boolean
}

/**
 * The rows that apply to one kind of request, in the order they are checked.
 *
 * @example
 * const shape = table.shape(request)
 * if (shape.empty) return
 */
export interface PlanShape {
  readonly rate: readonly Step[]
  readonly concurrency: readonly Step[]
  readonly reads: boolean
  readonly empty: boolean
}

// Most specific first: a request refused by several rows gets the reason of the narrowest one, so
// the 26th call to one endpoint in sandbox reads `endpoint-rate` although the global 25/s is also full.
const SCOPE_RANK: Record<LimitScope, number> = {
  object: 0,
  subscription: 0,
  customer_meter: 1,
  resource: 2,
  endpoint: 3,
  account: 4,
}
const SINGLE_ROW_SCOPES = new Set<LimitScope>(['account', 'endpoint'])
const METHOD_INDEX: Record<string, number> = { GET: 0, POST: 1, DELETE: 2 }

interface CompiledRow {
  readonly row: LimitRow
  readonly operations: readonly OperationGlob[]
  readonly except: readonly OperationGlob[]
  readonly window: number
  readonly rank: number
}

/**
 * A limit table compiled: which rows apply to a kind of request (operation, method, mode,
 * mutation flag), worked out once per kind. It holds no counters, so every limiter over the same
 * rows shares it: a fork's limiter starts with the plans its original already compiled.
 *
 * @example
 * const table = limitTableOf(config.rows, config.reads)
 * table.index(request) // the kind's slot in a plan list
 */
export class LimitTable {
  readonly rows: readonly LimitRow[]
  readonly reads: ReadAllocationConfig | undefined
  /** The longest window of any row (at least a second): how long an idle key is kept. */
  readonly longestWindow: number
  readonly #compiled: readonly CompiledRow[]
  readonly #excludedReads: readonly OperationGlob[]
  readonly #shapes = new Map<string, (PlanShape | undefined)[]>()

  constructor(rows: readonly LimitRow[], reads: ReadAllocationConfig | undefined) {
    this.rows = rows
    this.reads = reads
    this.#compiled = rows.map((row) => ({
      row,
      operations: (row.operations ?? ['*']).map(compileGlob),
      except: (row.except ?? []).map(compileGlob),
      window: row.windowMs ?? 1000,
      rank: SCOPE_RANK[row.scope],
    }))
    this.#excludedReads = (reads?.excluded ?? []).map(compileGlob)
    this.longestWindow = Math.max(1000, ...this.#compiled.map((c) => c.window))
  }

  /** The slot of a request's kind among its operation's plans. */
  index(r: LimitedRequest): number {
    return ((METHOD_INDEX[r.method] ?? 3) * 2 + (r.mode === 'live' ? 1 : 0)) * 2 + (r.mutates ? 1 : 0)
  }

  /** The rows that apply to the request's kind (compiled on its first request). */
  shape(r: LimitedRequest, index: number): PlanShape {
    let byKind = this.#shapes.get(r.operation)
    if (byKind === undefined) {
      byKind = []
      this.#shapes.set(r.operation, byKind)
    }
    let s = byKind[index]
    if (s === undefined) {
      s = this.#compile(r)
      byKind[index] = s
    }
    return s
  }

  #compile(r: LimitedRequest): PlanShape {
    const best = new Map<string, { c: CompiledRow; specificity: number }>()
    const steps: Step[] = []
    for (const c of this.#compiled) {
      const { row } = c
      // Subscription rows are counted by billing, not at the gate.
      if (row.scope === 'subscription') continue
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
      } else steps.push(stepOf(c))
    }
    for (const { c } of best.values()) steps.push(stepOf(c))
    steps.sort((a, b) => a.rank - b.rank)
    const reads = this.reads !== undefined && r.method === 'GET' && !this.#excludedReads.some((g) => g.test(r.operation))
    const rate = steps.filter((s) => s.row.kind === 'rate')
    const concurrency = steps.filter((s) => s.row.kind === 'concurrency')
    return { rate, concurrency, reads, empty: rate.length + concurrency.length === 0 && !reads }
  }
}

function stepOf(c: CompiledRow): Step {
  return {
    row: c.row,
    window: c.window,
    rank: c.rank,
    perAccount: c.row.scope === 'account' || c.row.scope === 'endpoint' || c.row.scope === 'resource',
  }
}

const tables = new WeakMap<readonly LimitRow[], LimitTable>()

/**
 * The compiled table of these rows and read allocation: the same one for every limiter given the
 * same rows array (forks and simulators made from one resolved option).
 *
 * @example
 * const table = limitTableOf(DEFAULT_LIMITS, DEFAULT_READ_ALLOCATION)
 */
export function limitTableOf(rows: readonly LimitRow[], reads: ReadAllocationConfig | undefined): LimitTable {
  const held = tables.get(rows)
  if (held !== undefined && held.reads === reads) return held
  const table = new LimitTable(rows, reads)
  tables.set(rows, table)
  return table
}
