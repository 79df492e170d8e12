import type { TraceEntry } from '#kernel/index.js'
import { createSimulator, type Simulator, type SimulatorOptions } from '#simulator/index.js'
import { refuseArgument } from '../refuse-argument.js'
import { createStepRunner } from '../run/step-runner.js'
import { StepFailure } from '../steps/step-context.js'
import type { ScenarioClient } from './client.js'
import { isFlowScenario, runFlowScenario } from './flow-scenario.js'
import { markersOf } from './markers.js'
import { referenceClient } from './reference-client.js'
import type { FaultDecision, RequestRecord, RunResult, StepRecord } from './run-result.js'
import { newScenarioRun, type ScenarioRun } from './scenario-run.js'
import { setUpScenario } from './scenario-setup.js'
import { judgeScenario } from './scenario-verdicts.js'
import { runWorkload } from './scenario-workload.js'
import type { Scenario } from './schema.js'

export { loadClientModule } from './client-module.js'

/** How to run a scenario. */
export interface ScenarioRunOptions {
  /** Overrides the scenario's seed. */
  seed?: number | string
  /** The client under test (actions and receivers); default the reference client. */
  client?: ScenarioClient
  /** Directory that module paths in the scenario are relative to. */
  baseDir?: string
  /** Called after every executed step (the CLI prints the timeline from it). */
  onStep?: (step: StepRecord, requests: readonly RequestRecord[], faults: readonly FaultDecision[]) => void
  /** Gets the run's whole trace at the end (the report reads delivery attempts from it). */
  onTrace?: (entries: readonly TraceEntry[]) => void
  /**
   * Gets the run's simulator once it is set up, before its first step, for a reader that follows
   * the run as it goes (the dashboard's step-through). A flow scenario does not call it.
   */
  onSimulator?: (sim: Simulator) => void
}

/** @deprecated Use `ScenarioRunOptions` (the same type; `HarnessRunOptions` is what `runProgram` and `assertRun` take). */
export type RunOptions = ScenarioRunOptions

/**
 * Runs a scenario against a fresh simulator through its public surface (`sim.fetch`, `sim.admin`,
 * `sim.receivers`, `sim.clock`) and returns what happened and every verdict. Deterministic: the
 * same scenario, seed and client give the same result and trace hash in any process.
 *
 * @example
 * const result = await runScenario(loadScenarioFile('node_modules/service-sim/scenarios/usage-to-invoice.yaml'))
 * result.ok // every expectation held
 */
export async function runScenario(scenario: Scenario, options: RunOptions = {}): Promise<RunResult> {
  refuseArgument('runScenario', 'scenario', scenario, 'object')
  refuseArgument('runScenario', 'options', options, 'options')
  // A billing flow with a client under test runs on its property's own runner.
  if (isFlowScenario(scenario))
    return runFlowScenario(scenario, {
      seed: options.seed,
      client: options.client,
      baseDir: options.baseDir ?? process.cwd(),
      ...(options.onStep === undefined ? {} : { onStep: options.onStep }),
      ...(options.onTrace === undefined ? {} : { onTrace: options.onTrace }),
    })
  const run = await execute(scenario, options)
  return run.result
}

/**
 * Like `runScenario`, and also hands back the simulator in its final state (serve mode keeps
 * serving it).
 *
 * @example
 * const { sim, result } = await runScenarioOn(scenario)
 */
export function runScenarioOn(scenario: Scenario, options: RunOptions = {}): Promise<{ result: RunResult; sim: Simulator }> {
  return execute(scenario, options)
}

/** The scenario's simulator; the fault engine applies its policy and schedule, moved step by step. */
function simulatorOf(scenario: Scenario, seed: number | string): Simulator {
  return createSimulator({
    seed,
    ...(scenario.start ? { start: scenario.start } : {}),
    ...(scenario.header_prefix ? { headerPrefix: scenario.header_prefix } : {}),
    ...(scenario.api_version ? { apiVersion: scenario.api_version } : {}),
    ...(scenario.service_time ? { serviceTime: scenario.service_time } : {}),
    ...(scenario.limits === undefined ? {} : { limits: scenario.limits as SimulatorOptions['limits'] }),
    faults: scenario.faults,
  })
}

/** Setup, then the workload, then the verdicts; a failed setup is the one verdict. */
async function play(run: ScenarioRun, rerun: () => Promise<string>, ready?: (sim: Simulator) => void): Promise<void> {
  try {
    await setUpScenario(run)
  } catch (error) {
    run.verdicts.push({ name: 'setup', ok: false, message: error instanceof Error ? error.message : String(error) })
    return
  }
  ready?.(run.sim)
  try {
    await runWorkload(run)
  } catch (error) {
    if (!(error instanceof StepFailure)) throw error
  }
  await judgeScenario(run, rerun)
}

function resultOf(run: ScenarioRun, seed: number | string, start: number): RunResult {
  const { scenario, sim, runner, verdicts } = run
  const end = sim.clock.now
  return {
    scenario: scenario.name,
    description: scenario.description ?? '',
    seed: String(seed),
    start,
    end,
    steps: [...runner.steps],
    requests: run.requests,
    faults: [...runner.faults],
    deliveries: run.deliveries,
    markers: markersOf(sim, end),
    verdicts,
    traceHash: sim.trace.hash(),
    traceLength: sim.trace.length,
    ok: verdicts.every((v) => v.ok),
  }
}

async function execute(scenario: Scenario, options: RunOptions): Promise<{ result: RunResult; sim: Simulator }> {
  const seed = options.seed ?? scenario.seed
  const sim = simulatorOf(scenario, seed)
  const start = sim.clock.now
  let run: ScenarioRun | undefined
  // The one step runner (shared with property programs): steps, fault decisions, receivers, replays.
  const runner = createStepRunner(sim, {
    onStep: (record, decided) => options.onStep?.(record, run?.requests.slice(run.stepFirst) ?? [], decided),
  })
  run = newScenarioRun(scenario, sim, runner, options.client ?? referenceClient, options.baseDir ?? process.cwd())
  const rerun = async () => {
    const again = { ...scenario, expectations: { ...scenario.expectations, checkers: [] } }
    return (await execute(again, { ...options, onStep: undefined, onSimulator: undefined })).sim.trace.hash()
  }
  await play(run, rerun, options.onSimulator)
  const result = resultOf(run, seed, start)
  options.onTrace?.(sim.trace.entries())
  return { result, sim }
}
