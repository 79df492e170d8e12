import fc from 'fast-check'
import type { FaultKind, FaultsInput } from '#faults/index.js'
import type { Violation } from './checkers/violation.js'
import { type ReplayHint, replayCommand, replayReported } from './failure-report.js'
import {
  type UsageWorkload,
  usageFaultKinds,
  usageProgram,
  type WebhookWorkload,
  webhookFaultKindsFor,
  webhookProgram,
} from './fast-check/arbitraries.js'
import { refuseArgument } from './refuse-argument.js'
import { reproducedReport } from './reproduced-report.js'
import { describeProgram, type Program } from './run/program.js'
import { executeProgram, type RunOptions as HarnessRunOptions, type RunOptions } from './run/run-program.js'
import { scenarioOf, writeScenarioFile } from './run/scenario-file.js'
import { type SimulatorChoice, simulatorChoiceOf } from './run/simulator-choice.js'
import type { UsageReporterFactory, WebhookReceiverFactory } from './subjects.js'
import {
  HarnessInputError,
  validateCheckOptions,
  validateFactory,
  validateProgram,
  validateRunOptions,
} from './validate-input.js'
import { parallelRunsFor } from './workers/parallel-runs.js'
import type { WorkersOption } from './workers/workers-option.js'

/**
 * A property run found violations; `message` lists the program and the witnesses, and the command
 * that runs the failing test again (`replay`; the property's own seed and path are printed by
 * fast-check beside it).
 */
export class PropertyViolation extends Error {
  /** The one-line command that runs the failing test again. */
  readonly replay: string
  constructor(
    readonly program: Program,
    readonly violations: readonly Violation[],
    readonly traceHash: string,
  ) {
    const replay = replayCommand()
    super(
      `${violations.length} violation(s):\n${violations
        .slice(0, 5)
        .map((v) => `  [${v.checker}] ${v.message} (trace entries ${v.witness.join(', ')})`)
        .join('\n')}\nprogram:\n${describeProgram(program)}\ntrace hash ${traceHash}\nreplay: ${replay}`,
    )
    this.name = 'PropertyViolation'
    this.replay = replay
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
export async function assertRun(program: Program, options: HarnessRunOptions): Promise<void> {
  validateProgram('assertRun', program)
  validateRunOptions('assertRun', options)
  const report = await executeProgram('assertRun', program, options)
  if (report.violations.length > 0) throw new PropertyViolation(program, report.violations, report.traceHash)
}

/**
 * The shape of the generated workloads of a ready-made check: program length and faults, and the
 * usage (`maxUnits`, `customers`) or webhook (`objects`, `maxBurst`, `lateRedelivery`,
 * `attackers`, `forgeries`) workload options. Every key is optional; the defaults are the widest.
 */
export interface WorkloadOptions extends UsageWorkload, WebhookWorkload {
  /** Most steps in a program (default 12). */
  readonly maxSteps?: number
  /** Most scheduled faults in a program (default 4). */
  readonly maxFaults?: number
  /** Fault kinds the schedule draws from (default every kind that acts on the subject). */
  readonly faultKinds?: readonly FaultKind[]
}

/**
 * Settings of a ready-made property check, with the simulator options of its runs
 * (`SimulatorChoice`: `headerPrefix`, `apiVersion`, `simOptions`, `base`).
 */
export interface CheckOptions extends SimulatorChoice {
  readonly numRuns?: number
  /** fast-check seed; fixed by default so a CI run is reproducible. */
  readonly seed?: number
  /** Fault rates added to each program's schedule. Default: none (the schedule alone). */
  readonly faults?: Omit<FaultsInput, 'schedule'>
  /** Where to write the counterexample's scenario file. Default: none written. */
  readonly scenarioDir?: string
  /** Name of the subject, for the scenario file. */
  readonly name?: string
  /** Most steps in a program; same as `workload.maxSteps`. */
  readonly maxSteps?: number
  /** The shape of the generated workloads (sizes, customers, run length, attackers). */
  readonly workload?: WorkloadOptions
  /**
   * Worker threads that share the runs (default one: this thread), with the same first failing
   * run, shrunk counterexample and report as in one thread. A factory of your own is reached
   * through the module that exports it: `{ count: 2, module: new URL('./my-receiver.ts', import.meta.url) }`.
   */
  readonly workers?: WorkersOption
}

/** The outcome of a ready-made property check. */
export interface CheckResult {
  readonly ok: boolean
  readonly numRuns: number
  /** When the property failed: the seed and the command that runs the failing test again, and the counterexample file (also printed). */
  readonly seed?: number
  readonly replay?: ReplayHint
  /** The shrunk counterexample, its violations and scenario file, when the property failed. */
  readonly counterexample?: Program
  readonly violations?: readonly Violation[]
  readonly scenarioFile?: string
  readonly traceHash?: string
}

/** Runs the property (in this thread or on `workers`) and shrinks a failure: the run count and the 1-minimal program. */
async function search(
  api: string,
  arb: fc.Arbitrary<Program>,
  run: RunOptions,
  options: CheckOptions,
): Promise<{ numRuns: number; program?: Program }> {
  const { reporter, webhook, ...shared } = run
  const remote = { factory: reporter ?? webhook, subject: { kind: reporter ? ('usage' as const) : ('webhook' as const) } }
  const holds = async (p: Program) => (await executeProgram(api, p, run)).violations.length === 0
  const lanes = await parallelRunsFor(api, options.workers, remote, shared, holds)
  try {
    const params = { numRuns: options.numRuns ?? 50, seed: options.seed ?? 42 }
    const details = lanes
      ? await lanes.check(arb, params)
      : await fc.check(fc.asyncProperty(arb, holds), { ...params, endOnFailure: false })
    if (!details.failed || details.counterexample === null) return { numRuns: details.numRuns }
    // A subject that broke its contract (a bad factory result) is a usage error, not a counterexample.
    if (details.errorInstance instanceof HarnessInputError) throw details.errorInstance
    const fails = async (p: Program) => {
      try {
        return (await executeProgram(api, p, run)).violations.length > 0
      } catch {
        return false
      }
    }
    return {
      numRuns: details.numRuns,
      program: await minimiseProgram(details.counterexample[0], lanes?.fails ?? fails, lanes?.ahead),
    }
  } finally {
    await lanes?.close()
  }
}

async function check(api: string, arb: fc.Arbitrary<Program>, subjects: RunOptions, options: CheckOptions): Promise<CheckResult> {
  const run: RunOptions = {
    ...subjects,
    ...simulatorChoiceOf(options),
    ...(options.faults === undefined ? {} : { faults: options.faults }),
  }
  const { numRuns, program } = await search(api, arb, run, options)
  if (program === undefined) return { ok: true, numRuns }
  const report = await reproducedReport('harness.not_reproduced', () => executeProgram(api, program, run))
  let scenarioFile: string | undefined
  if (options.scenarioDir !== undefined) {
    scenarioFile = writeScenarioFile(
      options.scenarioDir,
      scenarioOf(program, {
        name: options.name ?? 'counterexample',
        ...(options.name ? { subject: options.name, subjectKind: subjects.reporter ? 'reporter' : 'webhook' } : {}),
        faults: options.faults,
        traceHash: report.traceHash,
        headerPrefix: options.headerPrefix ?? options.simOptions?.headerPrefix,
        apiVersion: options.apiVersion ?? options.simOptions?.apiVersion,
      }),
    )
  }
  return {
    ok: false,
    ...replayReported(api, options.seed ?? 42, { ...report, ...(scenarioFile ? { scenarioFile } : {}) }),
    numRuns,
    counterexample: program,
    violations: report.violations,
    traceHash: report.traceHash,
    ...(scenarioFile ? { scenarioFile } : {}),
  }
}

/** What minimisation needs of a program: its steps, and faults that name the step they come before. */
export interface MinimisableProgram {
  readonly steps: readonly unknown[]
  readonly faults: readonly { readonly step: number; readonly after?: number | undefined }[]
}

/** `p` without step `i`: later faults shift with their steps; the dropped step's faults move to the next step. */
function dropStep<P extends MinimisableProgram>(p: P, i: number): P {
  const steps = p.steps.filter((_, k) => k !== i)
  const faults = p.faults.map((f) => (f.step > i + 1 ? { ...f, step: f.step - 1 } : f)).filter((f) => f.step <= steps.length)
  return { ...p, steps, faults }
}

const dropFault = <P extends MinimisableProgram>(p: P, j: number): P => ({ ...p, faults: p.faults.filter((_, k) => k !== j) })

/** `p` with fault `j` letting one request fewer through (`after`), none at 0; `p` itself when it lets none. */
function lowerAfter<P extends MinimisableProgram>(p: P, j: number): P {
  const f = p.faults[j]
  if (f === undefined || (f.after ?? 0) <= 0) return p
  const { after, ...rest } = f
  const lowered = (after ?? 0) > 1 ? { ...rest, after: (after ?? 0) - 1 } : rest
  return { ...p, faults: p.faults.map((g, k) => (k === j ? lowered : g)) }
}

/** The candidates still to try in this pass if none of them fails, from index `from` down. */
function upcoming<P extends MinimisableProgram>(best: P, from: number, drop: (p: P, i: number) => P): P[] {
  const next: P[] = []
  for (let i = from; i >= 0; i--) next.push(drop(best, i))
  return next
}

/**
 * Greedy one-at-a-time minimisation after fast-check's shrinking: drops any step (the last one
 * included, which an array shrinker with a minimum length cannot) and any fault whose removal keeps
 * the program failing, and lets a fault's `after` through one request fewer, until no single change
 * does. Deterministic. `ahead`, when given, is told
 * the candidates about to be tried, in order, so they can run meanwhile (worker threads); the
 * walk is the same.
 *
 * @example
 * const smaller = await minimiseProgram(program, async (p) => (await runProgram(p, opts)).violations.length > 0)
 */
export async function minimiseProgram<P extends MinimisableProgram>(
  program: P,
  fails: (p: P) => Promise<boolean>,
  ahead?: (next: readonly P[]) => void,
): Promise<P> {
  refuseArgument('minimiseProgram', 'program', program, 'object')
  refuseArgument('minimiseProgram', "program's steps", program.steps, 'array')
  refuseArgument('minimiseProgram', "program's faults", program.faults, 'array')
  refuseArgument('minimiseProgram', 'fails', fails, 'function')
  let best = program
  for (let changed = true; changed; ) {
    changed = false
    for (let i = best.steps.length - 1; i >= 0 && best.steps.length > 1; i--) {
      if (i >= best.steps.length) continue
      ahead?.(upcoming(best, i, dropStep))
      const candidate = dropStep(best, i)
      if (await fails(candidate)) {
        best = candidate
        changed = true
      }
    }
    for (let j = best.faults.length - 1; j >= 0; j--) {
      ahead?.(upcoming(best, j, dropFault))
      const candidate = dropFault(best, j)
      if (await fails(candidate)) {
        best = candidate
        changed = true
      }
    }
    // A fault that lets requests through (`after`) lets as few as still fail.
    for (let j = best.faults.length - 1; j >= 0; j--) {
      const candidate = lowerAfter(best, j)
      if (candidate !== best && (await fails(candidate))) {
        best = candidate
        changed = true
      }
    }
  }
  return best
}

/**
 * Ready-made property for a usage reporter: "every acknowledged usage is billed exactly once"
 * (and every usage is eventually acknowledged, the session is refreshed, 429s are backed off),
 * under generated workloads and fault schedules. The counterexample is shrunk.
 *
 * @example
 * const result = await checkUsageReporter(myReporter, { numRuns: 100, headerPrefix: 'Stripe' })
 * expect(result.ok).toBe(true)
 */
export async function checkUsageReporter(reporter: UsageReporterFactory, options: CheckOptions = {}): Promise<CheckResult> {
  validateFactory('checkUsageReporter', 'reporter factory', reporter, '{ report }')
  validateCheckOptions('checkUsageReporter', options)
  const w = options.workload ?? {}
  const arb = usageProgram({
    ...programShape(options, usageFaultKinds),
    workload: {
      ...(w.maxUnits === undefined ? {} : { maxUnits: w.maxUnits }),
      ...(w.customers === undefined ? {} : { customers: w.customers }),
    },
  })
  return check('checkUsageReporter', arb, { reporter }, options)
}

function programShape(options: CheckOptions, kinds: readonly FaultKind[]) {
  const w = options.workload ?? {}
  const maxSteps = w.maxSteps ?? options.maxSteps
  return {
    faultKinds: w.faultKinds ?? kinds,
    ...(maxSteps === undefined ? {} : { maxSteps }),
    ...(w.maxFaults === undefined ? {} : { maxFaults: w.maxFaults }),
  }
}

/**
 * Ready-made property for a webhook receiver: "the receiver's side effects happen once per event,
 * whatever the order, the duplicates and the redeliveries" (plus: final state is the latest state,
 * genuine deliveries are accepted on the raw body, replays and forgeries cause nothing, answers
 * come before slow work), over long runs with bursts, late resends and forged deliveries.
 *
 * The receiver is sent snapshot payment intent events: each payment intent of a run goes
 * `payment_intent.created` (status `requires_payment_method`), then `payment_intent.processing`
 * (`processing`), then `payment_intent.succeeded` (`succeeded`), one event per state, delivered in
 * any order, duplicated, late or replayed; `state()` must end at each one's latest status. Pass
 * `headerPrefix: 'Stripe'` for a receiver that verifies `Stripe-Signature` with the official client.
 *
 * @example
 * const result = await checkWebhookReceiver(myReceiver, { numRuns: 100, headerPrefix: 'Stripe' })
 * const wide = await checkWebhookReceiver(myReceiver, { workload: { maxBurst: 400, attackers: ['forge'] } })
 */
export async function checkWebhookReceiver(receiver: WebhookReceiverFactory, options: CheckOptions = {}): Promise<CheckResult> {
  return checkReceiverAs('checkWebhookReceiver', receiver, options)
}

/**
 * @deprecated Use `checkWebhookReceiver` (the same check; this name stays so existing code compiles).
 *
 * @example
 * const result = await checkWebhookHandler(myReceiver, { numRuns: 100 })
 */
export async function checkWebhookHandler(handler: WebhookReceiverFactory, options: CheckOptions = {}): Promise<CheckResult> {
  return checkReceiverAs('checkWebhookHandler', handler, options)
}

async function checkReceiverAs(api: string, receiver: WebhookReceiverFactory, options: CheckOptions): Promise<CheckResult> {
  validateFactory(api, 'receiver factory', receiver, '{ handler, state }')
  validateCheckOptions(api, options)
  const w = options.workload ?? {}
  const workload: WebhookWorkload = {
    ...(w.objects === undefined ? {} : { objects: w.objects }),
    ...(w.maxBurst === undefined ? {} : { maxBurst: w.maxBurst }),
    ...(w.lateRedelivery === undefined ? {} : { lateRedelivery: w.lateRedelivery }),
    ...(w.attackers === undefined ? {} : { attackers: w.attackers }),
    ...(w.forgeries === undefined ? {} : { forgeries: w.forgeries }),
  }
  const arb = webhookProgram({ ...programShape(options, webhookFaultKindsFor(w.attackers)), workload })
  return check(api, arb, { webhook: receiver }, options)
}
