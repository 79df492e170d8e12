import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { Tinypool } from 'tinypool'
import { stringify } from 'yaml'
import { loadScenarioFile } from '#harness/scenario/load-scenario.js'
import { canonicalJson } from '#kernel/canonical-json.js'
import { parseDuration } from '#kernel/duration.js'
import { DEFAULT_REPORT_DIR, resolveScenarioArg } from './bundled-scenarios.js'
import { type FuzzOutcome, runFuzzTask } from './fuzz-worker.js'
import { HELP } from './help.js'
import { packageRoot } from './paths.js'
import { headerPrefixOption, intOption, UsageError } from './usage-error.js'

/** A fuzz campaign's report (one shard); `merge` combines several. */
export interface FuzzReport {
  readonly format: 1
  readonly kind: 'fuzz'
  readonly scenario: string
  readonly shards: string[]
  readonly runs: number
  /** `replay` is the saved file; `command` reproduces the failure (with `--client` when one was given). */
  readonly failures: { seed: number; violated: string[]; replay: string; command: string }[]
  readonly seeds: { first: number; last: number }[]
}

function parseShard(text: string | undefined): { index: number; count: number } {
  if (text === undefined) return { index: 1, count: 1 }
  const m = /^(\d+)\/(\d+)$/.exec(text)
  const index = Number(m?.[1])
  const count = Number(m?.[2])
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`--shard: expected i/n with 1 <= i <= n, got '${text}'`)
  return { index, count }
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
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      scenario: { type: 'string' },
      runs: { type: 'string' },
      time: { type: 'string' },
      seed: { type: 'string' },
      workers: { type: 'string' },
      shard: { type: 'string' },
      client: { type: 'string' },
      'header-prefix': { type: 'string' },
      report: { type: 'string' },
      out: { type: 'string', short: 'o' },
      failures: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    process.stdout.write(HELP.fuzz ?? '')
    return 0
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}' (use --scenario <file>)`)
  if (values.runs !== undefined && values.time !== undefined) throw new UsageError('give --runs or --time, not both')
  const headerPrefix = headerPrefixOption(values['header-prefix'])
  const runs = intOption('--runs', values.runs, 1) ?? (values.time === undefined ? 100 : Number.POSITIVE_INFINITY)
  const budget = values.time === undefined ? undefined : parseDuration(values.time)
  if (values.time !== undefined && (budget === undefined || budget <= 0))
    throw new UsageError(`--time: expected a duration such as 30s or 5m, got '${values.time}'`)
  const first = intOption('--seed', values.seed) ?? 1
  const asked = intOption('--workers', values.workers, 1) ?? 1
  // More threads than cores (or than runs) only add start-up cost and contention.
  const workers = Math.max(1, Math.min(asked, availableParallelism(), Number.isFinite(runs) ? runs : asked))
  if (workers < asked)
    process.stderr.write(
      `fuzz: --workers ${asked} capped at ${workers} (${availableParallelism()} cores${Number.isFinite(runs) ? `, ${runs} runs` : ''})\n`,
    )
  // A failing seed only reproduces with the client it failed against: the replay command names it.
  const clientArg = values.client === undefined ? '' : ` --client ${resolve(values.client)}`
  const shard = parseShard(values.shard)
  if (values.out !== undefined && values.report !== undefined)
    throw new UsageError('--out and --report name the same directory: give one')
  const file =
    values.scenario === undefined ? join(packageRoot(), 'scenarios', 'default.yaml') : resolveScenarioArg(values.scenario)
  const scenario = loadScenarioFile(file)
  const failuresDir = values.failures ?? join('.service-sim', 'failures')
  const reportDir = join(values.out ?? values.report ?? DEFAULT_REPORT_DIR, 'fuzz', scenario.name)
  const shardName = `shard-${shard.index}-of-${shard.count}`
  const tty = process.stdout.isTTY === true && process.env.CI === undefined

  // Seeds that failed before run first, so a fix is confirmed before new ground is searched.
  const previous = existsSync(failuresDir)
    ? readdirSync(failuresDir)
        .map((f) => new RegExp(`^${scenario.name}-seed-(\\d+)\\.yaml$`).exec(f)?.[1])
        .filter((s): s is string => s !== undefined)
        .map(Number)
        .sort((a, b) => a - b)
    : []
  // Lazy: under --time the seeds are endless and only as many are drawn as the budget allows.
  const fresh = function* () {
    for (let i = 0; i < runs; i++) {
      const seed = first + i
      if (!Number.isSafeInteger(seed)) return
      if (i % shard.count === shard.index - 1 && !previous.includes(seed)) yield seed
    }
  }
  const pool =
    workers > 1
      ? new Tinypool({
          filename: new URL(import.meta.url.endsWith('.ts') ? './fuzz-worker-tsx.mjs' : './fuzz-worker.js', import.meta.url).href,
          minThreads: workers,
          maxThreads: workers,
        })
      : undefined
  // Worker threads inherit tsx's loader from execArgv; in dist the .js worker needs none.
  const runOne = (seed: number): Promise<FuzzOutcome> =>
    pool
      ? pool.run({ file, seed, client: values.client, headerPrefix })
      : runFuzzTask({ file, seed, client: values.client, headerPrefix })

  const outcomes: FuzzOutcome[] = []
  const began = performance.now()
  let done = 0
  const total = Number.isFinite(runs) ? previous.length + [...fresh()].length : undefined
  const progress = (o: FuzzOutcome) => {
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
        `fuzz ${scenario.name}: ${done}${total ? `/${total}` : ''} runs, ${failed} failing${o.ok ? '' : ` (seed ${o.seed} failed)`}\n`,
      )
    }
  }
  const inTime = () => budget === undefined || performance.now() - began < budget
  try {
    const queue = (function* () {
      yield* previous
      yield* fresh()
    })()
    const lanes = Array.from({ length: workers }, async () => {
      while (inTime()) {
        const next = queue.next()
        if (next.done) break
        const seed = next.value
        const o = await runOne(seed)
        outcomes.push(o)
        progress(o)
      }
    })
    await Promise.all(lanes)
  } finally {
    await pool?.destroy()
  }
  if (tty) process.stdout.write('\n')
  outcomes.sort((a, b) => a.seed - b.seed)
  mkdirSync(failuresDir, { recursive: true })
  const failures = []
  for (const o of outcomes) {
    const replay = join(failuresDir, `${scenario.name}-seed-${o.seed}.yaml`)
    if (o.ok) continue
    const raw = readFileSync(file, 'utf8')
    const source = file.endsWith('.json') ? JSON.parse(raw) : (await import('yaml')).parse(raw)
    // Faults are data: the decisions of the failing run become an explicit schedule.
    const saved = {
      ...source,
      seed: o.seed,
      ...(headerPrefix === undefined ? {} : { header_prefix: headerPrefix }),
      faults: { schedule: o.faults.map((f) => ({ step: f.step, fault: f.fault, ...f.params })) },
    }
    writeFileSync(
      replay,
      `# Failing seed ${o.seed} of ${basename(file)}; replay: service-sim replay ${replay}${clientArg}\n${stringify(saved)}`,
    )
    failures.push({ seed: o.seed, violated: o.violated, replay, command: `service-sim replay ${replay}${clientArg}` })
  }
  // Fixed seeds (they pass now) leave the failures directory.
  for (const seed of previous) {
    const o = outcomes.find((x) => x.seed === seed)
    if (o?.ok) {
      const { rmSync } = await import('node:fs')
      rmSync(join(failuresDir, `${scenario.name}-seed-${seed}.yaml`), { force: true })
    }
  }
  const seeds = outcomes.map((o) => o.seed)
  const report: FuzzReport = {
    format: 1,
    kind: 'fuzz',
    scenario: scenario.name,
    shards: [`${shard.index}/${shard.count}`],
    runs: outcomes.length,
    failures,
    seeds: seeds.length ? [{ first: seeds[0] as number, last: seeds[seeds.length - 1] as number }] : [],
  }
  mkdirSync(reportDir, { recursive: true })
  const out = join(reportDir, `${shardName}.json`)
  writeFileSync(out, `${canonicalJson(report)}\n`)
  process.stdout.write(
    `fuzz ${scenario.name}: ${outcomes.length} runs, ${failures.length} failing seed(s)${failures.length ? `: ${failures.map((f) => f.seed).join(', ')}` : ''}; report ${out}\n`,
  )
  for (const f of failures) process.stdout.write(`  seed ${f.seed}: ${f.violated[0] ?? ''}\n    replay: ${f.command}\n`)
  return failures.length === 0 ? 0 : 1
}
