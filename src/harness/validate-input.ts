import type fc from 'fast-check'
import { z } from 'zod'
import { faultKinds, faultSchemas } from '#faults/index.js'
import { HarnessInputError } from './harness-input-error.js'
import { forgeries } from './run/program.js'
import { harnessOwnedSimOptions, type SimulatorChoice } from './run/simulator-choice.js'

export { HarnessInputError }

const positiveInt = (what = 'must be a positive integer') =>
  z.number({ error: what }).int({ error: what }).positive({ error: what })
const nonNegativeInt = (what = 'must be a non-negative integer') =>
  z.number({ error: what }).int({ error: what }).min(0, { error: what })
const fn = (what: string) => z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', { error: what })

/** `faults` without its schedule: the program (or the generator) brings the schedule. */
const faultRates = faultSchemas().faultsSchema.omit({ schedule: true }).strict()

/** The step kinds a program may contain. */
export const stepKinds = ['report', 'advance', 'emit', 'burst', 'resend', 'forge', 'receiver', 'roll_secret', 'restart'] as const

const stepSchemas: Record<(typeof stepKinds)[number], z.ZodType> = {
  report: z.strictObject({
    kind: z.literal('report'),
    units: positiveInt(),
    value: z.number({ error: 'must be a finite number' }),
    customer: nonNegativeInt().optional(),
  }),
  burst: z.strictObject({ kind: z.literal('burst'), events: positiveInt() }),
  resend: z.strictObject({ kind: z.literal('resend'), event: nonNegativeInt(), afterMs: nonNegativeInt() }),
  forge: z.strictObject({ kind: z.literal('forge'), forgery: z.enum(forgeries) }),
  advance: z.strictObject({ kind: z.literal('advance'), ms: nonNegativeInt() }),
  emit: z.strictObject({ kind: z.literal('emit'), object: nonNegativeInt() }),
  receiver: z.strictObject({ kind: z.literal('receiver'), up: z.boolean({ error: 'must be a boolean' }) }),
  roll_secret: z.strictObject({ kind: z.literal('roll_secret') }),
  restart: z.strictObject({ kind: z.literal('restart') }),
}

const simOptionsSchema = z
  .record(z.string(), z.unknown(), { error: 'must be an object of createSimulator options' })
  .superRefine((value, ctx) => {
    for (const key of Object.keys(value))
      if (Object.hasOwn(harnessOwnedSimOptions, key))
        ctx.addIssue({ code: 'custom', path: [key], message: `is set by the harness: ${harnessOwnedSimOptions[key]}` })
  })

/** The simulator options every run and check takes (`SimulatorChoice`). */
const simulatorChoiceShape = {
  headerPrefix: z
    .string({ error: "must be a header prefix such as 'Stripe' or 'Service'" })
    .regex(/^[A-Za-z][A-Za-z0-9]*$/, { error: "must be a header prefix such as 'Stripe' or 'Service'" })
    .optional(),
  apiVersion: z.string({ error: 'must be an API version string' }).min(1, { error: 'must be an API version string' }).optional(),
  simOptions: simOptionsSchema.optional(),
  base: z
    .custom<object>((v) => typeof (v as { fork?: unknown } | null)?.fork === 'function', {
      error: 'must be a simulator (createSimulator)',
    })
    .optional(),
}

const runOptionsShape = {
  reporter: fn('must be a reporter factory (env) => { report }').optional(),
  webhook: fn('must be a webhook receiver factory (env) => { handler, state }').optional(),
  faults: faultRates.optional(),
  ...simulatorChoiceShape,
  reportBudgetMs: positiveInt().optional(),
  drainMs: nonNegativeInt().optional(),
  fork: z.boolean({ error: 'must be a boolean' }).optional(),
}
const runOptionsSchema = z.strictObject(runOptionsShape)

const checkOptionsSchema = z.strictObject({
  ...simulatorChoiceShape,
  numRuns: positiveInt().optional(),
  seed: z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).optional(),
  faults: faultRates.optional(),
  scenarioDir: z.string({ error: 'must be a directory path (a non-empty string)' }).min(1).optional(),
  name: z
    .string({ error: 'must be a name of letters, digits, dots, dashes or underscores' })
    .regex(/^[A-Za-z0-9._-]+$/, { error: 'must be a name of letters, digits, dots, dashes or underscores' })
    .optional(),
  maxSteps: positiveInt().optional(),
  workers: z.unknown().optional(),
  workload: z
    .strictObject({
      maxSteps: positiveInt().optional(),
      maxFaults: nonNegativeInt().optional(),
      faultKinds: z.array(z.enum(faultKinds)).min(1, { error: 'must list at least one fault kind' }).optional(),
      maxUnits: positiveInt().optional(),
      customers: nonNegativeInt().optional(),
      objects: positiveInt().optional(),
      maxBurst: nonNegativeInt().optional(),
      lateRedelivery: z.boolean({ error: 'must be a boolean' }).optional(),
      attackers: z.array(z.enum(['replay', 'forge'])).optional(),
      forgeries: z.array(z.enum(forgeries)).min(1, { error: 'must list at least one forgery' }).optional(),
    })
    .optional(),
})

/**
 * An arbitrary by its shape, not `instanceof`: replaying a scenario file needs this module but not
 * fast-check (an optional peer), and a user's fast-check may be another copy than the one we see.
 */
const isArbitrary = (v: unknown): v is fc.Arbitrary<unknown> =>
  typeof v === 'object' &&
  v !== null &&
  ['generate', 'shrink', 'filter', 'map'].every((m) => typeof (v as Record<string, unknown>)[m] === 'function')

const programOptionsSchema = z.strictObject({
  step: z.custom<fc.Arbitrary<unknown>>(isArbitrary, { error: 'must be a fast-check arbitrary' }).optional(),
  maxSteps: positiveInt().optional(),
  faultKinds: z.array(z.enum(faultKinds)).min(1, { error: 'must list at least one fault kind' }).optional(),
  maxFaults: nonNegativeInt().optional(),
})

function describePath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.')
}

/** The first zod issue as `<api>: option '<path>' <message>` (or `unknown option`). */
function fail(api: string, noun: string, error: z.ZodError, prefix: readonly PropertyKey[] = []): never {
  const issue = error.issues[0]
  if (issue === undefined) throw new HarnessInputError(`${api}: invalid ${noun}`)
  const path = [...prefix, ...issue.path]
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `'${describePath([...path, k])}'`).join(', ')
    throw new HarnessInputError(`${api}: unknown ${noun}${issue.keys.length > 1 ? 's' : ''} ${keys}`)
  }
  const where = path.length === 0 ? `${noun}s` : `${noun} '${describePath(path)}'`
  throw new HarnessInputError(`${api}: ${where} ${issue.message}`)
}

function parse<T>(api: string, noun: string, schema: z.ZodType<T>, value: unknown, prefix: readonly PropertyKey[] = []): T {
  if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (prefix.length === 0) throw new HarnessInputError(`${api}: ${noun}s must be an object, got ${typeName(value)}`)
  }
  const r = schema.safeParse(value)
  if (!r.success) fail(api, noun, r.error, prefix)
  return r.data
}

function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'string' ? `'${value}'` : typeof value
}

/**
 * Validates the options of `runProgram`, `assertRun`, `startRun`: known keys only, at least one
 * subject.
 *
 * @example
 * validateRunOptions('runProgram', { reporter }) // throws on `{}` or `{ reporterr: r }`
 */
export function validateRunOptions(api: string, options: unknown): void {
  const parsed = plainRunOptions(options)
    ? (options as z.output<typeof runOptionsSchema>)
    : parse(api, 'option', runOptionsSchema, options)
  if (parsed.reporter === undefined && parsed.webhook === undefined)
    throw new HarnessInputError(`${api}: options must give a subject to test: 'reporter' and/or 'webhook'`)
  validateBaseAgreement(api, options as SimulatorChoice)
}

/** `faults` as most runs give it: absent, or only a preset and swarm mode. */
function plainFaults(faults: unknown): boolean {
  if (faults === undefined) return true
  if (faults === null || typeof faults !== 'object' || Array.isArray(faults)) return false
  for (const [key, value] of Object.entries(faults)) {
    if (key === 'preset' ? value !== undefined && value !== 'none' && value !== 'realistic' : key !== 'swarm') return false
    if (key === 'swarm' && value !== undefined && typeof value !== 'boolean') return false
  }
  return true
}

/**
 * True when run options plainly pass their schema: the usual `{ reporter, faults: { preset } }`
 * is checked by hand (a run validates its options every time, often a new object per run); any
 * other key or value goes to zod, which accepts it or words the refusal.
 */
function plainRunOptions(options: unknown): boolean {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return false
  for (const [key, value] of Object.entries(options)) {
    // A known key may be given as undefined (optional); an unknown one is refused even so.
    if (value === undefined) {
      if (!Object.hasOwn(runOptionsShape, key)) return false
      continue
    }
    switch (key) {
      case 'reporter':
      case 'webhook':
        if (typeof value !== 'function') return false
        break
      case 'faults':
        if (!plainFaults(value)) return false
        break
      case 'reportBudgetMs':
        if (!isCount(value, 1)) return false
        break
      case 'drainMs':
        if (!isCount(value, 0)) return false
        break
      case 'fork':
        if (typeof value !== 'boolean') return false
        break
      default:
        return false
    }
  }
  return true
}

interface BaseView {
  readonly service: { readonly kernel: { readonly prefix: string } }
  readonly platform: { readonly account: { readonly apiVersion: string } }
}

/**
 * A base simulator fixes the header prefix and API version of the runs forked from it: options
 * naming others, or simulator options beside it, would be silently ignored, so they are refused.
 */
function validateBaseAgreement(api: string, choice: SimulatorChoice): void {
  if (choice.base === undefined) return
  const base = choice.base as unknown as BaseView
  if (choice.simOptions !== undefined)
    throw new HarnessInputError(
      `${api}: options 'base' and 'simOptions' exclude each other: the runs fork the base, which was made with its own options`,
    )
  const prefix = base.service.kernel.prefix
  if (choice.headerPrefix !== undefined && choice.headerPrefix !== prefix)
    throw new HarnessInputError(
      `${api}: option 'headerPrefix' is '${choice.headerPrefix}' but the base simulator sends '${prefix}-*' headers: make the base with createSimulator({ headerPrefix: '${choice.headerPrefix}' })`,
    )
  const version = base.platform.account.apiVersion
  if (choice.apiVersion !== undefined && choice.apiVersion !== version)
    throw new HarnessInputError(
      `${api}: option 'apiVersion' is '${choice.apiVersion}' but the base simulator's platform is on '${version}': make the base with createSimulator({ apiVersion: '${choice.apiVersion}' })`,
    )
}

/**
 * Validates the options of `checkUsageReporter` and `checkWebhookHandler`.
 *
 * @example
 * validateCheckOptions('checkUsageReporter', { numRuns: 50 })
 */
export function validateCheckOptions(api: string, options: unknown): void {
  parse(api, 'option', checkOptionsSchema, options)
  validateBaseAgreement(api, options as SimulatorChoice)
}

/**
 * Validates a subject factory argument (a function).
 *
 * @example
 * validateFactory('checkWebhookHandler', 'subject factory', handler)
 */
export function validateFactory(api: string, what: string, value: unknown, shape: string): void {
  if (typeof value !== 'function')
    throw new HarnessInputError(`${api}: ${what} must be a function (env) => ${shape}, got ${typeName(value)}`)
}

const isCount = (v: unknown, min: number): boolean => typeof v === 'number' && Number.isInteger(v) && v >= min

/**
 * True when `step` is an exact, valid `report`, `advance` or `emit` step: the common shapes are
 * checked by hand (a program of 50 steps is validated on every run); anything else goes to zod,
 * which also words the errors.
 */
function plainStep(step: unknown): boolean {
  if (step === null || typeof step !== 'object') return false
  const s = step as Record<string, unknown>
  const keys = Object.keys(s).length
  switch (s.kind) {
    case 'report':
      return (
        isCount(s.units, 1) &&
        typeof s.value === 'number' &&
        Number.isFinite(s.value) &&
        (keys === 3 || (keys === 4 && isCount(s.customer, 0)))
      )
    case 'advance':
      return keys === 2 && isCount(s.ms, 0)
    case 'emit':
      return keys === 2 && isCount(s.object, 0)
    default:
      return false
  }
}

/**
 * Validates a program: a seed, known steps, a fault schedule.
 *
 * @example
 * validateProgram('runProgram', { seed: 1, steps: [{ kind: 'report', units: 1, value: 1 }], faults: [] })
 */
export function validateProgram(api: string, program: unknown): void {
  if (program === null || typeof program !== 'object' || Array.isArray(program))
    throw new HarnessInputError(`${api}: program must be an object { seed, steps, faults }, got ${typeName(program)}`)
  const p = program as Record<string, unknown>
  const unknownKeys = Object.keys(p).filter((k) => !['seed', 'steps', 'faults'].includes(k))
  if (unknownKeys.length > 0)
    throw new HarnessInputError(`${api}: unknown program field ${unknownKeys.map((k) => `'${k}'`).join(', ')}`)
  if (typeof p.seed !== 'number' || !Number.isInteger(p.seed))
    throw new HarnessInputError(`${api}: program 'seed' must be an integer, got ${typeName(p.seed)}`)
  if (!Array.isArray(p.steps)) throw new HarnessInputError(`${api}: program 'steps' must be an array of steps`)
  p.steps.forEach((step: unknown, i) => {
    if (plainStep(step)) return
    const kind = (step as { kind?: unknown } | null)?.kind
    const schema = typeof kind === 'string' ? stepSchemas[kind as (typeof stepKinds)[number]] : undefined
    if (schema === undefined || !Object.hasOwn(stepSchemas, String(kind)))
      throw new HarnessInputError(
        `${api}: step ${i} has unknown kind ${typeof kind === 'string' ? `'${kind}'` : typeName(kind)} (expected one of ${stepKinds.join(', ')})`,
      )
    const r = schema.safeParse(step)
    if (!r.success) fail(api, `step ${i} ('${String(kind)}') field`, r.error)
  })
  refuseBadFaultEntries(api, p.faults)
}

/**
 * Refuses a program's fault schedule that is not an array of fault entries the fault engine knows,
 * naming the entry and its field.
 *
 * @example
 * refuseBadFaultEntries('runFlow', [{ step: 1, fault: 'duplicate_delivery' }]) // fine
 */
export function refuseBadFaultEntries(api: string, faults: unknown): void {
  if (!Array.isArray(faults))
    throw new HarnessInputError(`${api}: program 'faults' must be an array of fault entries, got ${shownValue(faults)}`)
  faults.forEach((entry: unknown, i) => {
    const r = faultSchemas().faultEntrySchema.safeParse(entry)
    if (!r.success) fail(api, `fault ${i} field`, r.error)
  })
}

/**
 * Validates the options of the program generators (`program`, `usageProgram`, `webhookProgram`).
 *
 * @example
 * validateProgramOptions('usageProgram', { maxSteps: 20 })
 */
export function validateProgramOptions(api: string, options: unknown): void {
  parse(api, 'option', programOptionsSchema, options)
}

/**
 * A value as an input error message shows it after "got": its JSON, cut short, or "a function".
 *
 * @example
 * shownValue(['bogus']) // '["bogus"]'
 */
export function shownValue(value: unknown): string {
  if (typeof value === 'function') return 'a function'
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 80)
  } catch {
    return String(value)
  }
}

/**
 * Refuses what is not a run's trace entries (an array, as `sim.trace.entries()` gives), naming the
 * checker: a trace checker handed something else would fail deep inside with a TypeError.
 *
 * @example
 * refuseNotEntries('checkBilling', sim.trace.entries()) // fine
 * refuseNotEntries('checkBilling', sim.trace) // throws HarnessInputError
 */
export function refuseNotEntries(api: string, entries: unknown): void {
  if (!Array.isArray(entries))
    throw new HarnessInputError(
      `${api}: expected the run's trace entries (an array, e.g. sim.trace.entries()), got ${shownValue(entries)}`,
    )
}
