import fc from 'fast-check'
import type { FaultsInput } from '#faults/index.js'
import type { Violation } from '../checkers/violation.js'
import { minimiseProgram } from '../properties.js'
import type { SimulatorChoice } from '../run/simulator-choice.js'
import { HarnessInputError } from '../validate-input.js'
import type { FlowAction } from './flow-actions.js'
import { type FlowProgram, type FlowWorkload, flowProgram } from './flow-program.js'
import { type FlowSubject, runFlow } from './flow-run.js'

/** Settings of a ready-made billing flow check (`checkSubscriptionMirror`, `checkDunning`). */
export interface FlowCheckOptions extends SimulatorChoice {
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
}

/** The outcome of a ready-made billing flow check. */
export interface FlowCheckResult {
  readonly ok: boolean
  readonly numRuns: number
  /** The shrunk (1-minimal) counterexample, when the property failed. */
  readonly counterexample?: FlowProgram
  readonly violations?: readonly Violation[]
  readonly traceHash?: string
  /** The counterexample's steps as executed. */
  readonly steps?: readonly string[]
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
export const minimiseFlow: (program: FlowProgram, fails: (p: FlowProgram) => Promise<boolean>) => Promise<FlowProgram> =
  minimiseProgram

/**
 * Runs generated billing flows against a subject, shrinks a failure and answers the result: the
 * loop every billing flow property runs on.
 *
 * @example
 * const result = await checkFlows('checkDunning', () => dunningSubject(factory, 'checkDunning'), { numRuns: 20 })
 */
export async function checkFlows(api: string, subject: () => FlowSubject, options: FlowCheckOptions): Promise<FlowCheckResult> {
  const numRuns = options.numRuns ?? 50
  if (!Number.isInteger(numRuns) || numRuns < 1)
    throw new HarnessInputError(`${api}: option 'numRuns' must be a positive integer`)
  const { numRuns: _n, seed, workload, ...run } = options
  const runOne = (p: FlowProgram) => runFlow(p, subject(), run)
  const counts = new Map<string, number>()
  let counting = true
  const details = await fc.check(
    fc.asyncProperty(flowProgram(workload), async (p) => {
      const report = await runOne(p)
      if (counting) for (const key of report.coverage) counts.set(key, (counts.get(key) ?? 0) + 1)
      // Once a run fails, fast-check shrinks: those runs are not the generation's.
      if (report.violations.length > 0) counting = false
      return report.violations.length === 0
    }),
    { numRuns, seed: seed ?? 42, endOnFailure: false },
  )
  const coverage = Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  if (!details.failed || details.counterexample === null) return { ok: true, numRuns: details.numRuns, coverage }
  if (details.errorInstance instanceof HarnessInputError) throw details.errorInstance
  const program = await minimiseFlow(details.counterexample[0], async (p) => {
    try {
      return (await runOne(p)).violations.length > 0
    } catch {
      return false
    }
  })
  const report = await runOne(program)
  return {
    ok: false,
    numRuns: details.numRuns,
    counterexample: program,
    violations: report.violations,
    traceHash: report.traceHash,
    steps: report.steps,
    coverage,
  }
}
