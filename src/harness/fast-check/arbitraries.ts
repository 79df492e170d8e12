import fc from 'fast-check'
import { type FaultEntry, type FaultKind, faultKinds, rateLimitReasons } from '#faults/index.js'
import { refuseArgument } from '../refuse-argument.js'
import { type Forgery, forgeries, type Program, type Step } from '../run/program.js'
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
const DAY = 24 * 3_600_000
/** With late redeliveries: also whole days, so a manual resend can come days after the event. */
const longAdvanceMs = fc.constantFrom(1_000, 30_000, 60_000, 300_000, 600_000, 3_600_000, DAY, 3 * DAY)

/** Shape of usage workloads. */
export interface UsageWorkload {
  /** Largest report (units in one `report` step). Default 250: past the 100-event batch limit. */
  readonly maxUnits?: number
  /**
   * Size of the pool of repeating customers a report may bill (`cus_c0` ...). Default 3. With 0,
   * every unit has a customer of its own (the workload of earlier versions).
   */
  readonly customers?: number
}

/** Shape of webhook workloads. */
export interface WebhookWorkload {
  /** Payment intents the `emit` steps choose from. Default 5. */
  readonly objects?: number
  /** Most events one `burst` step emits (over fresh objects). Default 150; 0: no bursts. */
  readonly maxBurst?: number
  /** Manual resends of earlier events (dashboard) and clock advances of hours and days. Default true. */
  readonly lateRedelivery?: boolean
  /** Who attacks the receiver: `replay` (fault `replay_delivery`), `forge` (`forge` steps). Default both. */
  readonly attackers?: readonly ('replay' | 'forge')[]
  /** Which forged deliveries `forge` steps make. Default all of `forgeries`. */
  readonly forgeries?: readonly Forgery[]
}

/** The usage workload of earlier versions: 1-5 units, a customer per unit. */
export const LEGACY_USAGE_WORKLOAD: UsageWorkload = { maxUnits: 5, customers: 0 }
/** The webhook workload of earlier versions: 3 objects, no bursts, no resends, no forgeries. */
export const LEGACY_WEBHOOK_WORKLOAD: WebhookWorkload = { objects: 3, maxBurst: 0, lateRedelivery: false, attackers: ['replay'] }

/**
 * A usage workload step: report units (mostly 1-5, sometimes up to `maxUnits`, shrinking towards 1
 * unit of value 1), billed to fresh customers or to one of `customers` repeating customers, or
 * advance the clock.
 *
 * @example
 * fc.sample(usageStep(), 3)
 * fc.sample(usageStep({ maxUnits: 5, customers: 0 }), 3) // the small workload of earlier versions
 */
export function usageStep(options: UsageWorkload = {}): fc.Arbitrary<Step> {
  refuseArgument('usageStep', 'options', options, 'options')
  const maxUnits = options.maxUnits ?? 250
  const customers = options.customers ?? 3
  if (!Number.isInteger(maxUnits) || maxUnits < 1)
    throw new HarnessInputError(`usageStep: option 'maxUnits' must be a positive integer, got ${String(maxUnits)}`)
  if (!Number.isInteger(customers) || customers < 0)
    throw new HarnessInputError(`usageStep: option 'customers' must be a non-negative integer, got ${String(customers)}`)
  const units =
    maxUnits <= 5
      ? fc.integer({ min: 1, max: maxUnits })
      : fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: 1, max: 5 }) },
          { weight: 1, arbitrary: fc.integer({ min: 6, max: maxUnits }) },
        )
  const report: fc.Arbitrary<Step> =
    customers === 0
      ? fc.record({ kind: fc.constant('report' as const), units, value: fc.integer({ min: 1, max: 9 }) })
      : fc
          .record({
            kind: fc.constant('report' as const),
            units,
            value: fc.integer({ min: 1, max: 9 }),
            customer: fc.option(fc.integer({ min: 0, max: customers - 1 }), { nil: undefined, freq: 3 }),
          })
          .map(({ customer, ...r }) => (customer === undefined ? r : { ...r, customer }))
  return fc.oneof(
    { weight: 4, arbitrary: report },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: advanceMs }) },
  )
}

/**
 * A webhook workload step: emit a state change of one of `objects` payment intents, emit a burst
 * of events over fresh ones, advance the clock (hours and days with `lateRedelivery`), resend an
 * earlier event, forge a delivery, take the receiver down or up, roll the signing secret, restart
 * (redeploy) the receiver.
 *
 * @example
 * fc.sample(webhookStep(), 3)
 * fc.sample(webhookStep({ maxBurst: 300, attackers: ['forge'] }), 3)
 */
export function webhookStep(options: WebhookWorkload = {}): fc.Arbitrary<Step> {
  refuseArgument('webhookStep', 'options', options, 'options')
  const objects = options.objects ?? 5
  const maxBurst = options.maxBurst ?? 150
  const late = options.lateRedelivery ?? true
  const attackers = options.attackers ?? ['replay', 'forge']
  const forged = options.forgeries ?? forgeries
  if (!Number.isInteger(objects) || objects < 1)
    throw new HarnessInputError(`webhookStep: option 'objects' must be a positive integer, got ${String(objects)}`)
  if (!Number.isInteger(maxBurst) || maxBurst < 0)
    throw new HarnessInputError(`webhookStep: option 'maxBurst' must be a non-negative integer, got ${String(maxBurst)}`)
  const steps: fc.WeightedArbitrary<Step>[] = [
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('emit' as const), object: fc.integer({ min: 0, max: objects - 1 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: late ? longAdvanceMs : advanceMs }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('receiver' as const), up: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('roll_secret' as const) }) },
    // A deploy at a random moment: the receiver's memory is lost, its durable store is not.
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const) }) },
  ]
  if (maxBurst > 0)
    steps.push({
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('burst' as const), events: fc.integer({ min: 1, max: maxBurst }) }),
    })
  if (late)
    steps.push({
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('resend' as const),
        event: fc.nat({ max: 1_000 }),
        afterMs: fc.constantFrom(60_000, 2 * 3_600_000, DAY, 3 * DAY),
      }),
    })
  if (attackers.includes('forge') && forged.length > 0)
    steps.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant('forge' as const), forgery: fc.constantFrom(...forged) }) })
  return fc.oneof(...steps)
}

/** Fault kinds that act on webhook delivery, for the given attackers (`replay_delivery` needs `replay`). */
export function webhookFaultKindsFor(attackers: readonly ('replay' | 'forge')[] = ['replay', 'forge']): readonly FaultKind[] {
  refuseArgument('webhookFaultKindsFor', 'attackers', attackers, 'array')
  return webhookFaultKinds.filter((k) => k !== 'replay_delivery' || attackers.includes('replay'))
}

/** Most opportunities one generated fault entry arms (its `count`). */
export const MAX_FAULT_COUNT = 3
/** Most fault entries a generated program has by default. */
export const DEFAULT_MAX_FAULTS = 4

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
      count: fc.integer({ min: 1, max: MAX_FAULT_COUNT }),
      reason: fc.constantFrom(...rateLimitReasons),
      target: fc.constantFrom('any', 'stream', 'sync'),
    })
    .map(({ step, fault, count, reason, target }) => {
      const entry: FaultEntry = { step, fault, count }
      if (fault === 'rate_limit') entry.reason = reason
      // Aimed at an ingestion endpoint, a request fault hits the usage itself rather than the session.
      if (
        target !== 'any' &&
        ['rate_limit', 'lock_timeout', 'concurrent_conflict', 'server_error', 'indeterminate'].includes(fault)
      ) {
        entry.operation = target === 'stream' ? 'v2.billing.meterEventStream' : 'v2.billing.meterEvents'
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
  const maxFaults = options.maxFaults ?? DEFAULT_MAX_FAULTS
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
 * Programs for a usage reporter; `workload` shapes the reports (sizes, customers).
 *
 * @example
 * test.prop([usageProgram()])('bills once', async (p) => assertRun(p, { reporter }))
 * test.prop([usageProgram({ maxSteps: 20, workload: { maxUnits: 1000, customers: 1 } })])('bills once', ...)
 */
export function usageProgram(
  options: Omit<ProgramOptions, 'step'> & { readonly workload?: UsageWorkload } = {},
): fc.Arbitrary<Program> {
  refuseArgument('usageProgram', 'options', options, 'options')
  const { workload, ...rest } = options
  validateProgramOptions('usageProgram', rest)
  if ('step' in options) throw new HarnessInputError("usageProgram: unknown option 'step' (use program({ step }))")
  return program({ faultKinds: usageFaultKinds, ...rest, step: usageStep(workload) })
}

/**
 * Programs for a webhook receiver; `workload` shapes the runs (objects, bursts, late
 * redeliveries, attackers).
 *
 * @example
 * test.prop([webhookProgram()])('effects once', async (p) => assertRun(p, { webhook }))
 */
export function webhookProgram(
  options: Omit<ProgramOptions, 'step'> & { readonly workload?: WebhookWorkload } = {},
): fc.Arbitrary<Program> {
  refuseArgument('webhookProgram', 'options', options, 'options')
  const { workload, ...rest } = options
  validateProgramOptions('webhookProgram', rest)
  if ('step' in options) throw new HarnessInputError("webhookProgram: unknown option 'step' (use program({ step }))")
  return program({
    faultKinds: webhookFaultKindsFor(workload?.attackers),
    maxSteps: 12,
    ...rest,
    step: webhookStep(workload),
  })
}
