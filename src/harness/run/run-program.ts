import type { FaultEntry } from '#faults/index.js'
import { validateProgram, validateRunOptions } from '../validate-input.js'
import { type HarnessRun, openRun } from './open-run.js'
import { preparedFor } from './prepared-runs.js'
import type { Program } from './program.js'
import type { RunOptions, RunReport } from './run-options.js'

export { type HarnessRun, openRun } from './open-run.js'
export type { RunOptions, RunReport, Subjects } from './run-options.js'
export { HARNESS_EVENT_NAME, HARNESS_RECEIVER_URL } from './setup.js'

/**
 * Starts a run on a fresh simulator with the given seed and fault schedule.
 *
 * @example
 * const run = startRun(1, { webhook: referenceWebhookReceiver }, [{ step: 1, fault: 'duplicate_delivery' }])
 */
export function startRun(seed: number, options: RunOptions, schedule: readonly FaultEntry[] = []): HarnessRun {
  validateRunOptions('startRun', options)
  validateProgram('startRun', { seed, steps: [], faults: schedule })
  return openRun('startRun', seed, options, schedule)
}

/**
 * Runs one program against the subjects and checks the history: usage (exactly once, at most once,
 * acknowledged, bounds), client behaviour (session refresh, backoff), receiver behaviour and
 * delivery outcomes. Same program and options: the same trace hash.
 *
 * @example
 * const report = await runProgram(program, { reporter: referenceUsageReporter, faults: { preset: 'realistic' } })
 * report.violations // [] for a correct client
 */
export async function runProgram(program: Program, options: RunOptions): Promise<RunReport> {
  validateProgram('runProgram', program)
  validateRunOptions('runProgram', options)
  return executeProgram('runProgram', program, options)
}

/**
 * `runProgram` without validating its input (the caller did once, not per generated program).
 *
 * @example
 * await executeProgram('checkUsageReporter', program, { reporter })
 */
export async function executeProgram(api: string, program: Program, options: RunOptions): Promise<RunReport> {
  const start = options.fork === false ? undefined : await preparedFor(options)
  const run = openRun(api, program.seed, options, program.faults, {}, start)
  for (const step of program.steps) await run.exec(step)
  return run.finish()
}
