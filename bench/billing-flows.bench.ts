import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import * as current from '../src/harness/index.js'
import { baselineTree } from './lib/baseline-tree.js'
import { rateFigure, writeBenchReport } from './lib/bench-report.js'

// Flow-property runs per second, this tree beside the baseline tree imported from a source copy in
// the same process (bench/lib/baseline-tree.ts). Each tree runs its own generation of each
// property's default workload (the programs a check runs: here with redeploys, secret rolls,
// forgeries, redeliveries and every event type, there without), the reference clients, in paired
// rounds alternating which tree goes first; a run = a fork of the prepared setup + the steps with
// 30 s of deliveries after each + 6 h final settle + the checks.
const BASELINE_REV = process.env.FLOW_RUNS_BASELINE ?? '1314b38'
const quick = process.env.BENCH_QUICK === '1'
type Harness = typeof current
const base = (await import(pathToFileURL(join(baselineTree(BASELINE_REV), 'src/harness/index.ts')).href)) as Harness

interface Property {
  readonly name: string
  workload(h: Harness): Parameters<Harness['flowProgram']>[0]
  subject(h: Harness): Parameters<Harness['runFlow']>[1]
}
const properties: readonly Property[] = [
  {
    name: 'subscription mirror',
    workload: () => ({}),
    subject: (h) => h.mirrorSubject(h.referenceSubscriptionMirror, {}, 'bench'),
  },
  { name: 'dunning', workload: (h) => h.dunningWorkload(), subject: (h) => h.dunningSubject(h.referenceDunningClient, 'bench') },
  {
    name: 'fulfilment',
    workload: (h) => h.fulfilmentWorkload(h.fulfilmentPayments.length),
    subject: (h) => h.fulfilmentSubject(h.referenceFulfilmentClient, 'bench'),
  },
]

const RUNS = quick ? 8 : 24
const ROUNDS = quick ? 2 : 5
let violations = 0

/** Process CPU ms of `runs` runs of one tree's programs from `from`. */
async function timeArm(h: Harness, p: Property, programs: readonly unknown[], from: number): Promise<number> {
  const c = process.cpuUsage()
  for (let k = 0; k < RUNS; k++)
    violations += (await h.runFlow(programs[(from + k) % programs.length] as never, p.subject(h))).violations.length
  const u = process.cpuUsage(c)
  return (u.user + u.system) / 1000
}

const figures = []
for (const p of properties) {
  const arms = [
    { name: 'current', h: current, programs: fc.sample(current.flowProgram(p.workload(current)), { numRuns: 200, seed: 2026 }) },
    { name: 'baseline', h: base, programs: fc.sample(base.flowProgram(p.workload(base) as never), { numRuns: 200, seed: 2026 }) },
  ] as const
  for (const arm of arms) await timeArm(arm.h, p, arm.programs, 100)
  const cpu = { current: 0, baseline: 0 }
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? arms : ([arms[1], arms[0]] as const)
    for (const arm of order) cpu[arm.name] += await timeArm(arm.h, p, arm.programs, r * RUNS)
  }
  const hz = (ms: number) => (ROUNDS * RUNS) / (ms / 1000)
  figures.push(
    rateFigure(`${p.name} flow runs per CPU second (reference)`, hz(cpu.current), 'runs/s', {
      name: `baseline ${BASELINE_REV}`,
      value: hz(cpu.baseline),
    }),
  )
}
console.table(
  figures.map((f) => ({
    figure: f.name,
    value: f.value.toFixed(1),
    baseline: f.baseline?.value.toFixed(1),
    ratio: f.ratio?.toFixed(2),
  })),
)
writeBenchReport('billing-flows', figures, [
  `Violations over all measured runs of this tree: ${violations} (the references must have none).`,
  `${ROUNDS} paired rounds of ${RUNS} runs per tree and property, alternating which tree goes first, after a warm-up round each; process CPU time (the machine is shared, wall time moves with the load).`,
  "Each tree runs its own generation of the property's default workload from seed 2026: this tree's programs also redeploy the app, roll its secret, forge and redeliver deliveries, and send every event type (`*`).",
  `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores.`,
])
