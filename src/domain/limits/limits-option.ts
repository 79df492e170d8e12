import { z } from 'zod'
import { unknownOperation } from '#catalogue/operation-names.js'
import type { Assert, Equal } from '#kernel/type-equality.js'
import { DEFAULT_LIMITS, DEFAULT_LOCK_WAIT_MS, DEFAULT_READ_ALLOCATION, type ReadAllocationConfig } from './default-limits.js'
import type { LimitKind, LimitRow, LimitScope } from './limit-row.js'

/**
 * A row of the `limits` option: a full row to add, a partial row whose `id` names a default to
 * change, or `{ id, off: true }` to drop a default.
 *
 * @example
 * const rows: LimitRowInput[] = [{ id: 'endpoint-rate', max: 50 }, { id: 'files.read', off: true }]
 */
export type LimitRowInput = (Partial<LimitRow> & { readonly id: string; readonly off?: boolean }) | LimitRow

/**
 * The `limits` option of `createSimulator`. `false` switches every limiter, read allocation and
 * object lock off (the baseline of the admission bench, and tests that care about nothing else).
 *
 * @example
 * createSimulator({ limits: false })
 * createSimulator({ limits: { rows: [{ id: 'endpoint-rate', max: 50 }], reads: false, locks: { waitMs: 500 } } })
 */
export type LimitsOption =
  | false
  | {
      /** Rows merged into the table by `id`. */
      readonly rows?: readonly LimitRowInput[]
      /** `false`: start from an empty table instead of the spec's defaults. */
      readonly defaults?: boolean
      readonly reads?: false | Partial<ReadAllocationConfig>
      readonly locks?: false | { readonly waitMs?: number }
    }

/**
 * The resolved configuration the limiter and the lock manager run on.
 *
 * @example
 * const config: LimitsConfig = resolveLimits({ reads: false })
 */
export interface LimitsConfig {
  readonly rows: readonly LimitRow[]
  readonly reads: ReadAllocationConfig | undefined
  readonly lockWaitMs: number | undefined
}

/**
 * A row of a scenario's `limits`, as written in the file: the fields of a limit-table row, all but
 * `id` optional, `off: true` to drop a default.
 *
 * @example
 * const row: LimitRowSpec = { id: 'endpoint-rate', max: 5, operations: ['customers.*'] }
 */
export interface LimitRowSpec {
  id: string
  off?: boolean | undefined
  scope?: LimitScope | undefined
  kind?: LimitKind | undefined
  max?: number | undefined
  windowMs?: number | undefined
  mode?: 'live' | 'test' | undefined
  /** Globs over operation names as the official client calls them (`customers.create`, `paymentIntents.*`). */
  operations?: readonly string[] | undefined
  except?: readonly string[] | undefined
  methods?: readonly ('GET' | 'POST' | 'DELETE')[] | undefined
  mutatesOnly?: boolean | undefined
}

// The public row type is what the schema parses: this fails to compile if either drifts.
type _RowPinned = Assert<Equal<LimitRowSpec, z.output<ReturnType<typeof buildLimitsSchemas>['limitRowSchema']>>>

let schemas: ReturnType<typeof buildLimitsSchemas> | undefined

/**
 * The schemas of the `limits` option: one row of the limit table as the option (and scenario
 * files) take it, and the whole option. Built on first use, not at load: a simulator made without
 * `limits` never needs zod.
 *
 * @example
 * limitsSchemas().limitRowSchema.parse({ id: 'endpoint-rate', max: 50 })
 * @internal
 */
export function limitsSchemas() {
  schemas ??= buildLimitsSchemas()
  return schemas
}

function buildLimitsSchemas() {
  const mode = z.enum(['live', 'test'])
  // Every glob must match an operation the simulator answers: a name from before the catalogue's
  // (`payment_intents.*`) would otherwise count nothing, silently.
  const glob = z
    .string()
    .min(1)
    .superRefine((value, ctx) => {
      const refusal = unknownOperation(value, 'glob')
      if (refusal !== undefined) ctx.addIssue({ code: 'custom', message: refusal })
    })
    .meta({
      description:
        "A glob over operation names as the official client calls them ('customers.create', 'paymentIntents.*', '*.search').",
    })
  const globs = z.array(glob).readonly()
  const limitRowSchema = z
    .object({
      id: z.string().min(1),
      off: z.boolean().optional(),
      scope: z.enum(['account', 'endpoint', 'resource', 'object', 'customer_meter', 'subscription']).optional(),
      kind: z.enum(['rate', 'concurrency']).optional(),
      max: z.number().int().min(0).optional(),
      windowMs: z.number().positive().optional(),
      mode: mode.optional(),
      operations: globs.optional(),
      except: globs.optional(),
      methods: z
        .array(z.enum(['GET', 'POST', 'DELETE']))
        .readonly()
        .optional(),
      mutatesOnly: z.boolean().optional(),
    })
    .strict()

  const objectSchema = z
    .object({
      rows: z.array(limitRowSchema).optional(),
      defaults: z.boolean().optional(),
      reads: z
        .union([
          z.literal(false),
          z
            .object({
              perTransaction: z.number().min(0).optional(),
              minimum: z.number().int().min(0).optional(),
              windowMs: z.number().positive().optional(),
              excluded: globs.optional(),
            })
            .strict(),
        ])
        .optional(),
      locks: z.union([z.literal(false), z.object({ waitMs: z.number().min(0).optional() }).strict()]).optional(),
    })
    .strict()
  return { limitRowSchema, objectSchema }
}

/**
 * Checks the `limits` option and throws a TypeError naming `createSimulator` and the offending
 * path (e.g. `limits.rows.0.max`); an operation glob that matches no operation is refused with the
 * catalogue's name when it is a former one.
 *
 * @example
 * validateLimits({ rows: [{ id: 'endpoint-rate', max: -1 }] }) // throws TypeError
 * validateLimits({ reads: { excluded: ['tax_rates.*'] } })
 * // TypeError: createSimulator: option 'limits.reads.excluded.0': unknown operation 'tax_rates.*'; did you mean 'taxRates.*'?
 */
export function validateLimits(option: unknown): asserts option is LimitsOption | undefined {
  if (option === undefined || option === false) return
  const parsed = limitsSchemas().objectSchema.safeParse(option)
  if (parsed.success) return
  const issue = parsed.error.issues[0]
  const path = ['limits', ...(issue?.path ?? []).map(String)].join('.')
  if (issue?.code === 'custom') throw new TypeError(`createSimulator: option '${path}': ${issue.message}`)
  throw new TypeError(`createSimulator: option '${path}' ${issue?.message ?? 'is invalid'} (limits takes false or an object)`)
}

/**
 * Merges the option into the default table. Throws a TypeError naming `createSimulator` when a new
 * row lacks `scope`, `kind` or `max`.
 * Without an option it answers the one frozen default config every simulator of the process shares.
 *
 * @example
 * resolveLimits(undefined).rows.length // the defaults
 * resolveLimits(false)                 // { rows: [], reads: undefined, lockWaitMs: undefined }
 */
export function resolveLimits(option: LimitsOption | undefined): LimitsConfig {
  if (option === false) return { rows: [], reads: undefined, lockWaitMs: undefined }
  // The defaults resolve to one frozen config, so every simulator and fork on them shares the
  // limit table compiled from its rows (limitTableOf) instead of compiling its own.
  if (option === undefined) {
    defaults ??= frozen(merge(undefined))
    return defaults
  }
  return merge(option)
}

let defaults: LimitsConfig | undefined

// Shared by every simulator of the process: frozen, so no one of them can change another's table.
// The rows themselves are DEFAULT_LIMITS' own objects, shared before any freezing.
function frozen(config: LimitsConfig): LimitsConfig {
  Object.freeze(config.rows)
  if (config.reads !== undefined) Object.freeze(config.reads)
  return Object.freeze(config)
}

function merge(option: Exclude<LimitsOption, false> | undefined): LimitsConfig {
  const table = new Map<string, LimitRow>()
  if (option?.defaults !== false) for (const row of DEFAULT_LIMITS) table.set(row.id, row)
  for (const input of option?.rows ?? []) {
    const { off, ...fields } = input as LimitRowInput & { off?: boolean }
    if (off === true) {
      table.delete(input.id)
      continue
    }
    const merged = { ...table.get(input.id), ...fields } as LimitRow
    if (merged.scope === undefined || merged.kind === undefined || merged.max === undefined) {
      throw new TypeError(`createSimulator: option 'limits.rows' row '${input.id}' is new and needs scope, kind and max`)
    }
    table.set(input.id, merged)
  }
  const reads = option?.reads === false ? undefined : { ...DEFAULT_READ_ALLOCATION, ...option?.reads }
  const lockWaitMs = option?.locks === false ? undefined : (option?.locks?.waitMs ?? DEFAULT_LOCK_WAIT_MS)
  return { rows: [...table.values()], reads, lockWaitMs }
}
