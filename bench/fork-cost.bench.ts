import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as current from '../src/harness/index.js'
import { preparedFor } from '../src/harness/run/prepared-runs.js'
import { baselineTree } from './lib/baseline-tree.js'
import { rateFigure, writeBenchReport } from './lib/bench-report.js'

// The per-run cost a property run pays before its first step: forking the prepared setup of the
// standard usage scenario (meter, price, subscribed customers, destinations) and going on with the
// run's seed and realistic faults (`sim.fork(next)`), as `runProgram` does. Measured side by side
// with the tree before the property-run speed work, in CPU time (less moved by a shared machine's
// load than the wall clock), in paired rounds alternating which tree goes first.
const BASELINE_REV = process.env.PROPERTY_RUNS_BASELINE ?? '0a504a2'
const quick = process.env.BENCH_QUICK === '1'

interface Tree {
  readonly harness: typeof current
  readonly preparedFor: typeof preparedFor
}
const dir = baselineTree(BASELINE_REV)
const base: Tree = {
  harness: (await import(pathToFileURL(join(dir, 'src/harness/index.ts')).href)) as typeof current,
  preparedFor: (
    (await import(pathToFileURL(join(dir, 'src/harness/run/prepared-runs.ts')).href)) as { preparedFor: typeof preparedFor }
  ).preparedFor,
}
const arms = await Promise.all(
  [
    { name: 'current', tree: { harness: current, preparedFor } as Tree },
    { name: 'baseline', tree: base },
  ].map(async ({ name, tree }) => {
    const start = await tree.preparedFor({ faults: { preset: 'realistic' }, reporter: tree.harness.referenceUsageReporter })
    let seed = 0
    return { name, fork: () => start.sim.fork({ seed: seed++, faults: { preset: 'realistic', schedule: [] } }) }
  }),
)

// A fork is dropped at once; yielding now and then lets each batch be collected as a run's would
// (a simulator is held until the end of the job that made it).
const tick = () => new Promise((resolve) => setImmediate(resolve))

/** Process CPU microseconds per fork over `n` forks of one tree. */
async function cpuPerFork(arm: (typeof arms)[number], n: number): Promise<number> {
  const c = process.cpuUsage()
  for (let k = 0; k < n; k++) {
    arm.fork()
    if (k % 10 === 9) await tick()
  }
  const u = process.cpuUsage(c)
  return (u.user + u.system) / n
}

const ROUNDS = quick ? 4 : 16
const FORKS = quick ? 100 : 400
for (const arm of arms) await cpuPerFork(arm, FORKS)
const totals = [0, 0]
const perRound: number[] = []
for (let r = 0; r < ROUNDS; r++) {
  const out = [0, 0]
  for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) out[i] = await cpuPerFork(arms[i] as (typeof arms)[number], FORKS)
  totals[0] = (totals[0] ?? 0) + (out[0] ?? 0)
  totals[1] = (totals[1] ?? 0) + (out[1] ?? 0)
  perRound.push((out[1] ?? 0) / (out[0] ?? 1))
}
const us = (totals[0] ?? 0) / ROUNDS
const baseUs = (totals[1] ?? 0) / ROUNDS
const figures = [
  rateFigure('fork of the prepared usage setup (CPU) vs the baseline tree', 1e6 / us, 'forks/s', {
    name: `tree at ${BASELINE_REV}`,
    value: 1e6 / baseUs,
  }),
]
console.table(figures.map((f) => ({ figure: f.name, value: f.value.toFixed(1), ratio: f.ratio?.toFixed(2) ?? '' })))
writeBenchReport('fork-cost', figures, [
  `CPU per fork: ${us.toFixed(0)} us here, ${baseUs.toFixed(0)} us at ${BASELINE_REV}; per round ratios ${perRound
    .sort((a, b) => a - b)
    .map((x) => x.toFixed(2))
    .join(', ')}.`,
  'A fork = sim.fork({ seed, faults: { preset: realistic } }) of the prepared setup of the standard usage scenario (what runProgram pays per run before its first step).',
  `${ROUNDS} paired rounds of ${FORKS} forks per tree, alternating which goes first.`,
  `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores (the machine is shared; figures move with it).`,
])
