import { z } from 'zod'
import { versionProblem } from '#catalogue/versions.js'
import { type LimitsOption, validateLimits } from '#domain/limits/limits-option.js'
import type { FaultsInput } from '#faults/fault-policy.js'
import type { ClockOptions } from '#kernel/clock.js'
import { closestName } from '#kernel/closest-name.js'
import type { Snapshot } from './snapshot.js'

/** The API version accounts default to: the one the official client of this generation pins. */
export const DEFAULT_API_VERSION = '2026-10-28.endive'

export interface SimulatorOptions extends ClockOptions {
  /** Seed of every random choice. Same seed and inputs: the same trace, byte for byte. Default 0. */
  seed?: number | string
  /** Prefix of the provider-named headers. `Stripe` makes the official `stripe` client work unchanged. */
  headerPrefix?: string
  /** Default API version of new accounts. */
  apiVersion?: string
  /**
   * Virtual time a request stays in flight, in ms: a number, or a range drawn from the seeded
   * `latency` stream. Default 0: answered at the next macrotask without moving the clock.
   */
  serviceTime?: number | { min: number; max: number }
  /** Keep at most this many trace entries in memory (the hash still covers all). */
  traceLimit?: number
  /**
   * @deprecated Accepted and ignored: every trace's digest now carries across `snapshot()`, with
   * or without `traceLimit`, at no cost.
   */
  resumableTrace?: boolean
  /**
   * Fault policy: `{ preset: 'realistic' }`, `{ swarm: true }`, per-kind `policy.rates`, and an
   * explicit `schedule` of `{ step, fault, ... }`. Decisions draw from the `faults` stream and are
   * traced as `fault` entries. Default: no faults.
   */
  faults?: FaultsInput
  /**
   * The limit table and lock wait. Omitted: the spec's limits. `false`: no rate, concurrency or
   * read-allocation limits and no object locks. An object merges rows by `id` into the defaults
   * (`{ id, off: true }` drops one), tunes `reads` and `locks: { waitMs }`.
   */
  limits?: LimitsOption
  /**
   * A snapshot (`sim.snapshot()`, plain data, possibly through JSON) to continue from: the
   * simulator starts in the saved state, with the saved options; only `clock` may be given too.
   * Receivers are functions and are not in a snapshot: mount them again (docs/snapshot.md).
   */
  from?: Snapshot
}

/**
 * How a fork (or a prepared simulator, `continueAs`) goes on: from its state, with another seed
 * for every random stream from now on and another fault policy in force.
 */
export interface ContinueOptions {
  /** The seed every random stream restarts from (ids, faults, latency...). */
  readonly seed: number | string
  /** The fault policy from now on (default none): rates, preset, swarm, a schedule by step. */
  readonly faults?: FaultsInput | undefined
}

// Built on the first createSimulator call, not at import: importing the package should not pay
// for schemas it may never use (see reports/bench/cold-start.md).
let optionsSchema: ReturnType<typeof simulatorOptionsSchema> | undefined

function simulatorOptionsSchema() {
  return z
    .object({
      seed: z.union([z.number().finite(), z.string()]).optional(),
      start: z.union([z.number().finite(), z.string(), z.date()]).optional(),
      clock: z
        .union([z.literal('local'), z.literal('global'), z.looseObject({ now: z.number(), tickAsync: z.function() })])
        .optional(),
      headerPrefix: z
        .string()
        .regex(/^[A-Za-z][A-Za-z0-9]*$/, { message: 'must be a header token such as Service or Stripe' })
        .optional(),
      apiVersion: z
        .string()
        .refine((v) => versionProblem(v) === undefined, {
          error(i) {
            return versionProblem(String(i.input)) ?? 'unknown API version'
          },
        })
        .optional(),
      serviceTime: z
        .union([
          z.number().min(0),
          z
            .object({ min: z.number().min(0), max: z.number().min(0) })
            .refine((r) => r.max >= r.min, { message: 'max must be >= min' }),
        ])
        .optional(),
      traceLimit: z.number().int().positive().optional(),
      resumableTrace: z.boolean().optional(),
    })
    .loose()
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/**
 * True when every option given is one of the plain ones with a value its schema plainly accepts, so
 * the usual `createSimulator({ seed })` builds no schema (and loads no zod) at a cold start. Any
 * other option or value goes through the schema, which accepts it or words the refusal.
 */
function plainlyValid(options: SimulatorOptions): boolean {
  return Object.entries(options).every(([key, value]) => {
    if (value === undefined) return true
    switch (key) {
      case 'seed':
        return typeof value === 'string' || finite(value)
      case 'start':
        return typeof value === 'string' || finite(value) || value instanceof Date
      case 'clock':
        return value === 'local' || value === 'global'
      case 'headerPrefix':
        return typeof value === 'string' && /^[A-Za-z][A-Za-z0-9]*$/.test(value)
      case 'apiVersion':
        return typeof value === 'string' && versionProblem(value) === undefined
      case 'serviceTime':
        return finite(value) && value >= 0
      case 'traceLimit':
        return Number.isInteger(value) && (value as number) > 0
      case 'resumableTrace':
        return typeof value === 'boolean'
      default:
        return false
    }
  })
}

/** Every option `createSimulator` takes: a key outside it is a typo, refused rather than ignored. */
const OPTION_NAMES: readonly (keyof SimulatorOptions)[] = [
  'seed',
  'start',
  'clock',
  'headerPrefix',
  'apiVersion',
  'serviceTime',
  'traceLimit',
  'resumableTrace',
  'faults',
  'limits',
  'from',
]

/**
 * Refuses an option name `createSimulator` does not know, naming the closest one it does
 * (`headerPerfix` would otherwise run silently with the default prefix).
 *
 * @example
 * checkOptionNames({ headerPerfix: 'Stripe' }) // throws: unknown option 'headerPerfix'; did you mean 'headerPrefix'?
 */
function checkOptionNames(options: SimulatorOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('createSimulator: options must be an object')
  for (const key of Object.keys(options)) {
    if ((OPTION_NAMES as readonly string[]).includes(key)) continue
    const near = closestName(key, OPTION_NAMES)
    const hint =
      near === undefined ? `; the options are ${OPTION_NAMES.map((n) => `'${n}'`).join(', ')}` : `; did you mean '${near}'?`
    throw new TypeError(`createSimulator: unknown option '${key}'${hint}`)
  }
}

/**
 * Refuses, with a `TypeError` naming the option, options `createSimulator` cannot run with.
 *
 * @example
 * checkSimulatorOptions({ seed: 1, serviceTime: -1 }) // throws: option 'serviceTime' ...
 */
export function checkSimulatorOptions(options: SimulatorOptions): void {
  checkOptionNames(options)
  if (!plainlyValid(options)) {
    optionsSchema ??= simulatorOptionsSchema()
    const parsed = optionsSchema.safeParse(options)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new TypeError(`createSimulator: option '${issue?.path.join('.')}' ${issue?.message ?? 'is invalid'}`)
    }
  }
  validateLimits(options.limits)
}
