/**
 * The candidate closest to a misspelt name, for a "did you mean" hint: the one fewest single-letter
 * edits away (case ignored), if it is near enough to be a typo (at most a third of its letters, and
 * at least one). `undefined` when nothing is that close.
 *
 * @example
 * closestName('headerPerfix', ['seed', 'headerPrefix', 'apiVersion']) // 'headerPrefix'
 * closestName('colour', ['seed', 'faults']) // undefined
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase())
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return best
}

/** Levenshtein distance, two rows at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost)
    }
    previous = current
  }
  return previous[b.length] as number
}
