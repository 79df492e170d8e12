import { DAY } from '#kernel/time.js'

/** A recurring price's interval. */
export type Interval = 'day' | 'week' | 'month' | 'year'

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
}

/**
 * The `n`-th period boundary after `anchor` (epoch ms) for `count` × `interval`, in UTC. Months and
 * years keep the anchor's day, clamped to the length of the month (Jan 31 → Feb 28/29 → Mar 31),
 * and its time of day; days and weeks are fixed lengths.
 *
 * @example
 * boundary(Date.UTC(2026, 0, 31), 'month', 1, 1) // Date.UTC(2026, 1, 28)
 * boundary(Date.UTC(2026, 0, 31), 'month', 1, 2) // Date.UTC(2026, 2, 31)
 */
export function boundary(anchor: number, interval: Interval, count: number, n: number): number {
  if (interval === 'day') return anchor + n * count * DAY
  if (interval === 'week') return anchor + n * count * 7 * DAY
  const a = new Date(anchor)
  const months = (interval === 'year' ? 12 : 1) * count * n
  const total = a.getUTCFullYear() * 12 + a.getUTCMonth() + months
  const year = Math.floor(total / 12)
  const month = total - year * 12
  const day = Math.min(a.getUTCDate(), daysInMonth(year, month))
  const timeOfDay = anchor - Date.UTC(a.getUTCFullYear(), a.getUTCMonth(), a.getUTCDate())
  return Date.UTC(year, month, day) + timeOfDay
}

/**
 * The first boundary strictly after `time`, counted from `anchor` (which may lie before or after it).
 *
 * @example
 * nextBoundary(Date.UTC(2026, 0, 31), 'month', 1, Date.UTC(2026, 1, 1)) // Date.UTC(2026, 1, 28)
 */
export function nextBoundary(anchor: number, interval: Interval, count: number, time: number): number {
  if (anchor > time) {
    let n = 0
    while (boundary(anchor, interval, count, n - 1) > time) n--
    return boundary(anchor, interval, count, n)
  }
  let n = 1
  while (boundary(anchor, interval, count, n) <= time) n++
  return boundary(anchor, interval, count, n)
}
