import type { FaultsInput } from '#faults/index.js'
import type { TraceEntry } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import { openRun } from '../run/open-run.js'
import type { RunReport } from '../run/run-options.js'
import { programOf } from '../run/scenario-file.js'
import { harnessActionNames } from '../steps/program-steps.js'
import { validateProgram, validateRunOptions } from '../validate-input.js'
import { isFlowScenario, runFlowScenario } from './flow-scenario.js'
import { MissingSubjectError, replaySubjects, type SubjectModule } from './replay-subjects.js'
import type { FaultDecision, RequestRecord, RunResult, StepRecord, Verdict } from './run-result.js'
import type { Scenario } from './schema.js'

export { MissingSubjectError, type SubjectModule } from './replay-subjects.js'
/**
 * True for a scenario written by the property harness (`writeScenarioFile`): its workload is
 * harness steps (`report_usage`, `emit_event`, `roll_secret`), replayed by `runProgram`'s step runner.
 *
 * @example
 * if (isHarnessScenario(scenario)) await replayHarnessScenario(scenario, { baseDir })
 */
export function isHarnessScenario(scenario: Scenario): boolean {
  return scenario.harness !== undefined || scenario.workload.some((s) => harnessActionNames.has(s.client?.action ?? ''))
}

/** How to replay a harness scenario. */
export interface HarnessReplayOptions {
  readonly seed?: number | string | undefined
  /** The user's subjects (`--client`); otherwise the scenario's `harness` names, or its name if it is a bundled variant. */
  readonly subjects?: SubjectModule | undefined
  readonly baseDir: string
  readonly onStep?: (step: StepRecord, requests: readonly RequestRecord[], faults: readonly FaultDecision[]) => void
  /** Gets the run's whole trace at the end (the report reads delivery attempts from it). */
  readonly onTrace?: (entries: readonly TraceEntry[]) => void
  /**
   * Gets the run's simulator once it is set up, before its first step, for a reader that follows
   * the run as it goes (the dashboard's step-through marks where each step's trace entries begin).
   */
  readonly onSimulator?: (sim: Simulator) => void
}

/** The requests of a step, read off the `http` entries it added to the trace. */
function requestsOf(entries: readonly TraceEntry[], step: number): RequestRecord[] {
  return entries
    .filter((e) => e.kind === 'http')
    .map((e) => ({
      step,
      at: e.at,
      method: String(e.data.method),
      path: String(e.data.path),
      status: Number(e.data.status),
      outcome: String(e.data.status),
      source: 'client',
    }))
}

/** The checker violations as verdicts, and whether the recorded trace hash was reached. */
function verdictsOf(scenario: Scenario, report: RunReport, seedGiven: boolean): Verdict[] {
  const verdicts: Verdict[] = report.violations.map((v) => ({
    name: `checker ${v.checker}`,
    ok: false,
    message: v.message,
    witness: { seq: v.witness, entries: v.entries.slice(0, 5) },
  }))
  if (verdicts.length === 0) verdicts.push({ name: 'harness checkers', ok: true, message: 'no violation' })
  const recorded = /trace hash ([0-9a-f]{16,})/.exec(scenario.description ?? '')?.[1]
  if (recorded !== undefined && !seedGiven) {
    verdicts.push({
      name: 'reproduces the recorded trace hash',
      ok: recorded === report.traceHash,
      message: recorded === report.traceHash ? `trace hash ${recorded}` : `recorded ${recorded}, got ${report.traceHash}`,
    })
  }
  return verdicts
}

/** The program of a counterexample, with the seed the caller asked for. */
function programFor(scenario: Scenario, seed: number | string | undefined) {
  const parsed = programOf(scenario)
  const chosen = seed === undefined ? parsed.program.seed : Number(seed)
  if (!Number.isInteger(chosen))
    throw new MissingSubjectError(`--seed: a harness counterexample replays with an integer seed, got '${String(seed)}'`)
  return { program: { ...parsed.program, seed: chosen }, faults: parsed.faults as Omit<FaultsInput, 'schedule'> }
}

/**
 * Replays a property-harness counterexample through the harness's own runner (`startRun`, the
 * step runner of `runProgram`), so it reaches the same trace hash as the failing run, and turns the
 * run into the `RunResult` the CLI prints and reports. The checker violations become verdicts;
 * a `Replays to trace hash ...` note in the description becomes one more verdict.
 *
 * @example
 * const result = await replayHarnessScenario(loadScenarioFile(file), { baseDir: dirname(file) })
 */
export async function replayHarnessScenario(scenario: Scenario, options: HarnessReplayOptions): Promise<RunResult> {
  if (isFlowScenario(scenario)) return runFlowScenario(scenario, { ...options, client: options.subjects })
  const { program, faults } = programFor(scenario, options.seed)
  const subjects = await replaySubjects(scenario, program, options.subjects, options.baseDir)
  // The failing run's header names and version (a receiver reading `Stripe-Signature` needs them).
  const chosen = {
    ...(scenario.header_prefix === undefined ? {} : { headerPrefix: scenario.header_prefix }),
    ...(scenario.api_version === undefined ? {} : { apiVersion: scenario.api_version }),
  }
  validateRunOptions('replay', { ...subjects, ...chosen, faults })
  validateProgram('replay', program)
  // The same step runner as the failing run: its step records and fault decisions are the timeline.
  const requests: RequestRecord[] = []
  let from = 0
  const run = openRun('replay', program.seed, { ...subjects, ...chosen, faults }, program.faults, {
    onStep: (record, decided) => {
      const mine = requestsOf(trace.entries().slice(from), record.n)
      requests.push(...mine)
      options.onStep?.(record, mine, decided)
    },
  })
  const { sim, runner } = run
  const trace = sim.service.kernel.trace
  const start = sim.clock.now
  if (options.onSimulator !== undefined) {
    // Once set up: the entries before the first step are the setup's, not the step's.
    await run.ready
    options.onSimulator(sim)
  }
  for (const step of program.steps) {
    from = trace.length
    await run.exec(step)
  }
  const report = await run.finish()
  options.onTrace?.(trace.entries())
  runner.takeFaults()
  const verdicts = verdictsOf(scenario, report, options.seed !== undefined)
  return {
    scenario: scenario.name,
    description: scenario.description ?? '',
    seed: String(program.seed),
    start,
    end: sim.clock.now,
    steps: [...runner.steps],
    requests,
    faults: [...runner.faults],
    // Delivery attempts are the service's own `delivery.attempt` entries: the report reads them
    // from the trace (`traceRecords`), labelled by destination.
    deliveries: [],
    markers: [],
    verdicts,
    traceHash: report.traceHash,
    traceLength: trace.length,
    ok: verdicts.every((v) => v.ok),
  }
}
