import { dirname, resolve } from 'node:path'
import {
  isHarnessScenario,
  MissingSubjectError,
  replayHarnessScenario,
  type SubjectModule,
} from '#harness/scenario/harness-replay.js'
import { loadScenarioFile } from '#harness/scenario/load-scenario.js'
import type { RunResult } from '#harness/scenario/run-result.js'
import { runScenario } from '#harness/scenario/run-scenario.js'
import type { TraceEntry } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import { UsageError } from '../usage-error.js'
import { captureAnswers, type KeptAnswer } from './answer-capture.js'
import { buildWalkthrough } from './build-walkthrough.js'
import type { Walkthrough } from './walkthrough.js'

/** What the harness replay saw of the run as it went: where each step's entries end, and the answers. */
function follower() {
  const bounds: number[] = []
  let answers: ReturnType<typeof captureAnswers> | undefined
  let sim: Simulator | undefined
  return {
    bounds,
    onSimulator(run: Simulator) {
      sim = run
      bounds.push(run.trace.length)
      answers = captureAnswers(run)
    },
    onStep() {
      if (sim !== undefined) bounds.push(sim.trace.length)
    },
    async answers(): Promise<readonly KeptAnswer[]> {
      await answers?.settled()
      return answers?.list() ?? []
    },
  }
}

/**
 * Replays a counterexample file (or any scenario file) to regenerate what happened, and turns it
 * into the dashboard's step-through. The file keeps only the program, seed and faults; the replay
 * is deterministic, so what it shows is what the failing run did (its trace hash is checked
 * against the one the file recorded). The run is followed step by step, with what the app
 * answered to each delivery; a billing flow's entries, whose runner does not hand out its
 * simulator, are placed by virtual time.
 *
 * @example
 * const walk = await replayWalkthrough('.service-sim/counterexamples/no-dedup-7.json')
 */
export async function replayWalkthrough(file: string, client?: unknown): Promise<Walkthrough> {
  const path = resolve(file)
  const scenario = loadScenarioFile(path)
  const baseDir = dirname(path)
  let entries: readonly TraceEntry[] = []
  const onTrace = (all: readonly TraceEntry[]) => {
    entries = all
  }
  let result: RunResult
  const follow = follower()
  if (!isHarnessScenario(scenario)) {
    result = await runScenario(scenario, {
      baseDir,
      onTrace,
      onSimulator: follow.onSimulator,
      onStep: follow.onStep,
      ...(client === undefined ? {} : { client: client as never }),
    })
    return buildWalkthrough({ file, result, entries, bounds: follow.bounds, answers: await follow.answers() })
  }
  try {
    result = await replayHarnessScenario(scenario, {
      baseDir,
      subjects: client as SubjectModule | undefined,
      onTrace,
      onSimulator: follow.onSimulator,
      onStep: follow.onStep,
    })
  } catch (error) {
    if (error instanceof MissingSubjectError) throw new UsageError(`${file}: ${error.message}`)
    throw error
  }
  return buildWalkthrough({ file, result, entries, bounds: follow.bounds, answers: await follow.answers() })
}
