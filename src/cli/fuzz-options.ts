import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { loadScenarioFile } from '#harness/scenario/load-scenario.js'
import type { Scenario } from '#harness/scenario/schema.js'
import { parseDuration } from '#kernel/index.js'
import { DEFAULT_REPORT_DIR, resolveScenarioArg } from './bundled-scenarios.js'
import { parseCommandArgs } from './command-flags.js'
import { HELP } from './help.js'
import { packageRoot } from './paths.js'
import { headerPrefixOption, intOption, UsageError } from './usage-error.js'

/** A fuzz campaign's settings, checked. */
export interface FuzzSettings {
  /** The scenario file and the scenario it holds. */
  readonly file: string
  readonly scenario: Scenario
  /** Seeds to run (infinite under `--time`), from `first`. */
  readonly runs: number
  readonly first: number
  /** `--time` in ms. */
  readonly budget: number | undefined
  readonly workers: number
  readonly shard: { readonly index: number; readonly count: number }
  readonly client: string | undefined
  /** What a saved failure's replay command adds (` --client <file>` when one was given). */
  readonly clientArg: string
  readonly headerPrefix: string | undefined
  readonly failuresDir: string
  readonly reportDir: string
}

function parseShard(text: string | undefined): { index: number; count: number } {
  if (text === undefined) return { index: 1, count: 1 }
  const m = /^(\d+)\/(\d+)$/.exec(text)
  const index = Number(m?.[1])
  const count = Number(m?.[2])
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`--shard: expected i/n with 1 <= i <= n, got '${text}'`)
  return { index, count }
}

/** More threads than cores (or than runs) only add start-up cost and contention: says so when it caps them. */
function workerCount(workers: string | undefined, runs: number): number {
  const asked = intOption('--workers', workers, 1) ?? 1
  const capped = Math.max(1, Math.min(asked, availableParallelism(), Number.isFinite(runs) ? runs : asked))
  if (capped < asked)
    process.stderr.write(
      `fuzz: --workers ${asked} capped at ${capped} (${availableParallelism()} cores${Number.isFinite(runs) ? `, ${runs} runs` : ''})\n`,
    )
  return capped
}

/**
 * Parses and checks `fuzz`'s arguments, in the order their refusals are reported; `undefined` when
 * `--help` was asked (and printed).
 *
 * @example
 * parseFuzzOptions(['--runs', '20']) // { runs: 20, first: 1, workers: 1, ... }
 */
export function parseFuzzOptions(args: string[]): FuzzSettings | undefined {
  const { values, positionals } = parseCommandArgs('fuzz', args)
  if (values.help) {
    process.stdout.write(HELP.fuzz ?? '')
    return undefined
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}' (use --scenario <file>)`)
  if (values.runs !== undefined && values.time !== undefined) throw new UsageError('give --runs or --time, not both')
  const headerPrefix = headerPrefixOption(values['header-prefix'])
  const runs = intOption('--runs', values.runs, 1) ?? (values.time === undefined ? 100 : Number.POSITIVE_INFINITY)
  const budget = values.time === undefined ? undefined : parseDuration(values.time)
  if (values.time !== undefined && (budget === undefined || budget <= 0))
    throw new UsageError(`--time: expected a duration such as 30s or 5m, got '${values.time}'`)
  const first = intOption('--seed', values.seed) ?? 1
  const workers = workerCount(values.workers, runs)
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
  return {
    file,
    scenario,
    runs,
    first,
    budget,
    workers,
    shard,
    client: values.client,
    clientArg,
    headerPrefix,
    failuresDir,
    reportDir,
  }
}
