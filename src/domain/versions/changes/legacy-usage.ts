import type { VersionChange } from '../change.js'

type Obj = Record<string, unknown>

/**
 * basil removed legacy usage-based billing: a metered price needs a meter, and usage is reported
 * as meter events, no longer as usage records aggregated by the price's `aggregate_usage`. Before
 * it, a metered price without a meter takes `recurring[aggregate_usage]` (default `sum`), set aside
 * for the price to keep, and its items' usage records bill it (`subscriptionItems.createUsageRecord`).
 * Walked back, a plan shows its price's `aggregate_usage` (null unless metered then); a price's
 * `recurring.aggregate_usage` needs no code: the generated sub-object facts fill it (null) where
 * the price does not keep one.
 *
 * @example
 * LEGACY_USAGE.forward?.['prices.create']?.({ recurring: { usage_type: 'metered', aggregate_usage: 'max' } }, aside)
 * // aside.aggregate_usage === 'max'
 */
export const LEGACY_USAGE: VersionChange = {
  version: '2025-03-31.basil',
  description: 'legacy metered prices (aggregate_usage, usage records) replaced by meters',
  forward: {
    'prices.create'(params, aside) {
      const recurring = params.recurring as Obj | undefined
      if (recurring === undefined || recurring === null || typeof recurring !== 'object') return
      const { aggregate_usage: aggregate, ...rest } = recurring
      if (rest.usage_type === 'metered' && rest.meter === undefined) aside.aggregate_usage = aggregate ?? 'sum'
      if (aggregate !== undefined) params.recurring = rest
    },
  },
  back: {
    plan(o, ctx) {
      const price = typeof o.id === 'string' ? ctx.find(o.id) : undefined
      const aggregate = (price?.recurring as Obj | null | undefined)?.aggregate_usage
      o.aggregate_usage = typeof aggregate === 'string' ? aggregate : null
    },
  },
}
