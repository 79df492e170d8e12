/**
 * A virtual time as an offset from the run's start: `+0 ms`, `+1.5 s`, `+2 h 5 min`.
 *
 * @example
 * sinceStart(90_000) // '+1 min 30 s'
 */
export function sinceStart(ms: number): string {
  if (ms < 1000) return `+${ms} ms`
  const parts: string[] = []
  let rest = Math.floor(ms / 1000)
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
  ] as const) {
    if (rest >= size) parts.push(`${Math.floor(rest / size)} ${unit}`)
    rest %= size
  }
  const seconds = rest + (ms % 1000) / 1000
  if (seconds > 0 || parts.length === 0) parts.push(`${Number(seconds.toFixed(3))} s`)
  return `+${parts.join(' ')}`
}
