import { cpus, loadavg } from 'node:os'
import fc from 'fast-check'
import { LEGACY_USAGE_WORKLOAD, program, referenceUsageReporter, runProgram, usageStep } from '../src/harness/index.js'
import { SETUP_CUSTOMERS } from '../src/harness/run/setup.js'
import { createSimulator } from '../src/index.js'
import { rateFigure, writeBenchReport } from './lib/bench-report.js'

// 1. fork() of a simulator holding 100,000 objects (customers of the engine, with their events).
const quick = process.env.BENCH_QUICK === '1'
const N = quick ? 10_000 : 100_000
const big = createSimulator({ seed: 1, limits: false })
const scope = { account: big.platform.id, mode: 'test' as const }
const origin = { requestId: null, idempotencyKey: null }
for (let i = 0; i < N; i++) big.service.customers.create(scope, { name: `c${i}` }, origin)
const forkMs: number[] = []
for (let i = 0; i < 7; i++) {
  const t = performance.now()
  big.fork()
  forkMs.push(performance.now() - t)
}
forkMs.sort((a, b) => a - b)
const medianFork = forkMs[3] ?? 0
const tj = performance.now()
const json = JSON.stringify(big.snapshot())
const snapshotMs = performance.now() - tj
const tl = performance.now()
createSimulator({ from: JSON.parse(json) })
const loadMs = performance.now() - tl

// 2. Property runs of the standard usage scenario (the one bench/property-runs.bench.ts measures:
// 50 commands of the legacy usage workload, realistic faults, the reference reporter), each on a
// fresh simulator (`fork: false`: build, the scenario's setup through sim.fetch, go on with the
// program's seed and faults) vs a fork of the one prepared simulator (`sim.fork(next)`). Both
// arms run the same programs to the same trace hash: only how the starting simulator is obtained
// differs. Paired rounds, alternating which arm goes first, against the shared machine's noise.
const programs = fc.sample(
  program({ step: usageStep(LEGACY_USAGE_WORKLOAD), maxSteps: 50, maxFaults: 0 }).map((p) => ({
    ...p,
    steps: [...p.steps, ...fc.sample(usageStep(LEGACY_USAGE_WORKLOAD), { numRuns: 50, seed: p.seed })].slice(0, 50),
  })),
  { numRuns: 64, seed: 2026 },
)
const faults = { preset: 'realistic' as const }
const freshOptions = { reporter: referenceUsageReporter, faults, fork: false }
const forkOptions = { reporter: referenceUsageReporter, faults }
let violations = 0
for (const p of programs.slice(0, 4)) {
  const a = await runProgram(p, freshOptions)
  const b = await runProgram(p, forkOptions)
  if (a.traceHash !== b.traceHash) throw new Error(`snapshot-fork bench: program seed ${p.seed} hashes differently with fork`)
}
/** Wall ms and process CPU ms of `runs` runs (CPU time moves less with the other processes' load). */
async function arm(options: typeof forkOptions, from: number, runs: number): Promise<{ wall: number; cpu: number }> {
  const c = process.cpuUsage()
  const t = performance.now()
  for (let k = 0; k < runs; k++) {
    const p = programs[(from + k) % programs.length] as (typeof programs)[number]
    violations += (await runProgram(p, options)).violations.length
  }
  const u = process.cpuUsage(c)
  return { wall: performance.now() - t, cpu: (u.user + u.system) / 1000 }
}
const ROUNDS = quick ? 4 : 16
const RUNS = quick ? 16 : 64
const rounds: { freshMs: number; forkMs: number; freshCpu: number; forkCpu: number; ratio: number }[] = []
for (let r = 0; r < ROUNDS; r++) {
  let a: { wall: number; cpu: number }
  let b: { wall: number; cpu: number }
  if (r % 2 === 0) {
    a = await arm(freshOptions, r * RUNS, RUNS)
    b = await arm(forkOptions, r * RUNS, RUNS)
  } else {
    b = await arm(forkOptions, r * RUNS, RUNS)
    a = await arm(freshOptions, r * RUNS, RUNS)
  }
  rounds.push({ freshMs: a.wall, forkMs: b.wall, freshCpu: a.cpu, forkCpu: b.cpu, ratio: a.wall / b.wall })
}
const totalFresh = rounds.reduce((a, r) => a + r.freshMs, 0)
const totalFork = rounds.reduce((a, r) => a + r.forkMs, 0)
const cpuFresh = rounds.reduce((a, r) => a + r.freshCpu, 0) / (ROUNDS * RUNS)
const cpuFork = rounds.reduce((a, r) => a + r.forkCpu, 0) / (ROUNDS * RUNS)
const fresh = (ROUNDS * RUNS * 1000) / totalFresh
const forked = (ROUNDS * RUNS * 1000) / totalFork
const sortedRatios = rounds.map((r) => r.ratio).sort((a, b) => a - b)
const TARGET = 1.5
const figures = [
  rateFigure(`fork() at ${N} objects`, 1000 / medianFork, 'forks/s', { name: 'target 50 ms', value: 20 }, 1),
  rateFigure('property runs, fork vs fresh simulator', forked, 'runs/s', { name: 'fresh simulator', value: fresh }, TARGET),
  rateFigure('property runs, fresh simulator', fresh, 'runs/s'),
]
const ratio = forked / fresh
console.table([
  { figure: `fork() median, ${N} objects`, value: `${medianFork.toFixed(1)} ms` },
  { figure: 'snapshot() + JSON.stringify', value: `${snapshotMs.toFixed(0)} ms (${(json.length / 1e6).toFixed(1)} MB)` },
  { figure: 'JSON.parse + createSimulator({ from })', value: `${loadMs.toFixed(0)} ms` },
  { figure: 'property runs/s, fresh', value: fresh.toFixed(1) },
  { figure: 'property runs/s, fork', value: forked.toFixed(1) },
  {
    figure: `ratio fork/fresh (target >= ${TARGET}x)`,
    value: `x${ratio.toFixed(2)} (rounds ${sortedRatios[0]?.toFixed(2)}-${sortedRatios.at(-1)?.toFixed(2)})`,
  },
])
writeBenchReport('snapshot-fork', figures, [
  `fork() times (ms, 7 runs) at ${N} objects: ${forkMs.map((x) => x.toFixed(1)).join(', ')}.`,
  `snapshot() + JSON.stringify: ${snapshotMs.toFixed(0)} ms, ${(json.length / 1e6).toFixed(1)} MB; JSON.parse + load: ${loadMs.toFixed(0)} ms.`,
  `Property runs: the standard usage scenario (50 commands of the legacy usage workload, realistic faults, the reference reporter, 4 h drain, history checks); each run starts from the scenario's setup (a meter, a metered price on it, ${SETUP_CUSTOMERS} customers each with a card and a subscription to that price, a destination for meter error reports with a signature-checking receiver, all through sim.fetch: src/harness/run/setup.ts). Fresh: build + that setup + go on with the program's seed and faults; fork: the prepared simulator's fork(next). Same programs, same trace hashes (checked before timing).`,
  `${ROUNDS} paired rounds of ${RUNS} runs per arm, alternating which arm goes first: ratio x${ratio.toFixed(3)} over all rounds; per round ${sortedRatios.map((x) => x.toFixed(2)).join(', ')}. Violations over all runs: ${violations}.`,
  `Process CPU time per run (less moved by other processes than wall time): fresh ${cpuFresh.toFixed(2)} ms, fork ${cpuFork.toFixed(2)} ms, x${(cpuFresh / cpuFork).toFixed(2)}.`,
  `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores.`,
])
