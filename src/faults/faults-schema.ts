import { z } from 'zod'
import { eventTypes } from '#catalogue/index.js'
import { unknownOperation } from '#catalogue/operation-names.js'
import { RATE_LIMITED_REASONS } from '#catalogue/rules.js'
import { closestName } from '#kernel/closest-name.js'
import { durationSchema } from '#kernel/duration.js'
import type { Assert, Equal } from '#kernel/type-equality.js'
import { afterSchema, checkAfter } from './fault-after.js'

/**
 * Every kind of fault a scenario can name. The fault engine applies each
 * kind; the scenario runner hands it the run's receivers (see `scenario-faults.ts`).
 *
 * - `session_expiry`: every open meter event session ends now (token expiry mid-stream).
 * - `receiver_down`: drawn by rate, one delivery attempt cannot connect; scheduled, the receiver is
 *   down until `receiver_up` (every attempt fails to connect, or in a scenario answers `status`).
 * - `receiver_up`: a receiver a scheduled `receiver_down` took down is up again.
 * - `receiver_slow`: the network adds `delay` (default 2 s) before the receiver gets a delivery
 *   attempt, counted in the 10 s time-out; drawn per attempt, or scheduled for the next `count`
 *   attempts (`operation` may name the event type).
 * - `rate_limit`: the next request(s) get a 429 with `reason`.
 * - `lock_timeout`: the next request(s) get a 429 `lock_timeout`.
 * - `duplicate_delivery`, `reorder_delivery`, `delay_delivery`: webhook delivery faults.
 * - `concurrent_conflict`: the next request(s) get a 409 `too_many_concurrent_requests`.
 * - `server_error`: the next request(s) get a 500 `api_error` (nothing changed).
 * - `indeterminate`: the next answered request(s) are committed but the client gets a network error.
 * - `slow_processing`: the next accepted meter event batch(es) are processed `delay` later.
 * - `replay_delivery`: an attacker re-POSTs an old signed delivery, its old signature unchanged.
 * - `redundant_event`: the service emits a second, distinct event (a new id) for the same change,
 *   as the spec warns it can; drawn per event, or scheduled for the next `count` events
 *   (`operation` may name the event type). A twin is never twinned.
 *
 * @example
 * faultKinds.includes('session_expiry') // true
 */
export const faultKinds = [
  'session_expiry',
  'receiver_down',
  'receiver_up',
  'receiver_slow',
  'rate_limit',
  'lock_timeout',
  'duplicate_delivery',
  'reorder_delivery',
  'delay_delivery',
  'concurrent_conflict',
  'server_error',
  'indeterminate',
  'slow_processing',
  'replay_delivery',
  'redundant_event',
] as const

/** One kind of fault. */
export type FaultKind = (typeof faultKinds)[number]

/**
 * The `Service-Rate-Limited-Reason` values of the spec.
 *
 * @example
 * rateLimitReasons[0] // 'global-rate'
 */
export const rateLimitReasons = RATE_LIMITED_REASONS

/**
 * The kinds that act on a request, whose `operation` names operations (a prefix of the catalogue's
 * name); the delivery kinds read it as an event type.
 *
 * @example
 * requestFaultKinds.includes('rate_limit') // true
 */
export const requestFaultKinds: readonly FaultKind[] = [
  'rate_limit',
  'lock_timeout',
  'concurrent_conflict',
  'server_error',
  'session_expiry',
  'indeterminate',
]

/**
 * The refusal of a fault aimed at nothing it could act on, or `undefined`: a request fault naming no
 * operation (a name from before the catalogue's would never fire), a delivery fault naming a prefix
 * no event type starts with.
 *
 * @example
 * faultTargetRefusal('rate_limit', 'billing.meter_event_stream')
 * // "unknown operation 'billing.meter_event_stream'; did you mean 'v2.billing.meterEventStream'?"
 */
export function faultTargetRefusal(kind: FaultKind, operation: string | undefined): string | undefined {
  if (operation === undefined) return undefined
  if (requestFaultKinds.includes(kind)) return unknownOperation(operation, 'prefix')
  return EVENT_TARGET_KINDS.has(kind) ? unknownEventPrefix(operation) : undefined
}

// The delivery kinds whose `operation` is a prefix of the event type they act on.
const EVENT_TARGET_KINDS: ReadonlySet<FaultKind> = new Set<FaultKind>([
  'duplicate_delivery',
  'reorder_delivery',
  'delay_delivery',
  'receiver_slow',
  'redundant_event',
])

const eventPrefixRefusals = new Map<string, string | undefined>()

/** A delivery fault aimed at a prefix no event type starts with would never fire: refused, with the nearest type. */
function unknownEventPrefix(prefix: string): string | undefined {
  if (eventPrefixRefusals.has(prefix)) return eventPrefixRefusals.get(prefix)
  const { snapshot, thin } = eventTypes()
  const all = [...snapshot, ...thin]
  const refusal = all.some((t) => t.startsWith(prefix))
    ? undefined
    : `no event type starts with '${prefix}'${((near) => (near === undefined ? '' : `; did you mean '${near}'?`))(closestName(prefix, all))}`
  eventPrefixRefusals.set(prefix, refusal)
  return refusal
}

/**
 * Refuses, as a zod issue at `path`, a request-fault target that names no served operation.
 *
 * @example
 * schema.superRefine((e, ctx) => checkTarget(e.fault, e.operation, ctx, ['operation']))
 * @internal
 */
export function checkTarget(kind: FaultKind, operation: string | undefined, ctx: z.RefinementCtx, path: PropertyKey[]): void {
  const refusal = faultTargetRefusal(kind, operation)
  if (refusal !== undefined) ctx.addIssue({ code: 'custom', message: refusal, path })
}

let schemas: ReturnType<typeof buildFaultSchemas> | undefined

/**
 * The schemas of faults: `faultEntrySchema` (one entry of an explicit schedule: before executed
 * step `step`, 1-based, inject `fault`), `faultInjectionSchema` (a fault injected now, an entry
 * without its step), `faultPolicySchema` (seeded rates per kind) and `faultsSchema` (the `faults`
 * option and a scenario's section: a policy, a schedule, or both). Built on first use, not at load:
 * a simulator made without faults never needs zod.
 *
 * @example
 * faultSchemas().faultsSchema.parse({ schedule: [{ step: 2, fault: 'receiver_down', receiver: 'shop' }] })
 * @internal
 */
export function faultSchemas() {
  schemas ??= buildFaultSchemas()
  return schemas
}

/**
 * The fields of a fault injected now (an entry without its step), before the target check: a
 * refined schema cannot be extended, so the admin API adds its descriptions to these.
 *
 * @example
 * faultInjectionFields().extend({ operation: z.string() }).superRefine(...)
 * @internal
 */
export function faultInjectionFields() {
  return faultSchemas().faultEntryFields.omit({ step: true })
}

/**
 * The parameters a fault can carry; each kind reads the ones it needs. `D` is how a duration is
 * given: milliseconds once parsed, or also text such as `'2s'` as written.
 *
 * @example
 * const params: FaultParamFields = { reason: 'endpoint-rate', count: 3 }
 */
export interface FaultParamFields<D = number> {
  /** Receiver (by name) a receiver fault targets; default every receiver. */
  receiver?: string | undefined
  /** For `rate_limit`: which 429 reason. */
  reason?: (typeof rateLimitReasons)[number] | undefined
  /** How many requests or deliveries the fault affects. Default 1. */
  count?: number | undefined
  /**
   * For request faults: how many matching requests pass before it fires (default 0: the next one),
   * counted from the step it is armed before; a handler's second API call fails while its first
   * succeeds.
   */
  after?: number | undefined
  /** For `receiver_slow` (network delay) and `delay_delivery`: how long, in ms. */
  delay?: D | undefined
  /** For a scheduled `receiver_down` in a scenario: the receiver answers this status instead of failing to connect. */
  status?: number | undefined
  /**
   * Request faults: a prefix of the operation's name as the official client calls it
   * (`v2.billing.meterEventStream`, `customers.update`); delivery faults: a prefix of the event type.
   */
  operation?: string | undefined
}

/**
 * One scheduled fault: before executed step `step` (1-based, as printed in the timeline), inject
 * `fault`.
 *
 * @example
 * const entry: FaultEntry = { step: 3, fault: 'receiver_down', receiver: 'shop' }
 */
export interface FaultEntry<D = number> extends FaultParamFields<D> {
  /** Executed step number (1-based) before which the fault applies. */
  step: number
  fault: FaultKind
}

/**
 * A random fault policy: before every executed step each kind fires with its rate (0..1), drawn
 * from the run's seeded fault stream.
 *
 * @example
 * const policy: FaultPolicy = { rates: { session_expiry: 0.05 } }
 */
export interface FaultPolicy {
  rates: Partial<Record<FaultKind, number>>
  /** Defaults for the parameters of policy-drawn faults, per kind. */
  params?: Partial<Record<FaultKind, FaultParamFields>> | undefined
}

/**
 * The parsed `faults` option or scenario section: a preset, swarm mode, a seeded policy, an
 * explicit schedule.
 *
 * @example
 * const faults: Faults = { preset: 'realistic', schedule: [] }
 */
export interface Faults {
  /** `realistic`: the preset rates of `service-sim/harness` (`realisticRates`). */
  preset?: 'none' | 'realistic' | undefined
  /** Swarm mode: each seed draws its own subset of kinds and rates. */
  swarm?: boolean | undefined
  policy?: FaultPolicy | undefined
  schedule: FaultEntry[]
}

/**
 * The `faults` option as written: a preset, swarm mode, rates (`policy`), an explicit schedule;
 * durations as milliseconds or text such as `'2s'`.
 *
 * @example
 * createSimulator({ faults: { policy: { rates: { rate_limit: 0.1 } }, schedule: [{ step: 2, fault: 'server_error' }] } })
 */
export interface FaultsInput {
  /** `realistic`: the preset rates of `service-sim/harness` (`realisticRates`). */
  preset?: 'none' | 'realistic' | undefined
  /** Swarm mode: each seed draws its own subset of kinds and rates. */
  swarm?: boolean | undefined
  policy?:
    | {
        rates?: Partial<Record<FaultKind, number>> | undefined
        /** Defaults for the parameters of policy-drawn faults, per kind. */
        params?: Partial<Record<FaultKind, FaultParamFields<number | string>>> | undefined
      }
    | undefined
  schedule?: FaultEntry<number | string>[] | undefined
}

type Built = ReturnType<typeof buildFaultSchemas>
// The public types above are what the schemas parse: these fail to compile if either drifts.
type _EntryPinned = Assert<Equal<FaultEntry, z.output<Built['faultEntrySchema']>>>
type _EntryInputPinned = Assert<Equal<FaultEntry<number | string>, z.input<Built['faultEntrySchema']>>>
type _FaultsPinned = Assert<Equal<Faults, z.output<Built['faultsSchema']>>>
type _FaultsInputPinned = Assert<Equal<FaultsInput, z.input<Built['faultsSchema']>>>

/** Parameters a fault can carry; each kind reads the ones it needs. */
function faultParamShape() {
  return {
    /** Receiver (by name) a receiver fault targets; default every receiver. */
    receiver: z.string().optional(),
    /** For `rate_limit`: which 429 reason. */
    reason: z.enum(rateLimitReasons).optional(),
    /** How many requests/deliveries the fault affects. Default 1. */
    count: z.number().int().positive().optional(),
    /** For request faults: how many matching requests pass before it fires (the kind is checked with the entry). */
    after: afterSchema().optional(),
    /** For `receiver_slow` (network delay) and `delay_delivery`: how long. */
    delay: durationSchema().optional(),
    /** For a scheduled `receiver_down` in a scenario: the receiver answers this status instead of failing to connect. */
    status: z.number().int().min(100).max(599).optional(),
    /** For request faults: only requests whose operation name starts with this (the catalogue's names,
     * e.g. `v2.billing.meterEventStream`, `customers.update`); for delivery faults: only events whose
     * type starts with it. */
    operation: z
      .string()
      .meta({
        description:
          "Request faults: a prefix of the operation's name as the official client calls it ('v2.billing.meterEventStream', 'customers.update'); delivery faults: a prefix of the event type.",
      })
      .optional(),
  }
}

type FaultParamShape = ReturnType<typeof faultParamShape>

/** The schemas of one fault: a schedule entry's fields, the entry, and an injection (no step). */
function faultEntrySchemas(faultParams: FaultParamShape) {
  const faultEntryFields = z
    .object({
      step: z.number().int().positive().meta({ description: 'Executed step number (1-based) before which the fault applies.' }),
      fault: z.enum(faultKinds),
      ...faultParams,
    })
    .strict()

  /**
   * One entry of an explicit fault schedule: before executed step `step` (1-based, as printed in
   * the timeline), inject `fault`.
   *
   * @example
   * faultSchemas().faultEntrySchema.parse({ step: 3, fault: 'session_expiry' })
   */
  const faultEntrySchema = faultEntryFields.superRefine((e, ctx) => {
    checkTarget(e.fault, e.operation, ctx, ['operation'])
    checkAfter(e.fault, e.after, ctx, ['after'])
  })

  /**
   * A fault injected now (the admin API's `POST /faults/inject`, `sim.admin.injectFault`): an entry
   * without its step.
   *
   * @example
   * faultSchemas().faultInjectionSchema.parse({ fault: 'rate_limit', operation: 'customers.create' })
   */
  const faultInjectionSchema = faultEntryFields.omit({ step: true }).superRefine((e, ctx) => {
    checkTarget(e.fault, e.operation, ctx, ['operation'])
    checkAfter(e.fault, e.after, ctx, ['after'])
  })
  return { faultEntryFields, faultEntrySchema, faultInjectionSchema }
}

/**
 * A random fault policy: before every executed step, each kind fires with its rate (0..1), drawn
 * from the simulation's seeded `harness.faults` stream, so the same seed makes the same decisions.
 *
 * @example
 * faultSchemas().faultPolicySchema.parse({ rates: { session_expiry: 0.05 } })
 */
function faultPolicySchemaOf(faultParams: FaultParamShape) {
  return z
    .object({
      rates: z.partialRecord(z.enum(faultKinds), z.number().min(0).max(1)).default({}),
      /** Defaults for the parameters of policy-drawn faults, per kind. */
      params: z
        .partialRecord(z.enum(faultKinds), z.object(faultParams).strict())
        .superRefine((byKind, ctx) => {
          for (const [kind, p] of Object.entries(byKind)) {
            checkTarget(kind as FaultKind, p?.operation, ctx, [kind, 'operation'])
            checkAfter(kind as FaultKind, p?.after, ctx, [kind, 'after'])
          }
        })
        .optional(),
    })
    .strict()
}

function buildFaultSchemas() {
  const faultParams = faultParamShape()
  const { faultEntryFields, faultEntrySchema, faultInjectionSchema } = faultEntrySchemas(faultParams)
  const faultPolicySchema = faultPolicySchemaOf(faultParams)

  /**
   * The `faults` section of a scenario: a seeded policy, an explicit schedule, or both.
   *
   * @example
   * faultSchemas().faultsSchema.parse({ schedule: [{ step: 2, fault: 'receiver_down', receiver: 'shop' }] })
   */
  const faultsSchema = z
    .object({
      /** `realistic`: the preset rates of `service-sim/harness` (`realisticFaults`). */
      preset: z.enum(['none', 'realistic']).optional(),
      /** Swarm mode: each seed draws its own subset of kinds and rates (from the `faults` stream). */
      swarm: z.boolean().optional(),
      policy: faultPolicySchema.optional(),
      schedule: z.array(faultEntrySchema).default([]),
    })
    .strict()

  return { faultEntryFields, faultEntrySchema, faultInjectionSchema, faultPolicySchema, faultsSchema }
}
