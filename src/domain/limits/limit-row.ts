import type { Mode } from '../mode.js'

/**
 * What a limit counts against: the whole account, one operation (endpoint), a group of operations
 * (resource), one object, one customer and meter pair, or one subscription (`subscription` rows are
 * counted by billing, which knows which changes are quantity updates and which invoices are new,
 * whatever operation or internal process causes them; the request gate skips them).
 *
 * @example
 * const scope: LimitScope = 'endpoint'
 */
export type LimitScope = 'account' | 'endpoint' | 'resource' | 'object' | 'customer_meter' | 'subscription'

/**
 * A rate limit counts admissions in a sliding window; a concurrency limit counts requests in flight.
 *
 * @example
 * const kind: LimitKind = 'concurrency'
 */
export type LimitKind = 'rate' | 'concurrency'

/**
 * The values of `<Prefix>-Rate-Limited-Reason`.
 *
 * @example
 * res.headers.get('Service-Rate-Limited-Reason') as RateLimitedReason | null
 */
export type RateLimitedReason =
  | 'global-rate'
  | 'endpoint-rate'
  | 'global-concurrency'
  | 'endpoint-concurrency'
  | 'resource-specific'

/**
 * One row of the limit table. Rows are data: the defaults transcribe the spec's table, and
 * `createSimulator({ limits: { rows } })` replaces rows by `id` or adds new ones.
 *
 * Operation patterns are globs over operation names (`customers.create`, `files.*`, `*.search`,
 * `*`). For the `account` and `endpoint` scopes only the most specific matching row of each kind
 * applies to an operation (an exact name beats a glob, a longer glob beats a shorter one), which is
 * how "25 per second unless stated" is written; rows of the other scopes all apply.
 *
 * @example
 * const row: LimitRow = { id: 'payouts.create', scope: 'endpoint', kind: 'rate', max: 15, operations: ['payouts.create'] }
 */
export interface LimitRow {
  readonly id: string
  readonly scope: LimitScope
  readonly kind: LimitKind
  /** Most admissions in one window (rate) or most requests in flight at once (concurrency). */
  readonly max: number
  /** Window of a rate row in virtual ms. Default 1000. */
  readonly windowMs?: number
  /** Mode the row applies to; omitted: both (counted apart per mode). */
  readonly mode?: Mode
  /** Operation globs the row applies to. Default `['*']`. */
  readonly operations?: readonly string[]
  /** Operation globs the row does not apply to (e.g. meter events are outside the live global rate). */
  readonly except?: readonly string[]
  /** HTTP methods the row applies to (e.g. files: reads and writes apart). Default all. */
  readonly methods?: readonly string[]
  /** Only requests that change state count (per-object update limits). */
  readonly mutatesOnly?: boolean
}

/**
 * The rate-limited reason a refusal by `row` carries. Object and resource rows are
 * `resource-specific`; customer-and-meter rows answer 409 instead and have no reason.
 *
 * @example
 * reasonOf({ id: 'g', scope: 'account', kind: 'rate', max: 100 }) // 'global-rate'
 */
export function reasonOf(row: Pick<LimitRow, 'scope' | 'kind'>): RateLimitedReason | undefined {
  switch (row.scope) {
    case 'account':
      return row.kind === 'rate' ? 'global-rate' : 'global-concurrency'
    case 'endpoint':
      return row.kind === 'rate' ? 'endpoint-rate' : 'endpoint-concurrency'
    case 'customer_meter':
      return undefined
    default:
      return 'resource-specific'
  }
}
