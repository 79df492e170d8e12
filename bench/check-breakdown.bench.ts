import { createHmac } from 'node:crypto'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import type * as current from '../src/harness/index.js'
import { baselineTree } from './lib/baseline-tree.js'
import { type Figure, writeBenchReport } from './lib/bench-report.js'

// Where a run of the ready-made mirror, dunning and fulfilment checks spends its CPU time, on each
// tree's own workload (its generator, default workload, rules and reference client, as a user runs
// `checkSubscriptionMirror`, `checkDunning` and `checkFulfilment`): this tree, the tree this round started from, and the
// issue's baseline (1314b38), in one process. Per run: generation, the fork, each step kind (its
// action, its 30 s of deliveries and the checkpoint; a run's first step also pays the fork and the
// app's start), the final 6 h settle, the checks; beside them what the service did per run
// (events, delivery attempts, API requests), which is what the time follows. Beside them, the
// physical floor of this tree's deliveries alone: what receiving the same signed bodies costs at the
// least (a Request, the app's JSON.parse, the sender's JSON.stringify, every HMAC of the header and
// the app's own, a Response), against a tenth of the baseline's run (the single-thread target).
const quick = process.env.BENCH_QUICK === '1'
const RUNS = quick ? 40 : 150
const SEED = 7
type Harness = typeof current
const REVS = [process.env.CHECK_BREAKDOWN_BEFORE ?? 'f2edc86', process.env.CHECK_BREAKDOWN_BASELINE ?? '1314b38']
const root = (rev: string) => pathToFileURL(join(baselineTree(rev), 'src/')).href
const trees: { name: string; src: string }[] = [
  { name: 'this tree', src: new URL('../src/', import.meta.url).href },
  ...REVS.map((rev) => ({ name: `tree at ${rev}`, src: root(rev) })),
]

type Kind = 'mirror' | 'dunning' | 'fulfilment'
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
  // The baseline's mirror check ran the default workload (it had no mirror workload of its own).
  if (kind === 'mirror') return (h as Partial<Harness>).mirrorWorkload?.() ?? {}
  return kind === 'dunning' ? h.dunningWorkload() : h.fulfilmentWorkload(h.fulfilmentPayments.length)
}

function subjectOf(h: Harness, kind: Kind): current.FlowSubject {
  if (kind === 'mirror') return h.mirrorSubject(h.referenceSubscriptionMirror, {}, 'bench')
  return kind === 'dunning'
    ? h.dunningSubject(h.referenceDunningClient, 'bench')
    : h.fulfilmentSubject(h.referenceFulfilmentClient, 'bench', {})
}

/** What a run's app received: each delivery's body, URL and signature header. */
interface Received {
  readonly body: string
  readonly url: string
  readonly signature: string
}

/** Runs the programs once more on this tree with an app that copies what it receives. */
async function received(h: Harness, kind: Kind, programs: readonly current.FlowProgram[]): Promise<Received[]> {
  const out: Received[] = []
  for (const p of programs) {
    const subject = subjectOf(h, kind)
    await h.runFlow(p, {
      ...subject,
      start(run) {
        const app = subject.start(run)
        return {
          async handler(req: Request) {
            const signature = req.headers.get(`${run.env.prefix}-Signature`) ?? ''
            out.push({ body: await req.clone().text(), url: req.url, signature })
            return app.handler(req)
          },
        }
      },
    })
  }
  return out
}

/**
 * CPU ms per run of the least that these deliveries and API requests cost. A delivery: the Request,
 * the sender's JSON.stringify and HMACs (one per `v0`/`v1` in the header), the app's HMAC and
 * JSON.parse, the Response. An API request (the delivered objects standing for the objects the API
 * answers with, in turn): the Request, the service's JSON.stringify, the Response, the client's
 * JSON.parse. The median of three passes after three warm-up passes.
 */
function runFloor(got: readonly Received[], runs: number, requestsPerRun: number): number {
  const requests = Math.round(requestsPerRun * runs)
  const pass = () => {
    const t = cpuMs()
    for (let i = 0; i < requests && got.length > 0; i++) {
      const r = got[i % got.length] as Received
      new Request(r.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b' })
      const text = JSON.stringify(JSON.parse(r.body), null, 2)
      new Response(text)
      JSON.parse(text)
    }
    for (const r of got) {
      const body = JSON.stringify(JSON.parse(r.body), null, 2)
      const macs = r.signature.split(',').filter((x) => /^v[01]=/.test(x)).length + 1
      for (let k = 0; k < macs; k++) createHmac('sha256', 'whsec_floor').update('1700000000.').update(body).digest('hex')
      const headers = { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': r.signature }
      new Request(r.url, { method: 'POST', headers, body })
      new Response('ok')
    }
    return (cpuMs() - t) / runs
  }
  for (let i = 0; i < 3; i++) pass()
  return [pass(), pass(), pass()].sort((a, b) => a - b)[1] ?? 0
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
for (const kind of ['mirror', 'dunning', 'fulfilment'] as const) {
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
  const h = loaded[0]?.h as Harness
  const got = await received(h, kind, fc.sample(h.flowProgram(workloadOf(h, kind)), { numRuns: RUNS, seed: SEED }))
  const requests = rows.get('this tree')?.['http per run'] ?? 0
  const floor = runFloor(got, RUNS, requests)
  figures.push({
    name: `${kind}: the least its ${(got.length / RUNS).toFixed(1)} deliveries and ${requests.toFixed(1)} API requests per run cost`,
    value: floor,
    unit: 'ms/run',
    baseline: { name: `a tenth of the run at ${REVS[1]} (the 10x target)`, value: base / 10 },
    ratio: base / 10 / floor,
  })
}
notes.push(
  `${RUNS} programs per tree and property (each tree's own generator, seed ${SEED}), run once each after 20 warm-up runs, in two passes (the trees in turn, then in reverse order), averaged; the ratio is the baseline's CPU per run over this tree's. The mirror's baseline runs the default workload (it had no mirror workload).`,
  "The floor rows: this tree's deliveries to the app, received once more and then redone bare (a Request of the same body and header, JSON.parse, JSON.stringify, one HMAC-SHA256 per signature in the header and the app's own, a Response), and as many bare API exchanges as the run made (a Request, JSON.stringify of a delivered object, a Response, JSON.parse): the least a run costs before any routing, billing, scheduling or app logic. A ratio below 1 means a tenth of the baseline's run is below that floor.",
  `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores (the machine is shared).`,
)
writeBenchReport('check-breakdown', figures, notes)
