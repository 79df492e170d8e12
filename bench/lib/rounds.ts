/**
 * Runs `rounds` rounds and returns the one whose `key` is the median: on a shared machine a burst
 * of load from another process hits one round, not the figure.
 *
 * @example
 * const r = await medianOfRounds(3, () => round(), (x) => x.sim / x.baseline)
 */
export async function medianOfRounds<T>(rounds: number, run: () => Promise<T>, key: (r: T) => number): Promise<T> {
  const results: T[] = []
  for (let i = 0; i < rounds; i++) results.push(await run())
  const sorted = [...results].sort((a, b) => key(a) - key(b))
  return sorted[Math.floor(sorted.length / 2)] as T
}
