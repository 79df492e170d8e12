import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import fc from 'fast-check'
import {
  type FlowAction,
  type FlowProgram,
  type FlowSubject,
  flowProgram,
  fulfilmentPayments,
  fulfilmentSubject,
  fulfilmentWorkload,
  referenceFulfilmentClient,
  runFlow,
} from '../src/harness/index.js'

/**
 * Where a `checkFulfilment` run's CPU goes, step by step: the programs of its default workload
 * (seed 7) with the reference client, each step kind split into its action (the API call, the
 * customer's payment, the page, a racing page's 30 s) and the rest of the step (its deliveries and
 * settle; the run's first step also pays the fork and the app's start), run three ways in turn in
 * one process: as generated, with no program subscribing the app to every type, and with the
 * endpoint subscribed to a type the flows never make (no deliveries at all). The gap between the
 * first and the last is what the deliveries cost; what is left is the domain, the API and the
 * harness. A map of the run, not a verdict: the last two change what the app is sent.
 *
 * @example
 * // npx tsx scripts/fulfilment-split.ts --runs 100 --rounds 6 --out reports/bench/fulfilment-split.md
 */
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '6' },
    out: { type: 'string', default: '' },
  },
})
const RUNS = Number(values.runs)
const ROUNDS = Number(values.rounds)

function cpuMs(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

interface Way {
  readonly name: string
  readonly programs: readonly FlowProgram[]
  readonly subject: () => FlowSubject
}

interface Tally {
  total: number
  deliveries: number
  readonly steps: Map<string, { step: number; action: number; n: number }>
}

const generated = fc.sample(flowProgram(fulfilmentWorkload(fulfilmentPayments.length)), { numRuns: RUNS, seed: 7 })
const plain = () => fulfilmentSubject(referenceFulfilmentClient, 'fulfilment-split', {})
const ways: Way[] = [
  { name: 'as generated', programs: generated, subject: plain },
  { name: 'no `*` subscription', programs: generated.map((p) => ({ ...p, everyEvent: false })), subject: plain },
  {
    name: 'no deliveries',
    programs: generated.map((p) => ({ ...p, everyEvent: false })),
    // A type no fulfilment flow makes: the endpoint exists, nothing is sent to it.
    subject: () => ({ ...plain(), eventTypes: ['invoice.voided'] }),
  },
]

/** The subject with each action timed; `first` names the run's first step apart. */
function timed(subject: FlowSubject, tally: Tally, label: (kind: string) => string): FlowSubject {
  const actions = Object.fromEntries(
    Object.entries(subject.actions ?? {}).map(([kind, act]): [string, FlowAction] => [
      kind,
      async (ctx, step) => {
        const at = cpuMs()
        try {
          return await act(ctx, step)
        } finally {
          const s = tally.steps.get(label(kind)) ?? { step: 0, action: 0, n: 0 }
          s.action += cpuMs() - at
          tally.steps.set(label(kind), s)
        }
      },
    ]),
  )
  return { ...subject, actions }
}

async function runWay(way: Way, tally: Tally | undefined): Promise<void> {
  for (const program of way.programs) {
    const sink: Tally = tally ?? { total: 0, deliveries: 0, steps: new Map() }
    let index = 0
    const label = (kind: string) => (index === 0 ? `${kind} (first step)` : kind)
    let last = cpuMs()
    const start = last
    await runFlow(program, timed(way.subject(), sink, label), {
      onStep(record: { kind: string }) {
        const now = cpuMs()
        const s = sink.steps.get(label(record.kind)) ?? { step: 0, action: 0, n: 0 }
        s.step += now - last
        s.n++
        sink.steps.set(label(record.kind), s)
        index++
        last = now
      },
      onTrace(entries: readonly { kind: string }[]) {
        sink.deliveries += entries.filter((e) => e.kind === 'delivery.attempt').length
      },
    })
    sink.total += cpuMs() - start
  }
}

const tallies = ways.map((): Tally => ({ total: 0, deliveries: 0, steps: new Map() }))
for (const way of ways) await runWay(way, undefined)
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ways.map((_, i) => i) : ways.map((_, i) => ways.length - 1 - i)
  for (const i of order) await runWay(ways[i] as Way, tallies[i])
}

const n = RUNS * ROUNDS
const f = (x: number) => x.toFixed(2)
const lines = [
  `| per run, CPU ms (${RUNS} programs, seed 7, ${ROUNDS} rounds) | ${ways.map((w) => w.name).join(' | ')} |`,
  `| --- | ${ways.map(() => '---').join(' | ')} |`,
  `| run | ${tallies.map((t) => f(t.total / n)).join(' | ')} |`,
  `| delivery attempts | ${tallies.map((t) => f(t.deliveries / n)).join(' | ')} |`,
]
const kinds = [...new Set(tallies.flatMap((t) => [...t.steps.keys()]))].sort(
  (a, b) => (tallies[0]?.steps.get(b)?.step ?? 0) - (tallies[0]?.steps.get(a)?.step ?? 0),
)
for (const kind of kinds) {
  const cell = (t: Tally) => {
    const s = t.steps.get(kind)
    if (s === undefined) return ''
    return s.action === 0 ? f(s.step / n) : `${f(s.step / n)} (action ${f(s.action / n)}, ${f(s.action / s.n)} each)`
  }
  lines.push(`| step ${kind} | ${tallies.map(cell).join(' | ')} |`)
}
lines.push('', `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} (the machine is shared).`)
const table = lines.join('\n')
console.log(table)
if (values.out !== '') writeFileSync(values.out, `# fulfilment-split\n\n${table}\n`)
