import type { FaultsInput } from '#faults/index.js'
import type { Simulator } from '#simulator/index.js'
import type { Violation } from '../checkers/violation.js'
import type { UsageReporterFactory, WebhookReceiverFactory } from '../subjects.js'
import type { SimulatorChoice } from './simulator-choice.js'

/**
 * The user's code under test: a usage reporter, a webhook handler, or both.
 *
 * @example
 * const subjects: Subjects = { reporter: referenceUsageReporter }
 */
export interface Subjects {
  readonly reporter?: UsageReporterFactory | undefined
  readonly webhook?: WebhookReceiverFactory | undefined
}

/**
 * How a property program runs: its subjects, fault rates, budgets, and where it starts from (the
 * simulator options of `SimulatorChoice`: `headerPrefix`, `apiVersion`, `simOptions`, `base`).
 *
 * @example
 * const options: RunOptions = { reporter: referenceUsageReporter, faults: { preset: 'realistic' } }
 */
export interface RunOptions extends Subjects, SimulatorChoice {
  /** Fault rates (`{ preset: 'realistic' }`, `{ swarm: true }`, `policy.rates`); the program adds its schedule. */
  readonly faults?: Omit<FaultsInput, 'schedule'> | undefined
  /** Virtual ms a single `report` may take before it counts as hung. Default 2 hours. */
  readonly reportBudgetMs?: number | undefined
  /** Virtual ms the run continues after the last step (retries, processing, receiver work). Default 4 hours. */
  readonly drainMs?: number | undefined
  /**
   * Default true: the scenario's setup (`setUp`: the meter, price, customers, subscriptions and
   * destinations, through `sim.fetch`) is made once per combination of subjects (and `base`), and
   * every run forks that prepared simulator. False: every run builds and sets up a simulator of
   * its own. Same program, same trace hash.
   */
  readonly fork?: boolean | undefined
}

/**
 * What one run produced.
 *
 * @example
 * const { violations, traceHash } = await runProgram(program, options)
 */
export interface RunReport {
  readonly sim: Simulator
  readonly violations: readonly Violation[]
  /** Fault labels that fired, with counts. */
  readonly fired: Readonly<Record<string, number>>
  readonly traceHash: string
}
