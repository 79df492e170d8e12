import { SUBSCRIPTION_MAX_TRIAL_DAYS } from '#catalogue/rules.js'
import { DAY } from '#kernel/time.js'
import { invalid } from './subscription-params.js'

/**
 * `cancel_at` read before anything changes: `undefined` when not given, `null` to clear it (`''`),
 * else the time (ms) to cancel at: a unix timestamp in the future, or one of the provider's
 * keywords (`min_period_end`, `max_period_end`, `max_billed_until`), which all name the current
 * period's end here (every item shares one period).
 *
 * @example
 * cancelAtParam(1_770_000_000, now, periodEnd) // 1_770_000_000_000
 */
export function cancelAtParam(value: unknown, now: number, periodEnd: number): number | null | undefined {
  if (value === undefined) return undefined
  if (value === '' || value === null) return null
  if (value === 'min_period_end' || value === 'max_period_end' || value === 'max_billed_until') return periodEnd
  const seconds = Number(value)
  if (!Number.isSafeInteger(seconds)) throw invalid('cancel_at', 'must be an integer Unix timestamp')
  if (seconds * 1000 <= now) throw invalid('cancel_at', 'must be in the future')
  return seconds * 1000
}

/**
 * `trial_end` on an update (or a preview's `subscription_details[trial_end]`, named by `param`):
 * `undefined` when not given, `'now'`, or a time (ms) in the future and at most two years ahead
 * (the pinned client: "Can be at most two years from `billing_cycle_anchor`").
 *
 * @example
 * trialEndParam('now', now) // 'now'
 */
export function trialEndParam(value: unknown, now: number, param = 'trial_end'): number | 'now' | undefined {
  if (value === undefined) return undefined
  if (value === 'now') return 'now'
  const seconds = Number(value)
  if (!Number.isSafeInteger(seconds) || seconds * 1000 <= now) {
    throw invalid(param, 'must be an integer Unix timestamp in the future')
  }
  if (seconds * 1000 > now + SUBSCRIPTION_MAX_TRIAL_DAYS * DAY) {
    throw invalid(param, `can be at most ${SUBSCRIPTION_MAX_TRIAL_DAYS} days in the future`)
  }
  return seconds * 1000
}
