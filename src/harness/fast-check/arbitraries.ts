import fc from 'fast-check'
import { type FaultEntry, type FaultKind, faultKinds, rateLimitReasons } from '#faults/faults-schema.js'
import type { Program, Step } from '../run/program.js'
import { HarnessInputError, validateProgramOptions } from '../validate-input.js'

/** Fault kinds that act on the usage path (requests, sessions, processing). */
export const usageFaultKinds: readonly FaultKind[] = [
  'rate_limit',
  'lock_timeout',
  'concurrent_conflict',
  'server_error',
  'indeterminate',
  'session_expiry',
  'slow_processing',
]

/** Fault kinds that act on webhook delivery. */
export const webhookFaultKinds: readonly FaultKind[] = [
  'duplicate_delivery',
  'reorder_delivery',
  'delay_delivery',
  'receiver_down',
  'receiver_up',
  'receiver_slow',
  'replay_delivery',
]

const advanceMs = fc.constantFrom(1_000, 30_000, 60_000, 300_000, 600_000)

/**
 * A usage workload step: report 1-5 units (shrinks towards 1 unit of value 1) or advance the clock.
 *
 * @example
 * fc.sample(usageStep(), 3)
 */
export function usageStep(): fc.Arbitrary<Step> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('report' as const),
        units: fc.integer({ min: 1, max: 5 }),
        value: fc.integer({ min: 1, max: 9 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: advanceMs }) },
  )
}

/**
 * A webhook workload step: emit a state change of one of three payment intents, advance the clock,
 * take the receiver down or up, roll the signing secret.
 *
 * @example
 * fc.sample(webhookStep(), 3)
 */
export function webhookStep(): fc.Arbitrary<Step> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('emit' as const), object: fc.integer({ min: 0, max: 2 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: advanceMs }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('receiver' as const), up: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('roll_secret' as const) }) },
  )
}

/**
 * One scheduled fault: which kind before which step, with its parameters. Shrinks towards step 1,
 * count 1 and no parameters.
 *
 * @example
 * fc.sample(faultEntry(['indeterminate'], 10), 1) // [{ step: 4, fault: 'indeterminate', count: 1 }]
 */
export function faultEntry(kinds: readonly FaultKind[], maxStep: number): fc.Arbitrary<FaultEntry> {
  checkKinds('faultEntry', kinds)
  if (!Number.isInteger(maxStep) || maxStep < 1)
    throw new HarnessInputError(`faultEntry: maxStep must be a positive integer, got ${String(maxStep)}`)
  return fc
    .record({
      step: fc.integer({ min: 1, max: maxStep }),
      fault: fc.constantFrom(...kinds),
      count: fc.integer({ min: 1, max: 3 }),
      reason: fc.constantFrom(...rateLimitReasons),
      stream: fc.boolean(),
    })
    .map(({ step, fault, count, reason, stream }) => {
      const entry: FaultEntry = { step, fault, count }
      if (fault === 'rate_limit') entry.reason = reason
      // Aimed at the stream endpoint, a request fault hits the usage itself rather than the session.
      if (stream && ['rate_limit', 'lock_timeout', 'concurrent_conflict', 'server_error', 'indeterminate'].includes(fault)) {
        entry.operation = 'billing.meter_event_stream'
      }
      return entry
    })
}

/**
 * Throws unless `kinds` is a non-empty list of fault kinds.
 *
 * @example
 * checkKinds('faultEntry', ['indeterminate']) // ok; ['indeterminat'] throws naming faultEntry
 */
export function checkKinds(api: string, kinds: unknown): void {
  if (!Array.isArray(kinds) || kinds.length === 0)
    throw new HarnessInputError(`${api}: fault kinds must be a non-empty array of fault kinds`)
  const bad = kinds.find((k) => !(faultKinds as readonly unknown[]).includes(k))
  if (bad !== undefined)
    throw new HarnessInputError(`${api}: unknown fault kind '${String(bad)}' (expected one of ${faultKinds.join(', ')})`)
}

export interface ProgramOptions {
  readonly step?: fc.Arbitrary<Step>
  readonly maxSteps?: number
  readonly faultKinds?: readonly FaultKind[]
  readonly maxFaults?: number
}

/**
 * A whole program: a seed, the steps and a fault schedule (at most `maxFaults`, each generated with
 * the step it comes before). Shrinking drops faults until only the ones that matter remain, and
 * drops a step together with its faults: later faults shift with their steps.
 *
 * @example
 * fc.assert(fc.asyncProperty(program({ step: usageStep() }), async (p) => { ... }))
 */
export function program(options: ProgramOptions = {}): fc.Arbitrary<Program> {
  validateProgramOptions('program', options)
  const maxSteps = options.maxSteps ?? 12
  const maxFaults = options.maxFaults ?? 4
  const kinds = options.faultKinds ?? usageFaultKinds
  // Each fault rides on the step it comes before, so when shrinking drops an irrelevant earlier
  // step the fault moves with its own step instead of staying pinned to an absolute index.
  const before =
    maxFaults === 0
      ? fc.constant([] as FaultEntry[])
      : fc.oneof(
          { withCrossShrink: true },
          { weight: 3, arbitrary: fc.constant([] as FaultEntry[]) },
          { weight: 1, arbitrary: fc.array(faultEntry(kinds, 1), { minLength: 1, maxLength: Math.min(2, maxFaults) }) },
        )
  return fc
    .record({
      seed: fc.integer({ min: 0, max: 1_000_000 }),
      slots: fc.array(fc.record({ step: options.step ?? usageStep(), faults: before }), { minLength: 1, maxLength: maxSteps }),
    })
    .map(({ seed, slots }) => ({
      seed,
      steps: slots.map((s) => s.step),
      faults: slots.flatMap((s, i) => s.faults.map((f) => ({ ...f, step: i + 1 }))).slice(0, maxFaults),
    }))
}

/**
 * Programs for a usage reporter.
 *
 * @example
 * test.prop([usageProgram()])('bills once', async (p) => assertRun(p, { reporter }))
 */
export function usageProgram(options: Omit<ProgramOptions, 'step'> = {}): fc.Arbitrary<Program> {
  validateProgramOptions('usageProgram', options)
  if ('step' in options) throw new HarnessInputError("usageProgram: unknown option 'step' (use program({ step }))")
  return program({ faultKinds: usageFaultKinds, ...options, step: usageStep() })
}

/**
 * Programs for a webhook handler.
 *
 * @example
 * test.prop([webhookProgram()])('effects once', async (p) => assertRun(p, { webhook }))
 */
export function webhookProgram(options: Omit<ProgramOptions, 'step'> = {}): fc.Arbitrary<Program> {
  validateProgramOptions('webhookProgram', options)
  if ('step' in options) throw new HarnessInputError("webhookProgram: unknown option 'step' (use program({ step }))")
  return program({ faultKinds: webhookFaultKinds, maxSteps: 10, ...options, step: webhookStep() })
}
