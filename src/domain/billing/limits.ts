import { DAY, HOUR, MINUTE } from '#kernel/time.js'
import type { LimitRow } from '../limits/limit-row.js'
import { rateLimited } from '../limits/refusals.js'
import type { SlidingLog } from '../limits/sliding-log.js'
import type { Scope } from '../mode.js'
import type { SubState } from './billing-types.js'
import type { BillingContext } from './context.js'

/**
 * The subscription rows of the limit table, counted by billing (not by the request gate):
 * quantity updates per hour and new invoices per minute and per day, per subscription.
 */
export type BillingLimits = ReturnType<typeof createLimits>

export function createLimits(ctx: BillingContext) {
  const { kernel, subs, key } = ctx
  const limitRows = ctx.options.limitRows
  const rows = {
    updates: limitRows.find((r) => r.id === 'subscription.updates'),
    invoices: limitRows.filter((r) => r.scope === 'subscription' && r.id.startsWith('subscription.invoices')),
  }

  function admit(logs: readonly SlidingLog[], rowsOf: readonly (LimitRow | undefined)[], now: number): void {
    rowsOf.forEach((row, i) => {
      const log = logs[i]
      if (row === undefined || log === undefined) return
      if (!log.admits(now, row.windowMs ?? 1000, row.max)) {
        throw rateLimited('resource-specific', kernel.prefix, 'v1', 'rate_limit_subscription', {
          row: row.id,
          max: row.max,
          window: describeWindow(row.windowMs ?? 1000),
        })
      }
    })
  }

  function count(logs: readonly SlidingLog[], rowsOf: readonly (LimitRow | undefined)[], now: number): void {
    rowsOf.forEach((row, i) => {
      if (row !== undefined) logs[i]?.add(now)
    })
  }

  return {
    /** How many invoice logs a subscription keeps (one per invoice row). */
    invoiceRows: rows.invoices.length,
    /** Counts a new invoice of a subscription (cycle invoices too). */
    countInvoice(s: SubState, now: number): void {
      count(s.invoiceLogs, rows.invoices, now)
    },
    /** Refuses a quantity update past `subscription.updates`, then counts it. */
    countQuantityUpdate(scope: Scope, subId: string): void {
      const s = subs.get(key(scope, subId))
      if (s === undefined || rows.updates === undefined) return
      const now = kernel.clock.now
      admit([s.quantityLog], [rows.updates], now)
      count([s.quantityLog], [rows.updates], now)
    },
    /** Refuses a new invoice for a subscription past `subscription.invoices.*` (requests only). */
    checkInvoiceLimit(scope: Scope, subId: string): void {
      const s = subs.get(key(scope, subId))
      if (s === undefined) return
      admit(s.invoiceLogs, rows.invoices, s.timeline.now())
    },
  }
}

function describeWindow(ms: number): string {
  if (ms === MINUTE) return 'minute'
  if (ms === HOUR) return 'hour'
  if (ms === DAY) return 'day'
  return `${ms} ms`
}
