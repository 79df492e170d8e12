import fc from 'fast-check'
import type { FaultsInput } from '#faults/index.js'
import type { Violation } from '../checkers/violation.js'
import { type ReplayHint, replayReported } from '../failure-report.js'
import { minimiseProgram } from '../properties.js'
import { refuseArgument } from '../refuse-argument.js'
import { reproducedReport } from '../reproduced-report.js'
import { writeScenarioFile } from '../run/scenario-file.js'
import type { FlowSimOptions, SimulatorChoice } from '../run/simulator-choice.js'
import { HarnessInputError, shownValue } from '../validate-input.js'
import { parallelRunsFor, type RemoteSubject } from '../workers/parallel-runs.js'
import type { WorkersOption } from '../workers/workers-option.js'
import type { FlowAction } from './flow-actions.js'
import { type FlowProgram, type FlowWorkload, flowProgram } from './flow-program.js'
import { refuseBadFlowProgram } from './flow-program-input.js'
import { type FlowReport, type FlowSubject, runFlowProgram } from './flow-run.js'
import { refuseBadDeterministicCrypto } from './flow-run-globals.js'
import { flowScenarioOf } from './flow-scenario-file.js'
import { refuseBadFlowSimOptions } from './flow-sim-options-input.js'
import { refuseBadWorkload } from './workload-input.js'

/** Settings of a ready-made billing flow check (`checkSubscriptionMirror`, `checkDunning`). */
export interface FlowCheckOptions extends SimulatorChoice {
  /** Further `createSimulator` options of the runs; `clock: 'global'` for an app that reads `Date.now()`. */
  readonly simOptions?: FlowSimOptions | undefined
  /**
   * Web Crypto's HMAC `sign`/`verify` and SHA `digest` answer at once during each run (default
   * true), byte for byte as the real ones, so an app that verifies with `crypto.subtle` (the
   * official client's `constructEventAsync` with `createSubtleCryptoProvider()`) fails again on its
   * counterexample; `false` leaves the real ones, on Node's thread pool.
   */
  readonly deterministicCrypto?: boolean | undefined
  /** Programs to run (default 50). */
  readonly numRuns?: number
  /** fast-check seed; fixed by default so a CI run is reproducible. */
  readonly seed?: number
  /** Fault rates added to each program's schedule. Default none (the schedule alone). */
  readonly faults?: Omit<FaultsInput, 'schedule'>
  /** The shape of the generated flows (steps, faults, extra step kinds). */
  readonly workload?: FlowWorkload
  /** Actions of the extra step kinds of `workload.extraSteps`. */
  readonly actions?: Readonly<Record<string, FlowAction>>
  /**
   * Worker threads that share the runs (default one: this thread). The first failing run, the
   * shrunk counterexample and the report are those of a run in one thread with the same seed. A
   * factory of your own is reached through the module that exports it: `{ count: 2, module:
   * new URL('./my-client.ts', import.meta.url) }` (see the workers guide).
   */
  readonly workers?: WorkersOption
  /**
   * Where to write the counterexample's scenario file (`checkSubscriptionMirror`, `checkFulfilment`
   * and `checkDunning`), which `service-sim replay` and `service-sim open` read. Default: none written.
   */
  readonly scenarioDir?: string
  /** Name of the client, for the scenario file (a bundled client is named by itself). */
  readonly name?: string
}

/** The outcome of a ready-made billing flow check. */
export interface FlowCheckResult {
  readonly ok: boolean
  readonly numRuns: number
  /** When the property failed: the seed and the command that runs the failing test again (also printed). */
  readonly seed?: number
  readonly replay?: ReplayHint
  /** The shrunk (1-minimal) counterexample, when the property failed. */
  readonly counterexample?: FlowProgram
  readonly violations?: readonly Violation[]
  readonly traceHash?: string
  /** The counterexample's steps as executed. */
  readonly steps?: readonly string[]
  /** The counterexample's scenario file, when `scenarioDir` was given. */
  readonly scenarioFile?: string
  /**
   * Runs of the check that reached each (event type, the provider's object state on arrival, how
   * the delivery arrived, where the app stood) combination, as `type|state|fault|deploy` keys
   * (`FlowReport.coverage`); shrinking runs are not counted.
   */
  readonly coverage: Readonly<Record<string, number>>
}

/**
 * Drops any step or fault whose removal keeps the program failing, until none does (after
 * fast-check's own shrinking): the counterexample is 1-minimal. The same minimisation as the other
 * properties' programs.
 *
 * @example
 * const smaller = await minimiseFlow(program, async (p) => (await runFlow(p, subject())).violations.length > 0)
 */
export const minimiseFlow = (
  program: FlowProgram,
  fails: (p: FlowProgram) => Promise<boolean>,
  ahead?: (next: readonly FlowProgram[]) => void,
): Promise<FlowProgram> => {
  refuseBadFlowProgram('minimiseFlow', program)
  if (typeof fails !== 'function')
    throw new HarnessInputError(
      `minimiseFlow: expected a predicate (program) => Promise<boolean> that says whether a program still fails, got ${shownValue(fails)}`,
    )
  return minimiseProgram(program, fails, ahead)
}

// Every option a flow check takes (a property's own, such as the mirror's `access`, are taken off
// before): the compiler keeps the list whole.
const CHECK_KEYS = new Set(
  Object.keys({
    headerPrefix: true,
    apiVersion: true,
    simOptions: true,
    deterministicCrypto: true,
    base: true,
    numRuns: true,
    seed: true,
    faults: true,
    workload: true,
    actions: true,
    workers: true,
    scenarioDir: true,
    name: true,
  } satisfies Record<keyof FlowCheckOptions, true>),
)

/** A misspelt option (`numruns`) would silently run the defaults: refused, naming it. */
function refuseUnknownOptions(api: string, options: FlowCheckOptions): void {
  const unknown = Object.keys(options).filter((k) => !CHECK_KEYS.has(k))
  if (unknown.length > 0)
    throw new HarnessInputError(
      `${api}: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')}`,
    )
  refuseBadFlowSimOptions(api, options.simOptions)
  refuseBadDeterministicCrypto(api, options.deterministicCrypto)
}

/**
 * Runs generated billing flows against a subject, shrinks a failure and answers the result: the
 * loop every billing flow property runs on. `remote` says how a worker thread makes the same
 * subject (what `workers` needs).
 *
 * @example
 * const result = await checkFlows('checkDunning', () => dunningSubject(factory, 'checkDunning'), { numRuns: 20 })
 */
export async function checkFlows(
  api: string,
  subject: () => FlowSubject,
  options: FlowCheckOptions = {},
  remote?: RemoteSubject,
): Promise<FlowCheckResult> {
  refuseArgument('checkFlows', 'api', api, 'string')
  refuseArgument(api, 'subject', subject, 'function')
  refuseArgument(api, 'options', options, 'options')
  refuseUnknownOptions(api, options)
  const numRuns = options.numRuns ?? 50
  if (!Number.isInteger(numRuns) || numRuns < 1)
    throw new HarnessInputError(`${api}: option 'numRuns' must be a positive integer`)
  // fast-check would take any number and the replay hint would print it back: an integer or nothing.
  if (options.seed !== undefined && !Number.isInteger(options.seed))
    throw new HarnessInputError(`${api}: option 'seed' must be an integer, got ${JSON.stringify(options.seed)}`)
  refuseBadWorkload(api, options.workload)
  for (const key of ['scenarioDir', 'name'] as const)
    if (options[key] !== undefined && (typeof options[key] !== 'string' || options[key] === ''))
      throw new HarnessInputError(`${api}: option '${key}' must be a non-empty string`)
  const { numRuns: _n, seed, workload, workers, scenarioDir, name, ...run } = options
  const runOne = (p: FlowProgram) => runFlowProgram(p, subject(), run)
  const counts = new Map<string, number>()
  let counting = true
  const observe = (v: { readonly ok: boolean; readonly coverage?: readonly string[] }) => {
    if (counting) for (const key of v.coverage ?? []) counts.set(key, (counts.get(key) ?? 0) + 1)
    // Once a run fails, fast-check shrinks: those runs are not the generation's.
    if (!v.ok) counting = false
  }
  const verdict = async (p: FlowProgram) => {
    const report = await runOne(p)
    return { ok: report.violations.length === 0, coverage: report.coverage }
  }
  const judge = { verdict, observe }
  const found = await search(api, { numRuns, seed: seed ?? 42 }, flowProgram(workload), runOne, judge, workers, remote, run)
  const coverage = Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  if (found.program === undefined) return { ok: true, numRuns: found.numRuns, coverage }
  // After the lanes are closed: no run of theirs is still under way in this thread.
  const report = await reportOf(runOne, found.program)
  const scenario =
    scenarioDir === undefined
      ? undefined
      : flowScenarioOf(found.program, {
          remote,
          name,
          faults: run.faults,
          traceHash: report.traceHash,
          headerPrefix: run.headerPrefix ?? run.simOptions?.headerPrefix,
          apiVersion: run.apiVersion ?? run.simOptions?.apiVersion,
          deterministicCrypto: run.deterministicCrypto,
        })
  const scenarioFile = scenario === undefined || scenarioDir === undefined ? undefined : writeScenarioFile(scenarioDir, scenario)
  return {
    ok: false,
    ...replayReported(api, seed ?? 42, { ...report, ...(scenarioFile === undefined ? {} : { scenarioFile }) }),
    ...(scenarioFile === undefined ? {} : { scenarioFile }),
    numRuns: found.numRuns,
    counterexample: found.program,
    ...report,
    coverage,
  }
}

/** Runs the property (in this thread or on `workers`) and shrinks a failure to a 1-minimal program. */
async function search(
  api: string,
  params: { readonly numRuns: number; readonly seed: number },
  arb: fc.Arbitrary<FlowProgram>,
  runOne: (p: FlowProgram) => Promise<FlowReport>,
  judge: {
    readonly verdict: (p: FlowProgram) => Promise<{ readonly ok: boolean; readonly coverage: readonly string[] }>
    readonly observe: (v: { readonly ok: boolean; readonly coverage?: readonly string[] }) => void
  },
  workers: unknown,
  remote: RemoteSubject | undefined,
  run: Readonly<Record<string, unknown>>,
): Promise<{ numRuns: number; program?: FlowProgram }> {
  const lanes = await parallelRunsFor(api, workers, remote, run, judge.verdict)
  // Once a run failed, shrinking meets the same program again (a draw that changes nothing, such as
  // the `after` of an API fault the program does not have): a run is deterministic, so it is not run again.
  const shrunk = new Map<string, boolean>()
  const holds = async (p: FlowProgram) => {
    const key = shrunk.size > 0 ? JSON.stringify(p) : undefined
    const known = key === undefined ? undefined : shrunk.get(key)
    if (known !== undefined) return known
    const v = await judge.verdict(p)
    judge.observe(v)
    if (key !== undefined || !v.ok) shrunk.set(key ?? JSON.stringify(p), v.ok)
    return v.ok
  }
  try {
    const details = lanes
      ? await lanes.check(arb, params, judge.observe)
      : await fc.check(fc.asyncProperty(arb, holds), { ...params, endOnFailure: false })
    if (!details.failed || details.counterexample === null) return { numRuns: details.numRuns }
    if (details.errorInstance instanceof HarnessInputError) throw details.errorInstance
    const fails = async (p: FlowProgram) => {
      try {
        return (await runOne(p)).violations.length > 0
      } catch {
        return false
      }
    }
    return {
      numRuns: details.numRuns,
      program: await minimiseFlow(details.counterexample[0], lanes?.fails ?? fails, lanes?.ahead),
    }
  } finally {
    await lanes?.close()
  }
}

async function reportOf(runOne: (p: FlowProgram) => Promise<FlowReport>, program: FlowProgram) {
  const report = await reproducedReport('flow.not_reproduced', () => runOne(program))
  return { violations: report.violations, traceHash: report.traceHash, steps: report.steps }
}
