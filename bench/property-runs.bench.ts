import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import * as current from '../src/harness/index.js'
import { createSimulator } from '../src/index.js'
import { baselineTree } from './lib/baseline-tree.js'
import { rateFigure, writeBenchReport } from './lib/bench-report.js'

// The standard usage scenario: 50 commands (reports of 1-5 units, a customer per unit: the legacy
// workload shape, pinned so the figure compares across versions, and clock advances), realistic
// fault rates, the reference reporter; each run forks the prepared setup (meter, price, subscribed
// customers, destination: made once), runs, drains and checks.
//
// The baseline is the tree before the property-run speed work, imported from a source copy in the
// same process (bench/lib/baseline-tree.ts), so the ratio is measured side by side: same programs,
// same trace hashes (checked before timing), paired rounds alternating which tree goes first.
const BASELINE_REV = process.env.PROPERTY_RUNS_BASELINE ?? '0a504a2'
const quick = process.env.BENCH_QUICK === '1'
type Harness = typeof current
const base = (await import(pathToFileURL(join(baselineTree(BASELINE_REV), 'src/harness/index.ts')).href)) as Harness

function programsOf(h: Harness) {
  return fc.sample(
    h.program({ step: h.usageStep(h.LEGACY_USAGE_WORKLOAD), maxSteps: 50, maxFaults: 0 }).map((p) => ({
      ...p,
      steps: [...p.steps, ...fc.sample(h.usageStep(h.LEGACY_USAGE_WORKLOAD), { numRuns: 50, seed: p.seed })].slice(0, 50),
    })),
    { numRuns: 64, seed: 2026 },
  )
}
const arms = [
  { name: 'current', h: current, programs: programsOf(current) },
  { name: 'baseline', h: base, programs: programsOf(base) },
] as const
const options = { faults: { preset: 'realistic' as const } }
let violations = 0
for (let k = 0; k < (quick ? 4 : 16); k++) {
  const [a, b] = await Promise.all(
    arms.map((arm) => arm.h.runProgram(arm.programs[k] as never, { ...options, reporter: arm.h.referenceUsageReporter })),
  )
  if (a?.traceHash !== b?.traceHash)
    throw new Error(`property-runs bench: program ${k} hashes ${a?.traceHash} here, ${b?.traceHash} at ${BASELINE_REV}`)
}

/** Wall ms and process CPU ms of `runs` runs of one tree. */
async function timeArm(arm: (typeof arms)[number], from: number, runs: number): Promise<{ wall: number; cpu: number }> {
  const c = process.cpuUsage()
  const t = performance.now()
  for (let k = 0; k < runs; k++) {
    const p = arm.programs[(from + k) % arm.programs.length] as never
    violations += (await arm.h.runProgram(p, { ...options, reporter: arm.h.referenceUsageReporter })).violations.length
  }
  const u = process.cpuUsage(c)
  return { wall: performance.now() - t, cpu: (u.user + u.system) / 1000 }
}
const ROUNDS = quick ? 4 : 16
const RUNS = quick ? 16 : 64
// Warm both trees' JIT before the first timed round.
for (const arm of arms) await timeArm(arm, 0, RUNS)
const rounds: { cur: { wall: number; cpu: number }; bas: { wall: number; cpu: number } }[] = []
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? [0, 1] : [1, 0]
  const out: { wall: number; cpu: number }[] = []
  for (const i of order) out[i] = await timeArm(arms[i as 0 | 1], r * RUNS, RUNS)
  rounds.push({ cur: out[0] as { wall: number; cpu: number }, bas: out[1] as { wall: number; cpu: number } })
}
const sum = (f: (r: (typeof rounds)[number]) => number) => rounds.reduce((a, r) => a + f(r), 0)
const total = ROUNDS * RUNS
const runs = (total * 1000) / sum((r) => r.cur.wall)
const baseRuns = (total * 1000) / sum((r) => r.bas.wall)
const cpuRatio = sum((r) => r.bas.cpu) / sum((r) => r.cur.cpu)
const perRound = rounds.map((r) => r.bas.wall / r.cur.wall).sort((a, b) => a - b)

let sims = 0
const t0 = performance.now()
while (performance.now() - t0 < 2_000) createSimulator({ seed: sims++ })
const floor = (sims * 1000) / (performance.now() - t0)

const SPEEDUP = 1.5
const TARGET = 200
const figures = [
  rateFigure('property runs vs the baseline tree', runs, 'runs/s', { name: `tree at ${BASELINE_REV}`, value: baseRuns }, SPEEDUP),
  rateFigure('property runs (50 commands, realistic faults)', runs, 'runs/s', { name: 'target', value: TARGET }, 1),
  rateFigure('createSimulator alone', floor, 'sims/s'),
]
console.table(figures.map((f) => ({ figure: f.name, value: f.value.toFixed(1), ratio: f.ratio?.toFixed(2) ?? '' })))
writeBenchReport('property-runs', figures, [
  `Violations over all measured runs: ${violations} (the reference reporter must have none).`,
  'A run = a fork of the prepared setup (sim.fork(next)) + 50 commands through sim.fetch + 4 h virtual drain + history checks (bench/snapshot-fork.bench.ts compares it with building and setting up per run).',
  `Baseline: the tree at ${BASELINE_REV} (before the property-run speed work), imported from a source copy in this process; the same 64 programs, identical trace hashes checked on the first ${quick ? 4 : 16} before timing.`,
  `${ROUNDS} paired rounds of ${RUNS} runs per tree, alternating which goes first: wall ratio x${(runs / baseRuns).toFixed(3)} over all rounds, per round ${perRound.map((x) => x.toFixed(2)).join(', ')}; process CPU ratio x${cpuRatio.toFixed(3)}.`,
  'createSimulator alone: the service construction a fork still pays (modules and stores are closures over their state).',
  `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores (the machine is shared; figures move with it).`,
])
