import { createHmac } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { preparedFlow } from '../src/harness/flows/flow-setup.js'
import * as h from '../src/harness/index.js'
import { PriorityQueue } from '../src/kernel/priority-queue.js'
import { type Figure, writeBenchReport } from './lib/bench-report.js'
import { type PartRule, profileParts } from './lib/profile-parts.js'

// Where a billing flow run's time goes: subscription-mirror and dunning runs (the reference
// clients, the default workload), each part of a run beside the physical limit of that part
// measured in this process on the same data (JSON.stringify of the same payloads, an HMAC of the
// same bytes, a bare priority queue with the same pushes, a structured clone of the state a fork
// starts from). Two views: CPU time by phase (fork, steps, final settle, checks), timed with
// process.cpuUsage around each; and CPU time by part of the code, from V8's sampling profiler in
// this process, each sample given to the first part whose code is on its stack.
const quick = process.env.BENCH_QUICK === '1'
const RUNS = quick ? 40 : 200

type Kind = 'mirror' | 'dunning'
const subjectOf = (kind: Kind): h.FlowSubject =>
  kind === 'mirror'
    ? h.mirrorSubject(h.referenceSubscriptionMirror, {}, 'bench')
    : h.dunningSubject(h.referenceDunningClient, 'bench')

const has = (part: string) => (url: string) => url.includes(part)
const RULES: PartRule[] = [
  { name: 'garbage collection', test: (_u, fn) => fn === '(garbage collector)' },
  { name: 'fork', test: (u, fn) => u.includes('/src/simulator/') && (fn === 'fork' || u.includes('create-simulator')) },
  { name: 'signing', test: has('/events/delivery/signature') },
  { name: 'event rendering', test: has('/events/delivery/payload') },
  { name: 'checks', test: (u) => u.includes('/harness/checkers/') || /flows\/(mirror|dunning)-subject/.test(u) },
  { name: "the app's handler", test: has('/harness/reference/') },
  {
    name: 'delivery (attempts, scheduling, transport)',
    test: (u) => u.includes('/events/delivery/') || u.includes('/http/transport'),
  },
  {
    name: 'events (store, fan-out to listeners)',
    test: (u) => u.includes('/events/event-log') || u.includes('/events/event-store') || u.includes('/events/fan-out'),
  },
  {
    name: 'event rendering',
    test: (u) => u.includes('/events/snapshot-event') || u.includes('/events/thin-event') || u.includes('/domain/versions/'),
  },
  {
    name: 'billing (invoices, payments, prorations)',
    test: (u) => u.includes('/domain/billing/') || u.includes('/domain/payments/') || u.includes('/domain/ledger/'),
  },
  { name: 'API requests (HTTP pipeline, engine)', test: (u) => u.includes('/src/http/') || u.includes('/src/domain/') },
  { name: 'trace (records, hash)', test: (u) => u.includes('/kernel/trace') },
  {
    name: 'virtual time (scheduler, clock, macrotasks)',
    test: (u, fn) =>
      u.includes('/kernel/due-time') ||
      u.includes('fake-timers') ||
      u.includes('/harness/run/drive') ||
      fn === 'processImmediate',
  },
  { name: 'harness (steps, receivers, faults)', test: (u) => u.includes('/src/harness/') || u.includes('/src/faults/') },
  {
    name: 'runtime (Response streams, promise jobs)',
    test: (u, fn) => u.startsWith('node:') || fn === '(program)' || fn === 'decodeUTF8',
  },
  { name: 'idle', test: (_u, fn) => fn === '(idle)' },
  // The in-process inspector answering the profiler: not part of a run.
  { name: 'profiler', test: (u, fn) => u === '' && fn === 'dispatch' },
]

function cpuMs(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** What the limits are measured on: the bodies delivered, their signatures, the queue pushes. */
interface Captured {
  bodies: string[]
  signatures: number
  pushes: number
}

/** Runs every program once more with a receiver that copies what it got, counting queue pushes. */
async function capture(kind: Kind, programs: readonly h.FlowProgram[]): Promise<Captured> {
  const out: Captured = { bodies: [], signatures: 0, pushes: 0 }
  const proto = PriorityQueue.prototype as unknown as { push: (...a: unknown[]) => unknown }
  const push = proto.push
  proto.push = function (this: unknown, ...a: unknown[]) {
    out.pushes++
    return push.apply(this, a)
  }
  try {
    for (const p of programs) {
      const subject = subjectOf(kind)
      const wrapped: h.FlowSubject = {
        ...subject,
        start(run) {
          const client = subject.start(run)
          const prefix = run.env.prefix
          return {
            async handler(req) {
              out.bodies.push(await req.clone().text())
              const sig = req.headers.get(`${prefix}-Signature`) ?? ''
              out.signatures += sig.split(',').filter((x) => /^v[01]=/.test(x)).length
              return client.handler(req)
            },
          }
        },
      }
      await h.runFlow(p, wrapped)
    }
  } finally {
    proto.push = push
  }
  return out
}

/** CPU ms per run of each phase. */
async function phases(kind: Kind, programs: readonly h.FlowProgram[]) {
  const prepared = await preparedFlow({}, subjectOf(kind).eventTypes)
  let fork = 0
  let run = 0
  let steps = 0
  let settle = 0
  let checks = 0
  for (const p of programs) {
    const f0 = cpuMs()
    prepared.sim.fork({ seed: p.seed, faults: { schedule: [...p.faults] } })
    fork += cpuMs() - f0
    let last = 0
    let traced = 0
    const t0 = cpuMs()
    await h.runFlow(p, subjectOf(kind), {
      onStep: () => {
        last = cpuMs()
      },
      onTrace: () => {
        traced = cpuMs()
      },
    })
    const t1 = cpuMs()
    run += t1 - t0
    if (last === 0) last = t0
    steps += last - t0
    settle += traced - last
    checks += t1 - traced
  }
  const n = programs.length
  return { run: run / n, fork: fork / n, steps: (steps - fork) / n, settle: settle / n, checks: checks / n, prepared }
}

/** CPU ms per run of the physical limits, on the captured data. */
function limits(c: Captured, runs: number, snapshot: unknown) {
  const time = (f: () => void) => {
    f()
    const t = cpuMs()
    for (let i = 0; i < 5; i++) f()
    return (cpuMs() - t) / 5 / runs
  }
  const parsed = c.bodies.map((b) => JSON.parse(b) as unknown)
  const stringify = time(() => {
    for (const o of parsed) JSON.stringify(o, null, 2)
  })
  const parse = time(() => {
    for (const b of c.bodies) JSON.parse(b)
  })
  const perBody = c.bodies.length === 0 ? 0 : c.signatures / c.bodies.length
  const hmac = time(() => {
    for (const b of c.bodies)
      for (let k = 0; k < perBody; k++)
        createHmac('sha256', 'whsec_0123456789abcdef0123456789abcdef').update(`1767225600.${b}`).digest('hex')
  })
  const queue = time(() => {
    const q = new PriorityQueue<number>()
    let due = 0
    for (let i = 0; i < c.pushes; i++) {
      due = (due * 1103515245 + 12345) % 2147483648
      q.push(due, i)
      if (q.size > 64) q.pop()
    }
    while (q.pop() !== undefined);
  })
  const clone = time(() => {
    for (let i = 0; i < runs; i++) structuredClone(snapshot)
  })
  return { stringify, parse, hmac, queue, clone }
}

interface Breakdown {
  kind: Kind
  cpuPerRun: number
  parts: Map<string, number>
  phases: Awaited<ReturnType<typeof phases>>
  limit: ReturnType<typeof limits>
  captured: Captured
}

async function breakdown(kind: Kind): Promise<Breakdown> {
  const programs = fc.sample(h.flowProgram(), { numRuns: RUNS, seed: 2026 })
  for (const p of programs.slice(0, 20)) await h.runFlow(p, subjectOf(kind))
  const { parts, unmatched } = await profileParts(RULES, async () => {
    for (const p of programs) await h.runFlow(p, subjectOf(kind))
  })
  if (process.env.BREAKDOWN_DEBUG === '1')
    console.log(
      [...unmatched]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 30)
        .map(([k, v]) => `${v.toFixed(1)} ms ${k}`),
    )
  parts.delete('profiler')
  const sampled = [...parts.values()].reduce((a, b) => a + b, 0)
  // The phases are timed without the profiler: the sampled shares are scaled to that CPU time.
  const ph = await phases(kind, programs)
  const cpuPerRun = ph.run
  const perRun = new Map([...parts].map(([k, v]) => [k, (v / sampled) * cpuPerRun]))
  const captured = await capture(kind, programs)
  const limit = limits(captured, RUNS, ph.prepared.sim.snapshot())
  return { kind, cpuPerRun, parts: perRun, phases: ph, limit, captured }
}

const results: Breakdown[] = []
for (const kind of ['mirror', 'dunning'] as const) results.push(await breakdown(kind))

const figures: Figure[] = []
const LIMITS: Record<string, [string, keyof Breakdown['limit']]> = {
  'event rendering': ['JSON.stringify of the delivered payloads', 'stringify'],
  signing: ['HMAC-SHA256 of the same bytes, as many', 'hmac'],
  "the app's handler": ['JSON.parse of the delivered payloads', 'parse'],
  'delivery (attempts, scheduling, transport)': ['a bare priority queue with the same pushes', 'queue'],
  fork: ["structuredClone of the prepared setup's snapshot", 'clone'],
}
const lines: string[] = []
for (const r of results) {
  const label = r.kind === 'mirror' ? 'subscription mirror' : 'dunning'
  figures.push({ name: `${label} run (CPU)`, value: r.cpuPerRun, unit: 'ms/run' })
  lines.push(`| **${label}** | **${r.cpuPerRun.toFixed(2)}** | 100% | | |`)
  for (const [part, ms] of [...r.parts].sort((a, b) => b[1] - a[1])) {
    const lim = LIMITS[part]
    const limitMs = lim === undefined ? undefined : r.limit[lim[1]]
    const f: Figure = { name: `${label}: ${part}`, value: ms, unit: 'ms/run', better: 'lower' }
    if (lim !== undefined && limitMs !== undefined && limitMs > 0) {
      f.baseline = { name: `limit: ${lim[0]}`, value: limitMs }
      f.ratio = ms / limitMs
    }
    figures.push(f)
    lines.push(
      `| ${part} | ${ms.toFixed(3)} | ${((100 * ms) / r.cpuPerRun).toFixed(1)}% | ${
        lim === undefined || limitMs === undefined ? '' : `${lim[0]}: ${limitMs.toFixed(3)}`
      } | ${f.ratio === undefined ? '' : `${f.ratio.toFixed(1)}x`} |`,
    )
  }
  const p = r.phases
  for (const [name, ms] of [
    ['phase: fork', p.fork],
    ['phase: steps (with 30 s of deliveries after each)', p.steps],
    ['phase: final 6 h settle', p.settle],
    ['phase: checks and trace hash', p.checks],
  ] as const)
    figures.push({ name: `${label}: ${name}`, value: ms, unit: 'ms/run' })
}
console.table(figures.map((f) => ({ figure: f.name, ms: f.value.toFixed(3), limit: f.baseline?.value.toFixed(3) ?? '' })))
writeBenchReport('flow-breakdown', figures, [
  `${RUNS} generated programs per property (the default flow workload, the reference clients), after 20 warm-up runs; every figure is CPU ms per run.`,
  'Parts: V8 sampling profile (100 us) of the runs in this process; a sample goes to the first part (in the order of the rules in the bench) whose code is on its stack, so billing includes the engine writes it makes, and rendering or signing keep their samples wherever they are called from. Phases: process.cpuUsage around each phase of the same runs without the profiler.',
  ...results.map(
    (r) =>
      `${r.kind}: ${(r.captured.bodies.length / RUNS).toFixed(1)} deliveries, ${(r.captured.signatures / RUNS).toFixed(1)} signatures and ${(r.captured.pushes / RUNS).toFixed(0)} priority-queue pushes per run (what the limits are measured on).`,
  ),
  `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores (the machine is shared; figures move with it).`,
])
// The parts as one table per property, beside their limits, for reading (the figures above hold the same numbers).
appendFileSync(
  join(process.cwd(), 'reports', 'bench', 'flow-breakdown.md'),
  [
    '## Parts of a run',
    '',
    '| part | CPU ms/run | share | physical limit (ms/run) | part / limit |',
    '| --- | --- | --- | --- | --- |',
    ...lines,
    '',
  ].join('\n'),
)
