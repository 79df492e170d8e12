import { existsSync, readdirSync } from 'node:fs'
import { Tinypool } from 'tinypool'
import { type FuzzSettings, parseFuzzOptions } from './fuzz-options.js'
import { saveFailures, writeFuzzReport } from './fuzz-report.js'
import { type FuzzOutcome, runFuzzTask } from './fuzz-worker.js'

/** Seeds that failed before, from their saved files: they run first, so a fix is confirmed before new ground is searched. */
function previousFailures(s: FuzzSettings): number[] {
  if (!existsSync(s.failuresDir)) return []
  return readdirSync(s.failuresDir)
    .map((f) => new RegExp(`^${s.scenario.name}-seed-(\\d+)\\.yaml$`).exec(f)?.[1])
    .filter((seed): seed is string => seed !== undefined)
    .map(Number)
    .sort((a, b) => a - b)
}

/** This shard's new seeds, lazily: under `--time` the seeds are endless and only as many are drawn as the budget allows. */
function* freshSeeds(s: FuzzSettings, previous: readonly number[]): Generator<number> {
  for (let i = 0; i < s.runs; i++) {
    const seed = s.first + i
    if (!Number.isSafeInteger(seed)) return
    if (i % s.shard.count === s.shard.index - 1 && !previous.includes(seed)) yield seed
  }
}

/** Runs one seed in process, or on the pool's workers (they inherit tsx's loader from execArgv; in dist the .js worker needs none). */
function seedRunner(s: FuzzSettings): { run(seed: number): Promise<FuzzOutcome>; destroy(): Promise<void> } {
  const task = (seed: number) => ({ file: s.file, seed, client: s.client, headerPrefix: s.headerPrefix })
  if (s.workers <= 1) return { run: (seed) => runFuzzTask(task(seed)), destroy: async () => undefined }
  const pool = new Tinypool({
    filename: new URL(import.meta.url.endsWith('.ts') ? './fuzz-worker-tsx.mjs' : './fuzz-worker.js', import.meta.url).href,
    minThreads: s.workers,
    maxThreads: s.workers,
  })
  return { run: (seed) => pool.run(task(seed)), destroy: () => pool.destroy() }
}

/** Prints progress after each run: a bar on a terminal, a line every ten runs (and on each failure) in logs. */
function progressPrinter(s: FuzzSettings, outcomes: readonly FuzzOutcome[], total: number | undefined): (o: FuzzOutcome) => void {
  const tty = process.stdout.isTTY === true && process.env.CI === undefined
  let done = 0
  return (o) => {
    done++
    const failed = outcomes.filter((x) => !x.ok).length
    if (tty) {
      const width = 30
      const filled = total ? Math.round((done / total) * width) : done % width
      process.stdout.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}${total ? `/${total}` : ''} runs, ${failed} failing`,
      )
    } else if (!o.ok || done % 10 === 0 || done === total) {
      process.stdout.write(
        `fuzz ${s.scenario.name}: ${done}${total ? `/${total}` : ''} runs, ${failed} failing${o.ok ? '' : ` (seed ${o.seed} failed)`}\n`,
      )
    }
  }
}

/** Runs the previous failures, then the fresh seeds, on `workers` lanes until they or the time budget run out. */
async function runSeeds(s: FuzzSettings, previous: readonly number[]): Promise<FuzzOutcome[]> {
  const runner = seedRunner(s)
  const outcomes: FuzzOutcome[] = []
  const began = performance.now()
  const total = Number.isFinite(s.runs) ? previous.length + [...freshSeeds(s, previous)].length : undefined
  const progress = progressPrinter(s, outcomes, total)
  const inTime = () => s.budget === undefined || performance.now() - began < s.budget
  try {
    const queue = (function* () {
      yield* previous
      yield* freshSeeds(s, previous)
    })()
    const lanes = Array.from({ length: s.workers }, async () => {
      while (inTime()) {
        const next = queue.next()
        if (next.done) break
        const o = await runner.run(next.value)
        outcomes.push(o)
        progress(o)
      }
    })
    await Promise.all(lanes)
  } finally {
    await runner.destroy()
  }
  return outcomes
}

/**
 * `service-sim fuzz`: runs a scenario under many seeds (previous failures first), in process or
 * on a tinypool worker pool, saves each failing seed as a replayable scenario file and writes the
 * campaign report. Exit 1 when a seed failed.
 *
 * @example
 * await fuzzCommand(['--scenario', 'scenarios/default.yaml', '--runs', '20'])
 */
export async function fuzzCommand(args: string[]): Promise<number> {
  const s = parseFuzzOptions(args)
  if (s === undefined) return 0
  const previous = previousFailures(s)
  const outcomes = await runSeeds(s, previous)
  if (process.stdout.isTTY === true && process.env.CI === undefined) process.stdout.write('\n')
  outcomes.sort((a, b) => a.seed - b.seed)
  const failures = await saveFailures(s, outcomes, previous)
  writeFuzzReport(s, outcomes, failures)
  return failures.length === 0 ? 0 : 1
}
