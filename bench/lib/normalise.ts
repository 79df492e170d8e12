import type { Figure } from './bench-report.js'

type Doc = Record<string, any>

/**
 * A bench's own report as figures for latest.json: reports written with `writeBenchReport` pass
 * through; the stream-ingestion and admission benches keep their richer shapes, read here.
 *
 * @example
 * const { figures, notes } = normalise('admission', JSON.parse(readFileSync('reports/bench/admission.json', 'utf8')))
 */
export function normalise(name: string, doc: Doc): { figures: Figure[]; notes: string[] } {
  if (Array.isArray(doc.figures)) return { figures: doc.figures as Figure[], notes: (doc.notes as string[]) ?? [] }
  if (name === 'stream-ingestion') return stream(doc)
  if (name === 'admission') return admission(doc)
  return { figures: [], notes: [`report of ${name} has no figures this runner can read`] }
}

function stream(doc: Doc): { figures: Figure[]; notes: string[] } {
  const [base, sim] = doc.part1.rows as { task: string; events_per_second: number; mean_us_per_request: number }[]
  const p2 = doc.part2
  const figures: Figure[] = []
  if (base && sim) {
    const ratio = sim.events_per_second / base.events_per_second
    figures.push(
      { name: 'stream ingestion: limit (JSON.parse + Map.set)', value: base.events_per_second, unit: 'events/s' },
      {
        name: 'stream ingestion: sim.fetch, processing included',
        value: sim.events_per_second,
        unit: 'events/s',
        baseline: { name: 'JSON.parse + Map.set', value: base.events_per_second },
        ratio,
        target: '>= 0.5x',
        pass: ratio >= 0.5,
      },
    )
  }
  const slices = (p2.slices ?? []) as { us_per_request: number }[]
  if (slices.length >= 4) {
    // Cost per request once the index holds ~1M identifiers (the turnover slices) against the
    // first slices (nearly empty index), skipping the very first (JIT warm-up).
    const avg = (xs: { us_per_request: number }[]) => xs.reduce((a, s) => a + s.us_per_request, 0) / xs.length
    const early = avg(slices.slice(1, 4))
    const late = avg(slices.slice(-3))
    figures.push({
      name: 'stream cost per request, ~1M identifiers against a nearly empty index',
      value: late,
      unit: 'µs/request',
      baseline: { name: 'index of 100k-300k', value: early },
      ratio: late / early,
      better: 'lower',
      target: '<= 1.2x',
      pass: late / early <= 1.2,
    })
  }
  const perMillion = (p2.heapAfter1M - p2.heapStart) / (p2.identifiersAfter1M / 1e6)
  figures.push(
    { name: 'heap per million events in the 24 h dedup window', value: perMillion, unit: 'MB' },
    {
      name: 'heap after the dedup window expired',
      value: p2.heapAfterWindow - p2.heapStart,
      unit: 'MB above start',
    },
  )
  return {
    figures,
    notes: [
      `stream ingestion: ratio is the median of ${doc.part1.ratios?.length ?? '?'} alternating rounds (${(doc.part1.ratios ?? []).join(', ')}).`,
      `heap: start ${p2.heapStart} MB, after 1M events ${p2.heapAfter1M} MB (${p2.identifiersAfter1M} identifiers), after the window ${p2.heapAfterWindow} MB (${p2.identifiersAfterWindow} identifiers); traceLimit 1000 keeps the trace out of these figures.`,
      'Full tables: reports/bench/stream-ingestion.md.',
    ],
  }
}

function admission(doc: Doc): { figures: Figure[]; notes: string[] } {
  const p = doc.pooled
  return {
    figures: [
      { name: 'sim.fetch, limits: false', value: p.baseline_us_per_request, unit: 'µs/request' },
      {
        name: 'sim.fetch with the default limits',
        value: p.limited_us_per_request,
        unit: 'µs/request',
        baseline: { name: 'limits: false', value: p.baseline_us_per_request },
        ratio: p.ratio,
        better: 'lower',
        target: '< 1.10x',
        pass: p.ratio < 1.1,
      },
      {
        name: 'gates only (limiter + locks), share of a request',
        value: doc.gates_only_percent_of_baseline,
        unit: '%',
        target: '< 10%',
        pass: doc.gates_only_percent_of_baseline < 10,
      },
    ],
    notes: [
      `admission: ${doc.rounds} alternating rounds, median round ratio ${doc.median_round_ratio}. Full table: reports/bench/admission.md.`,
    ],
  }
}
