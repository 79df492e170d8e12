import type { Figure } from './bench-report.js'

/** One defended ratio: `floor` for higher-is-better ratios, `ceiling` for lower-is-better ones. */
export interface Threshold {
  better: 'higher' | 'lower'
  floor?: number
  ceiling?: number
  /** The ratio measured when the threshold was written, for the reader. */
  recorded: number
}

/** `bench/thresholds.json`: ratios keyed `<bench>/<figure name>`. */
export interface Thresholds {
  note?: string
  /** Fraction a ratio may move against its sense before it counts as a regression. */
  margin: number
  ratios: Record<string, Threshold>
}

interface Named {
  name: string
  figures: Figure[]
}

/** Ratios are compared, never absolute times: a slower or busier machine moves both sides. */
const MARGIN = 0.35

/**
 * Thresholds from a run's ratios, with the noise margin (35%: the 2-core machine is shared, and
 * repeated runs of the same tree moved single ratios by up to about a quarter).
 *
 * @example
 * writeFileSync('bench/thresholds.json', JSON.stringify(thresholdsFrom(results), null, 2))
 */
export function thresholdsFrom(results: Named[], margin = MARGIN): Thresholds {
  const ratios: Record<string, Threshold> = {}
  for (const r of results) {
    for (const f of r.figures) {
      if (f.ratio === undefined || !Number.isFinite(f.ratio)) continue
      // A ratio to a fixed number (a target) is an absolute figure in disguise: it moves with the machine.
      if (f.baseline?.name.startsWith('target')) continue
      const better = f.better ?? 'higher'
      const recorded = Math.round(f.ratio * 1000) / 1000
      ratios[`${r.name}/${f.name}`] =
        better === 'higher'
          ? { better, floor: Math.round(f.ratio * (1 - margin) * 1000) / 1000, recorded }
          : { better, ceiling: Math.round(f.ratio * (1 + margin) * 1000) / 1000, recorded }
    }
  }
  return {
    note: 'Written by `npx tsx bench/run.ts --update-thresholds` from a full run; floors/ceilings are the recorded ratio moved by `margin` against its sense. Only ratios are defended.',
    margin,
    ratios,
  }
}

/**
 * Compares every thresholded ratio of a run; a missing figure counts as a regression (a bench
 * that stopped measuring is not a pass).
 *
 * @example
 * const { regressions, lines } = checkRatios(results, thresholds)
 */
export function checkRatios(results: Named[], thresholds: Thresholds): { regressions: number; checked: number; lines: string[] } {
  const byKey = new Map<string, Figure>()
  for (const r of results) for (const f of r.figures) byKey.set(`${r.name}/${f.name}`, f)
  const lines: string[] = []
  let regressions = 0
  let checked = 0
  for (const [key, t] of Object.entries(thresholds.ratios)) {
    const f = byKey.get(key)
    checked++
    if (f?.ratio === undefined) {
      regressions++
      lines.push(`REGRESSION ${key}: no ratio in this run`)
      continue
    }
    const bad = t.better === 'higher' ? f.ratio < (t.floor ?? 0) : f.ratio > (t.ceiling ?? Number.POSITIVE_INFINITY)
    const bound = t.better === 'higher' ? `floor ${t.floor}` : `ceiling ${t.ceiling}`
    if (bad) regressions++
    lines.push(`${bad ? 'REGRESSION' : 'ok'} ${key}: ${f.ratio.toFixed(3)} (${bound}, recorded ${t.recorded})`)
  }
  return { regressions, checked, lines }
}
