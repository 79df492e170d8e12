import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as current from '../src/harness/index.js'
import { baselineTree } from './lib/baseline-tree.js'
import { rateFigure, writeBenchReport } from './lib/bench-report.js'

// What a change of generation costs per run: each ready-made flow property run as a user runs it
// (the reference client, the default options, `numRuns` 50) over the same fast-check seeds by this
// tree and by the tree before the generation change, in one process, paired rounds alternating
// which tree goes first. Each tree draws its own programs (that is what changed), so the figure
// says whether the programs the new generation draws are heavier, not whether a run got faster.
const BASELINE_REV = process.env.FLOW_GENERATION_BASELINE ?? '16385a5'
const quick = process.env.BENCH_QUICK === '1'
const SEEDS = quick ? 2 : 6
const RUNS = 50
const ROUNDS = quick ? 1 : 2
type Harness = typeof current
const base = (await import(pathToFileURL(join(baselineTree(BASELINE_REV), 'src/harness/index.ts')).href)) as Harness

type Kind = 'mirror' | 'dunning' | 'fulfilment'

function checkOf(h: Harness, kind: Kind, seed: number) {
  const options = { numRuns: RUNS, seed }
  if (kind === 'mirror') return h.checkSubscriptionMirror(h.referenceSubscriptionMirror, options)
  if (kind === 'dunning') return h.checkDunning(h.referenceDunningClient, options)
  return h.checkFulfilment(h.referenceFulfilmentClient, options)
}

/** Process CPU ms of one tree's checks over seeds 1..SEEDS. */
async function cpuOf(h: Harness, kind: Kind): Promise<number> {
  const c = process.cpuUsage()
  for (let seed = 1; seed <= SEEDS; seed++) {
    const result = await checkOf(h, kind, seed)
    if (!result.ok) throw new Error(`flow-generation bench: the ${kind} reference fails its property on seed ${seed}`)
  }
  const u = process.cpuUsage(c)
  return (u.user + u.system) / 1000
}

interface Measured {
  readonly kind: Kind
  /** CPU ms per run here and at the baseline. */
  readonly ms: number
  readonly baseMs: number
  readonly perRound: readonly number[]
}

async function measure(kind: Kind): Promise<Measured> {
  // Warm both trees' JIT on one seed each.
  await checkOf(current, kind, 1)
  await checkOf(base, kind, 1)
  let cur = 0
  let bas = 0
  const perRound: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    const out = new Map<Harness, number>()
    for (const h of r % 2 === 0 ? [current, base] : [base, current]) out.set(h, await cpuOf(h, kind))
    const c = out.get(current) ?? 1
    const b = out.get(base) ?? 1
    cur += c
    bas += b
    perRound.push(b / c)
  }
  const runs = ROUNDS * SEEDS * RUNS
  return { kind, ms: cur / runs, baseMs: bas / runs, perRound }
}

const results: Measured[] = []
for (const kind of ['mirror', 'fulfilment', 'dunning'] as const) results.push(await measure(kind))
const names: Record<Kind, string> = {
  mirror: 'checkSubscriptionMirror runs (reference), each tree its own generation',
  fulfilment: 'checkFulfilment runs (reference), each tree its own generation',
  dunning: 'checkDunning runs (reference), each tree its own generation',
}
const figures = results.map((m) =>
  rateFigure(names[m.kind], 1000 / m.ms, 'runs/CPU-s', { name: `tree at ${BASELINE_REV}`, value: 1000 / m.baseMs }),
)
console.table(results.map((m) => ({ property: m.kind, ms: m.ms.toFixed(1), baseMs: m.baseMs.toFixed(1) })))
writeBenchReport('flow-generation', figures, [
  `Each row: the ready-made property with the reference client, ${RUNS} runs on each of the fast-check seeds 1..${SEEDS}, this tree against the tree at ${BASELINE_REV} (before the generation aimed its reorders and duplicates), in one process, ${ROUNDS} paired round(s) after a warm-up seed, alternating which tree goes first. Each tree draws its own programs.`,
  ...results.map(
    (m) =>
      `${m.kind}: ${m.ms.toFixed(1)} CPU ms per run (baseline ${m.baseMs.toFixed(1)}); baseline/this CPU per round ${m.perRound.map((x) => x.toFixed(2)).join(', ')}.`,
  ),
  'A property whose generation is the same on both trees (dunning, before the late-failure cycle was merged) shows the noise of the measure.',
  `Load average at the end: ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores (the machine is shared; figures move with it).`,
])
