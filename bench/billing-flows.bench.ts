import { cpus, loadavg } from 'node:os'
import fc from 'fast-check'
import {
  dunningSubject,
  flowProgram,
  mirrorSubject,
  referenceDunningClient,
  referenceSubscriptionMirror,
  runFlow,
} from '../src/harness/index.js'
import { rateFigure, writeBenchReport } from './lib/bench-report.js'

// Generated billing flows (up to 12 steps, up to 4 scheduled faults of every kind, months of
// renewals), each run a fork of the prepared setup, checked by the property's checkers.
const programs = fc.sample(flowProgram(), { numRuns: 200, seed: 2026 })

async function rate(make: () => Parameters<typeof runFlow>[1]): Promise<{ hz: number; violations: number }> {
  let violations = 0
  for (const p of programs.slice(0, 20)) violations += (await runFlow(p, make())).violations.length
  const t0 = performance.now()
  for (const p of programs) violations += (await runFlow(p, make())).violations.length
  return { hz: programs.length / ((performance.now() - t0) / 1000), violations }
}

const mirror = await rate(() => mirrorSubject(referenceSubscriptionMirror, {}, 'bench'))
const dunning = await rate(() => dunningSubject(referenceDunningClient, 'bench'))
const figures = [
  rateFigure('subscription mirror flow runs (reference)', mirror.hz, 'runs/s'),
  rateFigure('dunning flow runs (reference)', dunning.hz, 'runs/s'),
]
console.table(figures.map((f) => ({ figure: f.name, value: f.value.toFixed(1) })))
writeBenchReport('billing-flows', figures, [
  `Violations over all measured runs: ${mirror.violations + dunning.violations} (the references must have none).`,
  '200 generated programs each (the default workload), after 20 warm-up runs; a run = a fork of the prepared setup + the steps with 30 s of deliveries after each + 6 h final settle + the checks.',
  `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores (the machine is shared; figures move with it).`,
])
