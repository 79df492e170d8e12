import { type Scope, scopeKey } from '../mode.js'

/**
 * How a legacy metered price (no meter) turns a period's usage records into a quantity.
 *
 * @example
 * const aggregate: AggregateUsage = 'last_during_period'
 */
export type AggregateUsage = 'sum' | 'max' | 'last_during_period' | 'last_ever'

/** One subscription item's usage at one second: `increment` adds to it, `set` replaces it. */
interface Entry {
  readonly at: number
  quantity: number
}

/**
 * The legacy usage records of the API versions before basil: quantities reported per subscription
 * item (`subscriptionItems.createUsageRecord`) and aggregated per period as the price's
 * `aggregate_usage` says, read by the same invoice lines as a meter's events.
 *
 * @example
 * const usage = createUsageRecords()
 * usage.record(scope, 'si_1', { quantity: 5, at: 1_700_000_000, action: 'increment' })
 * usage.total(scope, 'si_1', 'sum', 0, Number.MAX_SAFE_INTEGER) // 5
 */
export type UsageRecords = ReturnType<typeof createUsageRecords>

/**
 * Builds an empty store of usage records.
 *
 * @example
 * const usage = createUsageRecords()
 */
export function createUsageRecords() {
  const byItem = new Map<string, Entry[]>()
  const keyOf = (scope: Scope, item: string) => `${scopeKey(scope)}|${item}`

  return {
    /** Records usage at `at` (unix seconds); answers the quantity now recorded at that second. */
    record(scope: Scope, item: string, usage: { quantity: number; at: number; action: 'increment' | 'set' }): number {
      const key = keyOf(scope, item)
      const entries = byItem.get(key) ?? []
      byItem.set(key, entries)
      let entry = entries.find((e) => e.at === usage.at)
      if (entry === undefined) {
        entry = { at: usage.at, quantity: 0 }
        // Kept in time order: `last_*` aggregates read the latest one.
        const before = entries.findIndex((e) => e.at > usage.at)
        entries.splice(before < 0 ? entries.length : before, 0, entry)
      }
      entry.quantity = usage.action === 'set' ? usage.quantity : entry.quantity + usage.quantity
      return entry.quantity
    },
    /** The quantity of usage between `start` and `end` (unix seconds, end excluded) as `aggregate` says. */
    total(scope: Scope, item: string, aggregate: AggregateUsage, start: number, end: number): number {
      const entries = byItem.get(keyOf(scope, item)) ?? []
      if (aggregate === 'last_ever') return entries.filter((e) => e.at < end).at(-1)?.quantity ?? 0
      const inPeriod = entries.filter((e) => e.at >= start && e.at < end)
      if (aggregate === 'max') return inPeriod.reduce((m, e) => Math.max(m, e.quantity), 0)
      if (aggregate === 'last_during_period') return inPeriod.at(-1)?.quantity ?? 0
      return inPeriod.reduce((sum, e) => sum + e.quantity, 0)
    },
    /** The records as plain data for a snapshot, or `undefined` when there are none (left out then). */
    save(): Array<[string, Array<[number, number]>]> | undefined {
      if (byItem.size === 0) return undefined
      return [...byItem].map(([key, entries]) => [key, entries.map((e) => [e.at, e.quantity] as [number, number])])
    },
    /** Replaces the records with a snapshot's (none when it has none). */
    load(saved: ReadonlyArray<[string, ReadonlyArray<[number, number]>]> | undefined): void {
      byItem.clear()
      for (const [key, entries] of saved ?? [])
        byItem.set(
          key,
          entries.map(([at, quantity]) => ({ at, quantity })),
        )
    },
  }
}
