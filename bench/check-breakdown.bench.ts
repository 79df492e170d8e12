import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import type * as current from '../src/harness/index.js'
import { baselineTree } from './lib/baseline-tree.js'
import { type Figure, writeBenchReport } from './lib/bench-report.js'

// Where a run of the ready-made dunning and fulfilment checks spends its CPU time, on each tree's
// own workload (its generator, default workload, rules and reference client, as a user runs
// `checkDunning` and `checkFulfilment`): this tree, the tree this round started from, and the
// issue's baseline (1314b38), in one process. Per run: generation, the fork, each step kind (its
// action, its 30 s of deliveries and the checkpoint; a run's first step also pays the fork and the
// app's start), the final 6 h settle, the checks; beside them what the service did per run
// (events, delivery attempts, API requests), which is what the time follows.
const quick = process.env.BENCH_QUICK === '1'
const RUNS = quick ? 40 : 150
const SEED = 7
type Harness = typeof current
const REVS = [process.env.CHECK_BREAKDOWN_BEFORE ?? 'c227156', process.env.CHECK_BREAKDOWN_BASELINE ?? '1314b38']
const root = (rev: string) => pathToFileURL(join(baselineTree(rev), 'src/')).href
const trees: { name: string; src: string }[] = [
  { name: 'this tree', src: new URL('../src/', import.meta.url).href },
  ...REVS.map((rev) => ({ name: `tree at ${rev}`, src: root(rev) })),
]

type Kind = 'dunning' | 'fulfilment'
interface Tree {
  readonly name: string
  readonly h: Harness
  readonly fork: (kind: Kind) => Promise<number>
}

function cpuMs(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

function workloadOf(h: Harness, kind: Kind): current.FlowWorkload {
  return kind === 'dunning' ? h.dunningWorkload() : h.fulfilmentWorkload(h.fulfilmentPayments.length)
}

function subjectOf(h: Harness, kind: Kind): current.FlowSubject {
  return kind === 'dunning'
    ? h.dunningSubject(h.referenceDunningClient, 'bench')
    : h.fulfilmentSubject(h.referenceFulfilmentClient, 'bench', {})
}

/** CPU ms of one fork of the prepared flow setup (the run's starting point), over many. */
async function forkCost(src: string): Promise<number> {
  const setup = (await import(`${src}harness/flows/flow-setup.ts`)) as {
    preparedFlow: (c: object) => Promise<{ sim: { fork: (o: object) => unknown } }>
  }
  const prepared = await setup.preparedFlow({})
  const fork = (i: number) => prepared.sim.fork({ seed: i, faults: { schedule: [] } })
  for (let i = 0; i < 50; i++) fork(i)
  const t = cpuMs()
  for (let i = 0; i < 300; i++) fork(i)
  return (cpuMs() - t) / 300
}

interface Breakdown {
  generation: number
  total: number
  fork: number
  steps: Map<string, { ms: number; n: number }>
  finalSettle: number
  checks: number
  stepsPerRun: number
  counts: Map<string, number>
}

const COUNTED = ['event.emitted', 'delivery.attempt', 'http', 'harness.flow.ack']

/** Runs each program once, timing its parts; the per-run means. */
async function breakdown(tree: Tree, kind: Kind): Promise<Breakdown> {
  const { h } = tree
  fc.sample(h.flowProgram(workloadOf(h, kind)), { numRuns: 20, seed: SEED + 1 })
  const g0 = cpuMs()
  const programs = fc.sample(h.flowProgram(workloadOf(h, kind)), { numRuns: RUNS, seed: SEED })
  const generation = (cpuMs() - g0) / RUNS
  for (const p of programs.slice(0, 20)) await h.runFlow(p, subjectOf(h, kind))
  const out: Breakdown = {
    generation,
    total: 0,
    fork: await tree.fork(kind),
    steps: new Map(),
    finalSettle: 0,
    checks: 0,
    stepsPerRun: 0,
    counts: new Map(),
  }
  for (const p of programs) {
    let last = cpuMs()
    let traced = 0
    const t0 = last
    await h.runFlow(p, subjectOf(h, kind), {
      onStep: (record: { kind: string }) => {
        const t = cpuMs()
        const s = out.steps.get(record.kind) ?? { ms: 0, n: 0 }
        s.ms += t - last
        s.n++
        out.steps.set(record.kind, s)
        out.stepsPerRun++
        last = t
      },
      onTrace: (entries: readonly { kind: string }[]) => {
        traced = cpuMs()
        for (const e of entries) if (COUNTED.includes(e.kind)) out.counts.set(e.kind, (out.counts.get(e.kind) ?? 0) + 1)
      },
    })
    const t1 = cpuMs()
    out.total += t1 - t0
    out.finalSettle += traced - last
    out.checks += t1 - traced
  }
  return out
}

function perRun(b: Breakdown): Record<string, number> {
  const n = RUNS
  const row: Record<string, number> = {
    'run (CPU ms)': b.total / n,
    generation: b.generation,
    'fork (in the first step)': b.fork,
  }
  for (const [k, v] of [...b.steps].sort((x, y) => y[1].ms - x[1].ms)) row[`step ${k}`] = v.ms / n
  row['final 6 h settle'] = b.finalSettle / n
  row['checks and rules'] = b.checks / n
  row['steps per run'] = b.stepsPerRun / n
  for (const k of COUNTED) row[`${k} per run`] = (b.counts.get(k) ?? 0) / n
  return row
}

const loaded: Tree[] = []
for (const t of trees) {
  const h = (await import(`${t.src}harness/index.ts`)) as Harness
  const fork = await forkCost(t.src)
  loaded.push({ name: t.name, h, fork: () => Promise.resolve(fork) })
}
const figures: Figure[] = []
const notes: string[] = []
for (const kind of ['dunning', 'fulfilment'] as const) {
  // Two passes, the trees in turn order and then reversed, so no tree always runs on a JIT the
  // others warmed; a figure is the mean of its two passes.
  const rows = new Map<string, Record<string, number>>()
  for (const order of [loaded, [...loaded].reverse()])
    for (const tree of order) {
      const pass = perRun(await breakdown(tree, kind))
      const seen = rows.get(tree.name)
      rows.set(
        tree.name,
        seen === undefined ? pass : Object.fromEntries(Object.entries(pass).map(([k, v]) => [k, ((seen[k] ?? v) + v) / 2])),
      )
    }
  const keys = [...new Set([...rows.values()].flatMap((r) => Object.keys(r)))]
  const table = keys.map((k) => ({
    part: k,
    ...Object.fromEntries(loaded.map((t) => [t.name, rows.get(t.name)?.[k]?.toFixed(2) ?? ''])),
  }))
  console.log(`\n${kind}`)
  console.table(table)
  notes.push(
    `${kind}, per run (CPU ms unless counted): | part | ${loaded.map((t) => t.name).join(' | ')} |`,
    ...table.map((r) => `  ${r.part}: ${loaded.map((t) => (r as Record<string, string>)[t.name]).join(' / ')}`),
  )
  const mine = rows.get('this tree')?.['run (CPU ms)'] ?? 1
  const base = rows.get(`tree at ${REVS[1]}`)?.['run (CPU ms)'] ?? 1
  figures.push({
    name: `${kind} run on its own workload, CPU ms`,
    value: mine,
    unit: 'ms/run',
    baseline: { name: `tree at ${REVS[1]}`, value: base },
    ratio: base / mine,
  })
}
notes.push(
  `${RUNS} programs per tree and property (each tree's own generator, seed ${SEED}), run once each after 20 warm-up runs, in two passes (the trees in turn, then in reverse order), averaged; the ratio is the baseline's CPU per run over this tree's.`,
  `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores (the machine is shared).`,
)
writeBenchReport('check-breakdown', figures, notes)
