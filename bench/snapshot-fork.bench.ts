import { cpus, loadavg } from 'node:os'
import fc from 'fast-check'
import { Bench } from 'tinybench'
import { program, referenceUsageReporter, runProgram, usageStep } from '../src/harness/index.js'
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

// 2. Property runs on the standard usage scenario, each on a fresh simulator vs a fork of one prepared simulator.
const programs = fc.sample(
  program({ step: usageStep(), maxSteps: 50, maxFaults: 0 }).map((p) => ({
    ...p,
    steps: [...p.steps, ...fc.sample(usageStep(), { numRuns: 50, seed: p.seed })].slice(0, 50),
  })),
  { numRuns: 64, seed: 2026 },
)
const faults = { preset: 'realistic' as const }
const base = createSimulator({ seed: 7, faults })
let i = 0
let j = 0
const bench = new Bench({ time: quick ? 500 : 4_000, warmupTime: quick ? 100 : 1_000 })
bench
  .add('property run, fresh simulator', async () => {
    const p = programs[i++ % programs.length]
    if (p !== undefined) await runProgram(p, { reporter: referenceUsageReporter, faults })
  })
  .add('property run, fork of a prepared simulator', async () => {
    const p = programs[j++ % programs.length]
    if (p !== undefined) await runProgram(p, { reporter: referenceUsageReporter, faults, base })
  })
await bench.run()
const hz = (name: string) =>
  (bench.tasks.find((t) => t.name === name)?.result as { throughput?: { mean: number } } | undefined)?.throughput?.mean ?? 0
const fresh = hz('property run, fresh simulator')
const forked = hz('property run, fork of a prepared simulator')
const figures = [
  rateFigure(`fork() at ${N} objects`, 1000 / medianFork, 'forks/s', { name: 'target 50 ms', value: 20 }, 1),
  rateFigure('property runs with fork', forked, 'runs/s', { name: 'fresh simulator', value: fresh }, 1),
  rateFigure('property runs, fresh simulator', fresh, 'runs/s'),
]
console.table([
  { figure: `fork() median, ${N} objects`, value: `${medianFork.toFixed(1)} ms` },
  { figure: 'snapshot() + JSON.stringify', value: `${snapshotMs.toFixed(0)} ms (${(json.length / 1e6).toFixed(1)} MB)` },
  { figure: 'JSON.parse + createSimulator({ from })', value: `${loadMs.toFixed(0)} ms` },
  { figure: 'property runs/s, fresh', value: fresh.toFixed(1) },
  { figure: 'property runs/s, fork', value: `${forked.toFixed(1)} (x${(forked / fresh).toFixed(2)})` },
])
writeBenchReport('snapshot-fork', figures, [
  `fork() times (ms, 7 runs) at ${N} objects: ${forkMs.map((x) => x.toFixed(1)).join(', ')}.`,
  `snapshot() + JSON.stringify: ${snapshotMs.toFixed(0)} ms, ${(json.length / 1e6).toFixed(1)} MB; JSON.parse + load: ${loadMs.toFixed(0)} ms.`,
  `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores.`,
])
