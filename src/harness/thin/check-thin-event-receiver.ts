import fc from 'fast-check'
import type { Violation } from '../checkers/violation.js'
import { type ReplayHint, replayReported } from '../failure-report.js'
import { refuseArgument } from '../refuse-argument.js'
import { HarnessInputError } from '../validate-input.js'
import { parallelRunsFor } from '../workers/parallel-runs.js'
import type { WorkersOption } from '../workers/workers-option.js'
import { type ThinRaceProgram, thinRaceProgram } from './thin-race-program.js'
import { runThinRaceAs, type ThinEventReceiverFactory } from './thin-race-run.js'

/**
 * The outcome of `checkThinEventReceiver`: `ok`, the runs made, and when it failed the shrunk
 * counterexample with its violations.
 *
 * @example
 * const result: ThinCheckResult = await checkThinEventReceiver(referenceThinEventReceiver)
 */
export interface ThinCheckResult {
  readonly ok: boolean
  readonly numRuns: number
  /** When the property failed: the seed (random unless given: pass it to run the same programs) and the command that runs the failing test again (also printed). */
  readonly seed?: number
  readonly replay?: ReplayHint
  readonly counterexample?: ThinRaceProgram
  readonly violations?: readonly Violation[]
}

/**
 * Checks a thin-event receiver against fetch races: generated programs of meter error reports
 * (thin `v1.billing.meter.error_report_triggered` naming the meter), deactivations, reactivations
 * and clock moves, under delayed, reordered and duplicated deliveries, so the meter has often
 * changed again before the receiver fetches it. Every decision must be taken on the object as
 * fetched (`thin.fetched_state`). The counterexample is shrunk by fast-check.
 *
 * @example
 * const result = await checkThinEventReceiver(referenceThinEventReceiver, { numRuns: 50 })
 * result.ok // true; with staleThinEventReceiver, false
 */
export async function checkThinEventReceiver(
  receiver: ThinEventReceiverFactory,
  options: {
    readonly numRuns?: number
    readonly seed?: number
    readonly maxSteps?: number
    /** Worker threads that share the runs, with the one-thread answer for the same seed (see the workers guide). */
    readonly workers?: WorkersOption
  } = {},
): Promise<ThinCheckResult> {
  refuseArgument('checkThinEventReceiver', 'options', options, 'options')
  if (options.seed !== undefined) refuseArgument('checkThinEventReceiver', "option 'seed'", options.seed, 'integer')
  if (options.maxSteps !== undefined) refuseArgument('checkThinEventReceiver', "option 'maxSteps'", options.maxSteps, 'count')
  if (typeof receiver !== 'function') throw new HarnessInputError('checkThinEventReceiver: receiver must be a factory function')
  const numRuns = options.numRuns ?? 100
  if (!Number.isInteger(numRuns) || numRuns < 1)
    throw new HarnessInputError(`checkThinEventReceiver: option 'numRuns' must be a positive integer, got ${String(numRuns)}`)
  const holds = async (program: ThinRaceProgram) =>
    (await runThinRaceAs('checkThinEventReceiver', program, receiver)).violations.length === 0
  const remote = { factory: receiver, subject: { kind: 'thin' as const } }
  const lanes = await parallelRunsFor('checkThinEventReceiver', options.workers, remote, {}, holds)
  let details: fc.RunDetails<[ThinRaceProgram]>
  try {
    // The lanes draw the values ahead, so they need the seed fast-check would otherwise pick.
    details = lanes
      ? await lanes.check(thinRaceProgram(options.maxSteps), {
          numRuns,
          seed: options.seed ?? fc.readConfigureGlobal().seed ?? 42,
        })
      : await fc.check(fc.asyncProperty(thinRaceProgram(options.maxSteps), holds), {
          numRuns,
          ...(options.seed === undefined ? {} : { seed: options.seed }),
        })
  } finally {
    await lanes?.close()
  }
  if (details.errorInstance !== null && details.errorInstance instanceof HarnessInputError) throw details.errorInstance
  if (!details.failed || details.counterexample === null) return { ok: true, numRuns: details.numRuns }
  const [counterexample] = details.counterexample
  const { violations } = await runThinRaceAs('checkThinEventReceiver', counterexample, receiver)
  const replay = replayReported('checkThinEventReceiver', details.seed, { violations })
  return { ok: false, ...replay, numRuns: details.numRuns, counterexample, violations }
}
