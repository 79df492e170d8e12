/**
 * A property's runs on worker threads: `checkSubscriptionMirror` and `checkDunning` with their
 * reference clients (passing: every run is made), `workers: 2` against one thread, in one process,
 * in alternating rounds; the ratio of the round with the median ratio is kept. The worker thread is
 * started by a warm-up check first (its start, importing the harness in a fresh thread, is printed
 * apart: a suite pays it once, the threads serve every later check).
 *
 * Run: npx tsx bench/flow-workers.bench.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import {
  checkDunning,
  checkSubscriptionMirror,
  referenceDunningClient,
  referenceSubscriptionMirror,
} from '../src/harness/index.js'
import { type Figure, rateFigure, writeBenchReport } from './lib/bench-report.js'

const QUICK = process.env.BENCH_QUICK === '1'
const RUNS = QUICK ? 30 : 120
const ROUNDS = QUICK ? 1 : 3
/**
 * Runs each isolate makes before the rounds: V8 keeps compiling the harness's functions with
 * TurboFan on node's helper threads for the first few hundred runs of a fresh isolate (a one-time
 * cost per thread, like starting it), and a two-lane round would otherwise pay the worker's share
 * of it while the one-thread rounds run on a warm isolate.
 */
const WARM = QUICK ? 10 : 300

type Check = (workers: number | undefined, numRuns: number) => Promise<{ ok: boolean; numRuns: number }>
const checks: Record<string, Check> = {
  'subscription mirror': (workers, numRuns) =>
    checkSubscriptionMirror(referenceSubscriptionMirror, { numRuns, seed: 2026, ...(workers ? { workers } : {}) }),
  dunning: (workers, numRuns) => checkDunning(referenceDunningClient, { numRuns, seed: 2026, ...(workers ? { workers } : {}) }),
}

/**
 * CPU time (ms) of each thread of this process, by thread id, from Linux's scheduler counters
 * (`schedstat`: nanoseconds, where `stat` counts 10 ms ticks and misreads short helper tasks);
 * undefined elsewhere.
 */
function threadCpu(): Map<string, number> | undefined {
  const dir = '/proc/self/task'
  if (!existsSync(dir)) return undefined
  const cpu = new Map<string, number>()
  for (const tid of readdirSync(dir)) {
    try {
      cpu.set(tid, Number(readFileSync(`${dir}/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6)
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return cpu
}

interface Measured {
  rate: number
  /**
   * CPU ms over the check of this thread (`main`), of the busiest other thread (`lane`: the worker
   * thread, when there is one) and of all the others (node's GC and I/O helpers included).
   */
  cpu?: { main: number; lane: number; others: number }
}

function cpuBetween(before: Map<string, number>, after: Map<string, number>): Measured['cpu'] {
  let lane = 0
  let others = 0
  for (const [tid, ms] of after) {
    if (tid === String(process.pid)) continue
    const used = ms - (before.get(tid) ?? 0)
    others += used
    lane = Math.max(lane, used)
  }
  const main = (after.get(String(process.pid)) ?? 0) - (before.get(String(process.pid)) ?? 0)
  return { main, lane, others }
}

async function rate(check: Check, workers: number | undefined, runs = RUNS): Promise<Measured> {
  const before = threadCpu()
  const t0 = performance.now()
  const result = await check(workers, runs)
  const wall = performance.now() - t0
  const after = threadCpu()
  if (!result.ok || result.numRuns !== runs) throw new Error(`the reference failed or stopped early: ${JSON.stringify(result)}`)
  const cpu = before && after ? cpuBetween(before, after) : undefined
  return { rate: runs / (wall / 1000), ...(cpu ? { cpu } : {}) }
}

/**
 * What the two lanes would give on two free cores, lanes only: the one-thread check's CPU time on
 * its thread over the busier lane's (this thread, or the worker thread); node's helper threads are
 * left out on both sides, as if they ran on cores of their own.
 */
function projected(one: Measured, two: Measured): number | undefined {
  if (!one.cpu || !two.cpu) return undefined
  return one.cpu.main / Math.max(two.cpu.main, two.cpu.lane)
}

/**
 * The same with node's helper threads (parallel and concurrent GC, JIT compiles) sharing the two
 * cores: a check cannot end before its busiest thread, nor before all its threads' CPU time spread
 * over two cores. One thread gets the second core for its helpers alone; two lanes share both.
 */
function projectedWithHelpers(one: Measured, two: Measured): number | undefined {
  if (!one.cpu || !two.cpu) return undefined
  const helpersTwo = two.cpu.others - two.cpu.lane
  const oneWall = Math.max(one.cpu.main, (one.cpu.main + one.cpu.others) / 2)
  const twoWall = Math.max(two.cpu.main, two.cpu.lane, (two.cpu.main + two.cpu.lane + helpersTwo) / 2)
  return oneWall / twoWall
}

/**
 * The most two lanes can give on two cores if the split cost nothing and two isolates' helpers did
 * no more work than one's: a one-thread check runs its JavaScript on one core and its helpers on
 * the other, two lanes must fit the same JavaScript and helpers into both cores.
 */
function freeSplitCeiling(one: Measured): number | undefined {
  if (!one.cpu) return undefined
  return (2 * one.cpu.main) / (one.cpu.main + one.cpu.others)
}

/** Whether the kernel schedules each session's threads as one group (Linux `sched_autogroup`). */
function autogroup(): boolean {
  try {
    return readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1'
  } catch {
    return false
  }
}

const ms = (x: number): number => Math.round(x)
const median = (xs: readonly number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number

const figures: Figure[] = []
const notes: string[] = []
const loads: number[] = [loadavg()[0] ?? 0]
const t0 = performance.now()
await checks.dunning?.(2, 4)
notes.push(
  `Starting the worker thread (a warm-up check of 4 runs, from the TypeScript sources through tsx): ${Math.round(performance.now() - t0)} ms.`,
)
for (const [name, check] of Object.entries(checks)) {
  // Both isolates warm alike: this thread on its own, the worker thread through a two-lane check.
  await check(undefined, WARM / 3)
  const warming = await rate(check, 2, 2 * WARM)
  if (warming.cpu)
    notes.push(
      `${name}: the warm-up check of ${2 * WARM} runs on two lanes (each isolate's first ~${WARM}): this thread ${ms(warming.cpu.main)} ms, the worker ${ms(warming.cpu.lane)} ms, helpers ${ms(warming.cpu.others - warming.cpu.lane)} ms of CPU.`,
    )
  const rounds: { one: Measured; two: Measured }[] = []
  for (let r = 0; r < ROUNDS; r++) {
    const first = r % 2 === 0
    const a = await rate(check, first ? undefined : 2)
    const b = await rate(check, first ? 2 : undefined)
    rounds.push(first ? { one: a, two: b } : { one: b, two: a })
    loads.push(loadavg()[0] ?? 0)
  }
  const ratio = (r: { one: Measured; two: Measured }) => r.two.rate / r.one.rate
  const middle = [...rounds].sort((x, y) => ratio(x) - ratio(y))[Math.floor(rounds.length / 2)] as (typeof rounds)[number]
  notes.push(`${name}: workers: 2 / one thread per round: ${rounds.map((r) => `${ratio(r).toFixed(2)}x`).join(', ')}`)
  const cpuNotes = rounds.map((r) =>
    r.one.cpu && r.two.cpu
      ? `one thread ${ms(r.one.cpu.main)} ms (helpers ${ms(r.one.cpu.others)} ms); two lanes: this thread ${ms(r.two.cpu.main)} ms, the worker ${ms(r.two.cpu.lane)} ms (helpers ${ms(r.two.cpu.others - r.two.cpu.lane)} ms)`
      : 'no per-thread counters here',
  )
  notes.push(`${name}: CPU time per round: ${cpuNotes.join('; ')}`)
  figures.push(rateFigure(`${name} check, one thread`, middle.one.rate, 'runs/s'))
  figures.push(
    rateFigure(`${name} check, workers: 2`, middle.two.rate, 'runs/s', { name: 'one thread', value: middle.one.rate }, 1.7),
  )
  const computed: [string, (one: Measured, two: Measured) => number | undefined][] = [
    ['lanes only', projected],
    ["lanes and node's helper threads", projectedWithHelpers],
  ]
  const ceilings = rounds.map((r) => freeSplitCeiling(r.one)).filter((x): x is number => x !== undefined)
  if (ceilings.length > 0)
    notes.push(
      `${name}: the ceiling of a split that costs nothing, 2 x one thread's JavaScript / (its JavaScript + its helpers), per round: ${ceilings.map((c) => `${c.toFixed(2)}x`).join(', ')}.`,
    )
  for (const [what, estimate] of computed) {
    const values = rounds.map((r) => estimate(r.one, r.two)).filter((x): x is number => x !== undefined)
    if (values.length === 0) continue
    const m = median(values)
    figures.push({
      name: `${name} check, workers: 2 on two free cores, computed from CPU time (${what})`,
      value: m,
      unit: 'x',
      target: '>= 1.7x',
      pass: m >= 1.7,
    })
  }
}
console.table(figures.map((f) => ({ figure: f.name, value: f.value.toFixed(1), ratio: f.ratio?.toFixed(2) ?? '' })))
writeBenchReport('flow-workers', figures, [
  ...notes,
  `${RUNS} runs per check (seed 2026, the default workload), ${ROUNDS} rounds alternating which goes first, after a warm-up of ${WARM / 3} runs on this thread and ${2 * WARM} on two lanes; the ratio rows are the round with the median ratio.`,
  'The "on two free cores" rows are computed from per-thread CPU time, not timed (the medians over the rounds). "Lanes only": the one-thread check\'s CPU time on its thread over the busier lane\'s (this thread, or the worker thread: the busiest other thread), node\'s GC and compiler helper threads left out on both sides, i.e. the speed-up if each lane and each helper had a core of its own: what the split itself costs. "Lanes and node\'s helper threads": each side\'s time is at least its busiest thread and at least all its threads\' CPU time over two cores (one thread leaves the second core to its helpers; two lanes share both with theirs), the nearer estimate of a 2-core machine; the wall-clock rows are only meaningful when the load average is below 1.',
  `Load average (1 min) over the bench: ${loads.map((l) => l.toFixed(1)).join(', ')} on ${cpus().length} cores. Two lanes need two free cores: on a shared machine the ratio moves with the load.`,
  ...(autogroup()
    ? [
        "Linux's autogroup is on here: the kernel gives each session's threads one share of the CPUs between them, so while another session is busy this process's threads together get about one core, however many lanes it runs (a niced bench gains nothing either); the wall-clock ratio then says nothing about the lanes.",
      ]
    : []),
])
