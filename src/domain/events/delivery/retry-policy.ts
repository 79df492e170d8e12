import { SANDBOX_RETRIES, LIVE_RETRY_WINDOW_MS as SPEC_LIVE_RETRY_WINDOW_MS } from '#catalogue/rules.js'
import type { RandomStream } from '#kernel/rng.js'
import type { Mode } from '../../mode.js'

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/** Live mode: retries stop once the next one would fall later than this after the first attempt. */
export const LIVE_RETRY_WINDOW_MS = SPEC_LIVE_RETRY_WINDOW_MS
/** Live mode: the first retry waits about this long, then each wait doubles. */
export const LIVE_FIRST_DELAY_MS = 5 * MINUTE
/** Live mode: no single wait is longer than this. */
export const LIVE_MAX_DELAY_MS = 24 * HOUR
/** Test mode: exactly three retries, about 10 minutes, 1 hour and 3 hours after the first attempt. */
export const TEST_RETRY_OFFSETS_MS: readonly number[] = [10 * MINUTE, 1 * HOUR, 3 * HOUR]
/** Seeded jitter: each wait is stretched or shrunk by up to this fraction. */
export const JITTER = 0.1

/**
 * When the next automatic retry falls due, or undefined when the schedule is exhausted (the
 * delivery is then Failed). `retry` counts retries already scheduled (0 before the first retry).
 * Live: exponential backoff with seeded jitter, inside 3 days of the first attempt. Test: three
 * retries over about three hours.
 *
 * @example
 * nextRetryAt('test', 0, first, first, rng) // about first + 10 minutes
 */
export function nextRetryAt(
  mode: Mode,
  retry: number,
  firstAttemptAt: number,
  lastAttemptAt: number,
  rng: RandomStream,
): number | undefined {
  if (mode === 'test') {
    const offset = retry < SANDBOX_RETRIES ? TEST_RETRY_OFFSETS_MS[retry] : undefined
    if (offset === undefined) return undefined
    const previous = retry === 0 ? 0 : (TEST_RETRY_OFFSETS_MS[retry - 1] as number)
    const gap = offset - previous
    // Jitter on the gap only, so retries stay in order and the three fit in ~3.3 hours.
    return Math.max(lastAttemptAt + 1, firstAttemptAt + previous + Math.round(gap * (1 + rng.between(-JITTER, JITTER))))
  }
  const base = Math.min(LIVE_MAX_DELAY_MS, LIVE_FIRST_DELAY_MS * 2 ** retry)
  const due = lastAttemptAt + Math.round(base * (1 + rng.between(-JITTER, JITTER)))
  return due - firstAttemptAt <= LIVE_RETRY_WINDOW_MS ? due : undefined
}

/**
 * The longest a delivery's automatic schedule can last from its first attempt (with jitter), so a
 * horizon can be set that `clock.runToLastAsync()` reaches.
 *
 * @example
 * scheduleSpanMs('live') // 72 hours
 */
export function scheduleSpanMs(mode: Mode): number {
  if (mode === 'live') return LIVE_RETRY_WINDOW_MS
  const last = TEST_RETRY_OFFSETS_MS[TEST_RETRY_OFFSETS_MS.length - 1] ?? 0
  return Math.ceil(last * (1 + JITTER)) + 1
}
