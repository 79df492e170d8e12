import type { FaultsInput } from '#faults/index.js'
import type { TraceEntry } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import { checkerRegistry, verdictOf } from '../checkers/checker-registry.js'
import type { Violation } from '../checkers/violation.js'
import { type DunningClientFactory, dunningSubject } from '../flows/dunning-subject.js'
import type { FlowStep } from '../flows/flow-program.js'
import type { FlowSubject } from '../flows/flow-run.js'
import { flowSubjectOptions } from '../flows/flow-subject-options.js'
import { type FulfilmentClientFactory, fulfilmentSubject } from '../flows/fulfilment-subject.js'
import { mirrorSubject, type SubscriptionMirrorFactory } from '../flows/mirror-subject.js'
import { runFlow } from '../flows/run-flow.js'
import type { StepRunnerOptions } from '../run/step-runner.js'
import type { ThinRaceStep } from '../thin/thin-race-program.js'
import { runThinRace, type ThinEventReceiverFactory } from '../thin/thin-race-run.js'
import { countHolds, showCount } from './expectations.js'
import { flowClientOf } from './flow-scenario-clients.js'
import { MissingSubjectError } from './replay-subjects.js'
import type { FaultDecision, RequestRecord, RunResult, StepRecord, Verdict } from './run-result.js'
import type { FlowScenarioProperty } from './scenario-types.js'
import type { Scenario } from './schema.js'

/**
 * True for a scenario that drives a billing flow with a client under test (`harness.flow`).
 *
 * @example
 * if (isFlowScenario(scenario)) result = await runFlowScenario(scenario, { baseDir })
 */
export function isFlowScenario(scenario: Scenario): boolean {
  return scenario.harness?.flow !== undefined
}

/** How to run a flow scenario. */
export interface FlowScenarioOptions {
  /** Overrides the scenario's seed (an integer). */
  readonly seed?: number | string | undefined
  /** A `--client` module: its `client` export is the client under test. */
  readonly client?: unknown
  /** Directory the scenario's module paths are relative to. */
  readonly baseDir: string
  readonly onStep?: (step: StepRecord, requests: readonly RequestRecord[], faults: readonly FaultDecision[]) => void
  readonly onTrace?: (entries: readonly TraceEntry[]) => void
  /** Gets the run's simulator before its first step (not the `deterministic` check's second run). */
  readonly onSimulator?: (sim: Simulator) => void
}

/** The flow steps of the workload: `client` actions (the step kind, its fields as `args`) and `advance`. */
function stepsOf(scenario: Scenario): FlowStep[] {
  return scenario.workload.map((step, i) => {
    if (step.advance !== undefined) return { kind: 'advance', ms: step.advance } as FlowStep
    if (step.client !== undefined) return { ...(step.client.args ?? {}), kind: step.client.action } as FlowStep
    throw new MissingSubjectError(
      `workload[${i}]: a flow scenario's steps are client actions (the property's flow steps) and advance`,
    )
  })
}

interface OneRun {
  readonly violations: readonly Violation[]
  readonly traceHash: string
  readonly coverage?: readonly string[]
}

function subjectOf(property: Exclude<FlowScenarioProperty, 'thin_events'>, factory: unknown, options: unknown): FlowSubject {
  const where = "scenario's harness.options"
  if (property === 'fulfilment')
    return fulfilmentSubject(
      factory as FulfilmentClientFactory,
      'replay',
      flowSubjectOptions('replay', 'fulfilment', options, where),
    )
  if (property === 'dunning')
    return dunningSubject(factory as DunningClientFactory, 'replay', flowSubjectOptions('replay', 'dunning', options, where))
  return mirrorSubject(factory as SubscriptionMirrorFactory, flowSubjectOptions('replay', 'mirror', options, where), 'replay')
}

/** One run of the scenario's flow with the client: the property's own runner, as its property runs it. */
function runOnce(
  scenario: Scenario,
  factory: unknown,
  seed: number,
  listen: {
    onStep?: StepRunnerOptions['onStep']
    onTrace?: (entries: readonly TraceEntry[]) => void
    onSimulator?: (sim: Simulator) => void
  },
): Promise<OneRun> {
  const property = scenario.harness?.flow as FlowScenarioProperty
  const { schedule, ...rates } = scenario.faults
  const steps = stepsOf(scenario)
  if (property === 'thin_events')
    return runThinRace({ seed, steps: steps as ThinRaceStep[], faults: schedule }, factory as ThinEventReceiverFactory, listen)
  const everyEvent = scenario.harness?.every_event === true ? { everyEvent: true } : {}
  return runFlow({ seed, steps, faults: schedule, ...everyEvent }, subjectOf(property, factory, scenario.harness?.options), {
    ...listen,
    faults: rates as Omit<FaultsInput, 'schedule'>,
    ...(scenario.header_prefix === undefined ? {} : { headerPrefix: scenario.header_prefix }),
    ...(scenario.api_version === undefined ? {} : { apiVersion: scenario.api_version }),
    // A file without it was written by a run with deterministic Web Crypto, the default.
    deterministicCrypto: scenario.harness?.deterministic_crypto !== false,
  })
}

/** The verdicts: the property's checkers, the named registry checkers over the trace, and trace counts. */
async function verdictsOf(
  scenario: Scenario,
  report: OneRun,
  entries: readonly TraceEntry[],
  again: () => Promise<string>,
  seedGiven: boolean,
): Promise<Verdict[]> {
  const verdicts: Verdict[] = report.violations.map((v) => ({
    name: `checker ${v.checker}`,
    ok: false,
    message: v.message,
    witness: { seq: v.witness, entries: v.entries.slice(0, 5) },
  }))
  if (verdicts.length === 0) verdicts.push({ name: `${scenario.harness?.flow} checkers`, ok: true, message: 'no violation' })
  const recorded = /trace hash ([0-9a-f]{16,})/.exec(scenario.description ?? '')?.[1]
  if (recorded !== undefined && !seedGiven)
    verdicts.push({
      name: 'reproduces the recorded trace hash',
      ok: recorded === report.traceHash,
      message: recorded === report.traceHash ? `trace hash ${recorded}` : `recorded ${recorded}, got ${report.traceHash}`,
    })
  for (const name of scenario.expectations.checkers) {
    if (name === 'deterministic') {
      const second = await again()
      verdicts.push({
        name: 'checker deterministic',
        ok: second === report.traceHash,
        message:
          second === report.traceHash
            ? `trace hash ${report.traceHash.slice(0, 16)}... reproduced`
            : `a second run with the same seed produced a different trace (${report.traceHash.slice(0, 16)} then ${second.slice(0, 16)})`,
      })
      continue
    }
    const checker = checkerRegistry.get(name)
    if (checker === undefined) {
      verdicts.push({ name: `checker ${name}`, ok: false, message: `no checker named '${name}'` })
      continue
    }
    verdicts.push(await verdictOf(checker, { entries, requests: [], deliveries: [] }))
  }
  for (const t of scenario.expectations.trace ?? []) {
    const n = entries.filter((e) => e.kind === t.kind).length
    verdicts.push({ name: `trace '${t.kind}'`, ok: countHolds(n, t.count), message: `${n} (expected ${showCount(t.count)})` })
  }
  return verdicts
}

/**
 * Runs a flow scenario: the workload's steps as the property's flow program (`harness.flow`:
 * `fulfilment`, `subscription_mirror`, `dunning` or `thin_events`) against the scenario's client,
 * through the same runner as the property, so it reaches the same trace hash as a generated run
 * of that program. The property's violations, the `expectations.checkers` (`deterministic` runs it
 * again) and `expectations.trace` counts are the verdicts.
 *
 * @example
 * const result = await runFlowScenario(loadScenarioFile('scenarios/fulfilment-races.yaml'), { baseDir: 'scenarios' })
 */
export async function runFlowScenario(scenario: Scenario, options: FlowScenarioOptions): Promise<RunResult> {
  const seed = Number(options.seed ?? scenario.seed)
  if (!Number.isInteger(seed))
    throw new MissingSubjectError(`a flow scenario runs with an integer seed, got '${String(options.seed ?? scenario.seed)}'`)
  const factory = await flowClientOf(
    scenario.harness?.flow as FlowScenarioProperty,
    scenario.harness?.client,
    options.client,
    options.baseDir,
  )
  const steps: StepRecord[] = []
  const faults: FaultDecision[] = []
  let entries: readonly TraceEntry[] = []
  const report = await runOnce(scenario, factory, seed, {
    onStep: (record, decided) => {
      steps.push(record)
      faults.push(...decided)
      options.onStep?.(record, [], decided)
    },
    onTrace: (all) => {
      entries = all
    },
    ...(options.onSimulator === undefined ? {} : { onSimulator: options.onSimulator }),
  })
  options.onTrace?.(entries)
  const again = async () => (await runOnce(scenario, factory, seed, {})).traceHash
  const verdicts = await verdictsOf(scenario, report, entries, again, options.seed !== undefined)
  return {
    scenario: scenario.name,
    description: scenario.description ?? '',
    seed: String(seed),
    start: steps[0]?.at ?? entries[0]?.at ?? 0,
    end: entries[entries.length - 1]?.at ?? 0,
    steps,
    requests: [],
    faults,
    deliveries: [],
    markers: [],
    verdicts,
    traceHash: report.traceHash,
    traceLength: entries.length,
    ok: verdicts.every((v) => v.ok),
    ...(report.coverage === undefined ? {} : { coverage: report.coverage }),
  }
}
