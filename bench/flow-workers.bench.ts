/**
 * A property's runs on worker threads: `checkSubscriptionMirror` and `checkDunning` with their
 * reference clients (passing: every run is made), `workers: 2` against one thread, in one process,
 * in alternating rounds; the ratio of the round with the median ratio is kept. The worker thread is
 * started by a warm-up check first (its start, importing the harness in a fresh thread, is printed
 * apart: a suite pays it once, the threads serve every later check).
 *
 * Run: npx tsx bench/flow-workers.bench.ts
 */
import { cpus, loadavg } from 'node:os'
import {
  checkDunning,
  checkSubscriptionMirror,
  referenceDunningClient,
  referenceSubscriptionMirror,
} from '../src/harness/index.js'
import { type Figure, rateFigure, writeBenchReport } from './lib/bench-report.js'

const QUICK = process.env.BENCH_QUICK === '1'
const RUNS = QUICK ? 30 : 120
const ROUNDS = QUICK ? 1 : 3

type Check = (workers: number | undefined, numRuns: number) => Promise<{ ok: boolean; numRuns: number }>
const checks: Record<string, Check> = {
  'subscription mirror': (workers, numRuns) =>
    checkSubscriptionMirror(referenceSubscriptionMirror, { numRuns, seed: 2026, ...(workers ? { workers } : {}) }),
  dunning: (workers, numRuns) => checkDunning(referenceDunningClient, { numRuns, seed: 2026, ...(workers ? { workers } : {}) }),
}

async function rate(check: Check, workers: number | undefined): Promise<number> {
  const t0 = performance.now()
  const result = await check(workers, RUNS)
  if (!result.ok || result.numRuns !== RUNS) throw new Error(`the reference failed or stopped early: ${JSON.stringify(result)}`)
  return RUNS / ((performance.now() - t0) / 1000)
}

const figures: Figure[] = []
const notes: string[] = []
const loads: number[] = [loadavg()[0] ?? 0]
const t0 = performance.now()
await checks.dunning?.(2, 4)
notes.push(
  `Starting the worker thread (a warm-up check of 4 runs, from the TypeScript sources through tsx): ${Math.round(performance.now() - t0)} ms.`,
)
for (const [name, check] of Object.entries(checks)) {
  await check(undefined, 10)
  const rounds: { one: number; two: number }[] = []
  for (let r = 0; r < ROUNDS; r++) {
    const first = r % 2 === 0
    const a = await rate(check, first ? undefined : 2)
    const b = await rate(check, first ? 2 : undefined)
    rounds.push(first ? { one: a, two: b } : { one: b, two: a })
    loads.push(loadavg()[0] ?? 0)
  }
  const median = [...rounds].sort((x, y) => x.two / x.one - y.two / y.one)[Math.floor(rounds.length / 2)] as {
    one: number
    two: number
  }
  notes.push(`${name}: workers: 2 / one thread per round: ${rounds.map((r) => `${(r.two / r.one).toFixed(2)}x`).join(', ')}`)
  figures.push(rateFigure(`${name} check, one thread`, median.one, 'runs/s'))
  figures.push(rateFigure(`${name} check, workers: 2`, median.two, 'runs/s', { name: 'one thread', value: median.one }, 1.7))
}
console.table(figures.map((f) => ({ figure: f.name, value: f.value.toFixed(1), ratio: f.ratio?.toFixed(2) ?? '' })))
writeBenchReport('flow-workers', figures, [
  ...notes,
  `${RUNS} runs per check (seed 2026, the default workload), ${ROUNDS} rounds alternating which goes first; the ratio rows are the round with the median ratio.`,
  `Load average (1 min) over the bench: ${loads.map((l) => l.toFixed(1)).join(', ')} on ${cpus().length} cores. Two lanes need two free cores: on a shared machine the ratio moves with the load.`,
])
