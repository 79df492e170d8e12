import { dirname, join, relative, resolve } from 'node:path'
import { writeReport } from '#harness/report/write-report.js'
import {
  isHarnessScenario,
  MissingSubjectError,
  replayHarnessScenario,
  type SubjectModule,
} from '#harness/scenario/harness-replay.js'
import { loadScenarioFile } from '#harness/scenario/load-scenario.js'
import type { RunResult } from '#harness/scenario/run-result.js'
import { loadClientModule, type RunOptions, runScenario } from '#harness/scenario/run-scenario.js'
import type { Scenario } from '#harness/scenario/schema.js'
import { HarnessInputError } from '#harness/validate-input.js'
import type { TraceEntry } from '#kernel/index.js'
import { DEFAULT_REPORT_DIR, resolveScenarioArg } from './bundled-scenarios.js'
import { parseCommandArgs } from './command-flags.js'
import { HELP } from './help.js'
import { packageRoot } from './paths.js'
import { readSessionRecord, replayServedSession } from './served-replay.js'
import { timelineLines } from './timeline.js'
import { headerPrefixOption, UsageError } from './usage-error.js'

type ReplayValues = ReturnType<typeof parseCommandArgs<'replay'>>['values']

type ClientModule = Awaited<ReturnType<typeof loadClientModule>>

/** `--client`: the user's client module, or a usage error naming why it cannot be loaded. */
async function clientOption(path: string | undefined): Promise<ClientModule | undefined> {
  if (path === undefined) return undefined
  try {
    return await loadClientModule(path, process.cwd())
  } catch (error) {
    throw new UsageError(
      `--client ${path}: cannot load it: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    )
  }
}

/** What a replay runs: the scenario and its file, the seed, the client, and whether to print the timeline. */
interface ReplayRun {
  readonly file: string
  readonly scenario: Scenario
  readonly seed: number | string | undefined
  readonly client: ClientModule | undefined
  readonly quiet: boolean
}

/** Runs the scenario (a harness counterexample on the harness's runner), printing its timeline; answers the result and its trace. */
async function runReplay(run: ReplayRun): Promise<{ result: RunResult; trace: readonly TraceEntry[] | undefined }> {
  const { file, scenario, seed, client, quiet } = run
  const harness = isHarnessScenario(scenario)
  let start: number | undefined
  const onStep: RunOptions['onStep'] = (step, requests, faults) => {
    start ??= step.at
    if (!quiet) for (const line of timelineLines(start, step, requests, faults, harness)) process.stdout.write(`${line}\n`)
  }
  const baseDir = dirname(resolve(file))
  let trace: readonly TraceEntry[] | undefined
  const onTrace = (entries: readonly TraceEntry[]) => {
    trace = entries
  }
  if (!harness) {
    const result = await runScenario(scenario, {
      ...(seed === undefined ? {} : { seed }),
      ...(client ? { client } : {}),
      baseDir,
      onStep,
      onTrace,
    })
    return { result, trace }
  }
  // A property-harness counterexample: replayed by the harness's own runner, to the same trace hash.
  try {
    const result = await replayHarnessScenario(scenario, {
      seed,
      subjects: client as SubjectModule | undefined,
      baseDir,
      onStep,
      onTrace,
    })
    return { result, trace }
  } catch (error) {
    // A file naming no subject, or options its property does not know: the file is at fault, not the run.
    if (error instanceof MissingSubjectError || error instanceof HarnessInputError)
      throw new UsageError(`${file}: ${error.message}`)
    throw error
  }
}

/** Prints the verdicts and the summary line; answers the exit code (1 when an expectation was violated). */
async function reportReplay(
  values: ReplayValues,
  result: RunResult,
  trace: readonly TraceEntry[] | undefined,
  counterexample: string | undefined,
): Promise<number> {
  const quiet = values.quiet === true
  if (!quiet) process.stdout.write('\n')
  const violated = result.verdicts.filter((v) => !v.ok)
  if (!quiet) {
    for (const v of result.verdicts) process.stdout.write(`${v.ok ? '  ok  ' : '  FAIL'} ${v.name}: ${v.message}\n`)
  }
  let where = ''
  if (!values['no-report'])
    where = await writeReport(result, values.out ?? values.report ?? DEFAULT_REPORT_DIR, trace, { counterexample })
  const head = `${result.scenario} seed ${result.seed} (trace ${result.traceHash.slice(0, 16)}): `
  if (violated.length === 0)
    process.stdout.write(`${head}all ${result.verdicts.length} expectations hold${where ? `; report in ${where}` : ''}\n`)
  else
    process.stdout.write(
      `${head}${violated.length} violated: ${violated.map((v) => v.name).join('; ')}${where ? `; report in ${where}` : ''}\n`,
    )
  return violated.length === 0 ? 0 : 1
}

/** `--served` replays a session record on its own: any other argument is refused. */
function checkServedAlone(values: ReplayValues, positionals: string[]): void {
  const other = ['seed', 'header-prefix', 'client', 'report', 'out', 'no-report'].find(
    (k) => values[k as keyof typeof values] !== undefined,
  )
  if (positionals.length > 0 || other !== undefined)
    throw new UsageError(
      `--served replays a session record on its own (its seed, start and header prefix are in the file); drop ${other === undefined ? `'${positionals[0]}'` : `--${other}`}`,
    )
}

/**
 * `service-sim replay [file] [--seed N] [--client module] [--report dir] [--quiet]`.
 *
 * @example
 * const code = await replayCommand(['scenarios/default.yaml', '--seed', '7'])
 */
export async function replayCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('replay', args)
  if (values.help) {
    process.stdout.write(HELP.replay ?? '')
    return 0
  }
  if (values.served !== undefined) {
    checkServedAlone(values, positionals)
    return servedCommand(values.served, values.quiet === true)
  }
  if (positionals.length > 1)
    throw new UsageError(`expected one scenario file, got ${positionals.length}: ${positionals.join(' ')}`)
  if (values.out !== undefined && values.report !== undefined)
    throw new UsageError('--out and --report name the same directory: give one')
  const file =
    positionals[0] === undefined ? join(packageRoot(), 'scenarios', 'default.yaml') : resolveScenarioArg(positionals[0])
  // An integer, as fuzz takes it (checked with the flags): a word would run a seed nobody meant.
  const seed = values.seed === undefined ? undefined : Number(values.seed)
  const prefix = headerPrefixOption(values['header-prefix'])
  const loaded = loadScenarioFile(file)
  const scenario = prefix === undefined ? loaded : { ...loaded, header_prefix: prefix }
  const client = await clientOption(values.client)
  const { result, trace } = await runReplay({ file, scenario, seed, client, quiet: values.quiet === true })
  // A property's counterexample: its report says how to step through it in the dashboard.
  const counterexample = isHarnessScenario(scenario) ? relative(process.cwd(), resolve(file)) : undefined
  return reportReplay(values, result, trace, counterexample)
}

/** `replay --served <file>`: exit 0 when the replay answered and traced as the served session did, 1 at a divergence. */
async function servedCommand(file: string, quiet: boolean): Promise<number> {
  const record = readSessionRecord(file)
  const result = await replayServedSession(record)
  const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}...` : text)
  if (!quiet)
    for (const d of result.divergences.slice(0, 10))
      process.stdout.write(
        `  DIVERGED ${d.seq === undefined ? '' : `#${d.seq} `}${d.request}: ${d.what}\n    recorded ${clip(d.recorded)}\n    replayed ${clip(d.replayed)}\n`,
      )
  const hash = result.traceHash
  const head = `served session ${file} (seed ${record.header.seed}): ${result.matched}/${result.requests} answers as recorded`
  if (result.ok)
    process.stdout.write(
      `${head}; ${hash.recorded === undefined ? `trace ${hash.replayed.slice(0, 16)} (the record has no end line: serve did not stop cleanly, so there is no hash to compare)` : `trace hash ${hash.replayed.slice(0, 16)} as recorded`}\n`,
    )
  else {
    const first = result.divergences[0]
    process.stdout.write(
      `${head}; first divergence: ${first?.seq === undefined ? '' : `#${first.seq} `}${first?.request} (${first?.what})\n`,
    )
  }
  return result.ok ? 0 : 1
}
