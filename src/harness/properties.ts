import fc from 'fast-check'
import type { FaultsInput } from '#faults/fault-policy.js'
import type { Violation } from './checkers/violation.js'
import { usageProgram, webhookProgram } from './fast-check/arbitraries.js'
import { describeProgram, type Program } from './run/program.js'
import { executeProgram, type RunOptions } from './run/run-program.js'
import { scenarioOf, writeScenarioFile } from './run/scenario-file.js'
import type { UsageReporterFactory, WebhookHandlerFactory } from './subjects.js'
import {
  HarnessInputError,
  validateCheckOptions,
  validateFactory,
  validateProgram,
  validateRunOptions,
} from './validate-input.js'

/** A property run found violations; `message` lists the program and the witnesses. */
export class PropertyViolation extends Error {
  constructor(
    readonly program: Program,
    readonly violations: readonly Violation[],
    readonly traceHash: string,
  ) {
    super(
      `${violations.length} violation(s):\n${violations
        .slice(0, 5)
        .map((v) => `  [${v.checker}] ${v.message} (trace entries ${v.witness.join(', ')})`)
        .join('\n')}\nprogram:\n${describeProgram(program)}\ntrace hash ${traceHash}`,
    )
    this.name = 'PropertyViolation'
  }
}

/**
 * Runs one program and throws a `PropertyViolation` when a checker finds anything: the body of a
 * `test.prop` (from `@fast-check/vitest`) or of an `fc.asyncProperty`.
 *
 * @example
 * test.prop([usageProgram()], { numRuns: 50 })('bills every acknowledged usage once', (p) =>
 *   assertRun(p, { reporter: myReporter, faults: { preset: 'realistic' } }))
 */
export async function assertRun(program: Program, options: RunOptions): Promise<void> {
  validateProgram('assertRun', program)
  validateRunOptions('assertRun', options)
  const report = await executeProgram('assertRun', program, options)
  if (report.violations.length > 0) throw new PropertyViolation(program, report.violations, report.traceHash)
}

/** Settings of a ready-made property check. */
export interface CheckOptions {
  readonly numRuns?: number
  /** fast-check seed; fixed by default so a CI run is reproducible. */
  readonly seed?: number
  /** Fault rates added to each program's schedule. Default: none (the schedule alone). */
  readonly faults?: Omit<FaultsInput, 'schedule'>
  /** Where to write the counterexample's scenario file. Default: none written. */
  readonly scenarioDir?: string
  /** Name of the subject, for the scenario file. */
  readonly name?: string
  readonly maxSteps?: number
}

/** The outcome of a ready-made property check. */
export interface CheckResult {
  readonly ok: boolean
  readonly numRuns: number
  /** The shrunk counterexample, its violations and scenario file, when the property failed. */
  readonly counterexample?: Program
  readonly violations?: readonly Violation[]
  readonly scenarioFile?: string
  readonly traceHash?: string
}

async function check(api: string, arb: fc.Arbitrary<Program>, subjects: RunOptions, options: CheckOptions): Promise<CheckResult> {
  const numRuns = options.numRuns ?? 50
  const run: RunOptions = { ...subjects, ...(options.faults === undefined ? {} : { faults: options.faults }) }
  const details = await fc.check(
    fc.asyncProperty(arb, async (p) => {
      const report = await executeProgram(api, p, run)
      return report.violations.length === 0
    }),
    { numRuns, seed: options.seed ?? 42, endOnFailure: false },
  )
  if (!details.failed || details.counterexample === null) return { ok: true, numRuns: details.numRuns }
  // A subject that broke its contract (a bad factory result) is a usage error, not a counterexample.
  if (details.errorInstance instanceof HarnessInputError) throw details.errorInstance
  const program = details.counterexample[0]
  const report = await executeProgram(api, program, run)
  let scenarioFile: string | undefined
  if (options.scenarioDir !== undefined) {
    scenarioFile = writeScenarioFile(
      options.scenarioDir,
      scenarioOf(program, {
        name: options.name ?? 'counterexample',
        ...(options.name ? { subject: options.name, subjectKind: subjects.reporter ? 'reporter' : 'webhook' } : {}),
        faults: options.faults,
        traceHash: report.traceHash,
      }),
    )
  }
  return {
    ok: false,
    numRuns: details.numRuns,
    counterexample: program,
    violations: report.violations,
    traceHash: report.traceHash,
    ...(scenarioFile ? { scenarioFile } : {}),
  }
}

/**
 * Ready-made property for a usage reporter: "every acknowledged usage is billed exactly once"
 * (and every usage is eventually acknowledged, the session is refreshed, 429s are backed off),
 * under generated workloads and fault schedules. The counterexample is shrunk.
 *
 * @example
 * const result = await checkUsageReporter(myReporter, { numRuns: 100 })
 * expect(result.ok).toBe(true)
 */
export async function checkUsageReporter(reporter: UsageReporterFactory, options: CheckOptions = {}): Promise<CheckResult> {
  validateFactory('checkUsageReporter', 'reporter factory', reporter, '{ report }')
  validateCheckOptions('checkUsageReporter', options)
  const arb = usageProgram(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps })
  return check('checkUsageReporter', arb, { reporter }, options)
}

/**
 * Ready-made property for a webhook handler: "the handler's side effects happen once per event,
 * whatever the order and the duplicates" (plus: final state is the latest state, genuine
 * deliveries are accepted on the raw body, replays are refused, answers come before slow work).
 *
 * @example
 * const result = await checkWebhookHandler(myHandler, { numRuns: 100 })
 */
export async function checkWebhookHandler(handler: WebhookHandlerFactory, options: CheckOptions = {}): Promise<CheckResult> {
  validateFactory('checkWebhookHandler', 'subject factory', handler, '{ handler, state }')
  validateCheckOptions('checkWebhookHandler', options)
  const arb = webhookProgram(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps })
  return check('checkWebhookHandler', arb, { webhook: handler }, options)
}
