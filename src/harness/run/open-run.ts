import type { FaultEntry } from '#faults/index.js'
import { continueAs, type Simulator } from '#simulator/index.js'
import type { StepSpec } from '../scenario/schema.js'
import { eachStep, executeStep } from '../steps/execute-step.js'
import { SUBJECT_RECEIVER, toStepSpec } from '../steps/program-steps.js'
import type { StepContext } from '../steps/step-context.js'
import { StepFailure } from '../steps/step-context.js'
import { stepKindOf } from '../steps/step-kinds.js'
import { labelOf } from '../steps/step-label.js'
import { finishRun } from './finish-run.js'
import { harnessAction } from './harness-actions.js'
import { type Step, stepLabel } from './program.js'
import type { RunOptions, RunReport } from './run-options.js'
import { newRunState, type RunState } from './run-state.js'
import { needsOf, type PreparedRun, type Setup, setUp, setupSimulator } from './setup.js'
import { createStepRunner, type MountedReceiver, type StepRunner, type StepRunnerOptions } from './step-runner.js'
import { wireSubjects } from './wire-subjects.js'

/**
 * One harness run in progress: a simulator, the subjects wired to it, and the steps so far. Model
 * commands drive it step by step; `runProgram` drives it from a program.
 *
 * @example
 * const run = startRun(7, { reporter: referenceUsageReporter })
 * await run.exec({ kind: 'report', units: 2, value: 1 })
 * const report = await run.finish()
 */
export interface HarnessRun {
  readonly sim: Simulator
  /** The step runner the run executes on (its step records and fault decisions). */
  readonly runner: StepRunner
  /** @deprecated The old name of `runner`. */
  readonly engine: StepRunner
  /** Number of steps executed. */
  readonly steps: number
  /** Settles once the setup is made and the subjects are wired (`exec` and `finish` wait for it). */
  readonly ready: Promise<void>
  /** Executes one generated step. */
  exec(step: Step): Promise<void>
  /** Executes steps of the one step vocabulary (a `repeat` counts its inner steps). */
  execSpec(step: StepSpec): Promise<void>
  finish(): Promise<RunReport>
}

/** A receiver that is not there: a `receiver` step in a run without a webhook subject does nothing. */
const absent: MountedReceiver = { name: SUBJECT_RECEIVER, url: '', down: false, set: () => undefined }

/** The step context of a property run: requests are not part of a program; actions act on the subjects. */
function contextOf(state: RunState): StepContext {
  return {
    sim: state.sim,
    runner: state.runner,
    vars: { platform: { id: state.sim.platform.id } },
    send() {
      return Promise.reject(new StepFailure('a property run sends no request steps: its subjects send them'))
    },
    act(action, args) {
      return harnessAction(state, action, args)
    },
    receiver(name) {
      return state.runner.receiver(name) ?? (name === SUBJECT_RECEIVER ? absent : undefined)
    },
    adminArg(value) {
      return value
    },
  }
}

/** The simulator of a run, from a prepared one (forked) or built and set up now. */
function simulatorOf(options: RunOptions, next: Parameters<Simulator['fork']>[0] & object, start?: PreparedRun) {
  if (start !== undefined) return { sim: start.sim.fork(next), made: Promise.resolve(start.setup) }
  const fresh = setupSimulator(options)
  const made = setUp(fresh, needsOf(options)).then((setup: Setup) => {
    continueAs(fresh, next)
    return setup
  })
  return { sim: fresh, made }
}

/**
 * `startRun` without validating its input (the caller did), naming `api` when a subject misbehaves.
 *
 * @example
 * const run = openRun('checkUsageReporter', 1, { reporter }, [])
 */
export function openRun(
  api: string,
  seed: number,
  options: RunOptions,
  schedule: readonly FaultEntry[] = [],
  runnerOptions: StepRunnerOptions = {},
  start?: PreparedRun,
): HarnessRun {
  const { sim, made } = simulatorOf(options, { seed, faults: { ...options.faults, schedule: [...schedule] } }, start)
  const runner = createStepRunner(sim, runnerOptions)
  const state = newRunState(api, sim, runner, options)
  const ready = made.then((setup) => {
    state.setup = setup
    wireSubjects(state)
  })
  // Awaited by every step and by `finish`; a caller that never steps gets no unhandled rejection.
  ready.catch(() => undefined)
  const context = contextOf(state)
  const run = (spec: StepSpec, label: string) => runner.run(stepKindOf(spec), label, () => executeStep(context, spec))
  return {
    sim,
    runner,
    engine: runner,
    ready,
    get steps() {
      return runner.count
    },
    async exec(step) {
      await ready
      // The generated step's own label (the scenario-file vocabulary, its numbers as written).
      await run(toStepSpec(step), stepLabel(step))
    },
    async execSpec(spec) {
      await ready
      await eachStep([spec], async (s) => void (await run(s, labelOf(s, context.vars))))
    },
    async finish() {
      await ready
      return finishRun(state)
    },
  }
}
