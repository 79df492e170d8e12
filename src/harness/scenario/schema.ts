import { z } from 'zod'
import { EVENT_PAYLOADS, EVENTS_FROM } from '#catalogue/index.js'
import { limitsSchemas } from '#domain/index.js'
import { faultSchemas } from '#faults/index.js'
import { type Assert, durationSchema, type Equal } from '#kernel/index.js'
import type * as T from './scenario-types.js'
import { FLOW_SCENARIO_PROPERTIES } from './scenario-types.js'

export type * from './scenario-types.js'

const name = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/, { message: 'expected a name: a letter, then letters, digits, _ or -' })

/** A count expectation: exactly `n`, or a range. */
const countSchema = z.union([
  z.number().int().nonnegative(),
  z.object({ min: z.number().int().nonnegative().optional(), max: z.number().int().nonnegative().optional() }).strict(),
])

/**
 * What a request step expects: a status (or any of several), an error code, a 429 reason, and for
 * parallel or repeated requests a tally of outcome labels (`200`, `429 lock_timeout`, `429 global-rate`).
 */
const expectSchema = z
  .object({
    status: z.union([z.number().int(), z.array(z.number().int()).min(1)]).optional(),
    code: z.string().optional(),
    reason: z.string().optional(),
    outcomes: z.record(z.string(), countSchema).optional(),
    body: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Values in the JSON answer by dotted path (null: absent), e.g. { "metadata.tier": null }.' }),
    request_id: z.boolean().optional().meta({ description: 'Whether the answers carry a Request-Id header.' }),
    headers: z
      .record(z.string(), z.union([z.string(), z.null()]))
      .optional()
      .meta({ description: 'Response header values (null: absent), e.g. { Service-Should-Retry: "true" }.' }),
  })
  .strict()

const requestSchema = z
  .object({
    method: z.enum(['GET', 'POST', 'DELETE']).default('GET'),
    path: z.string().regex(/^\//, { message: 'expected a path starting with /, e.g. /v1/account' }),
    query: z.record(z.string(), z.unknown()).optional(),
    body: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    as: name.optional().meta({ description: "Account whose secret key authenticates (default 'platform')." }),
    account: z.string().optional().meta({ description: 'Account name (or id) sent as <Prefix>-Account.' }),
    context: z.string().optional().meta({ description: 'Value of <Prefix>-Context (templates allowed).' }),
    token: z
      .string()
      .optional()
      .meta({ description: 'Bearer token instead of a secret key, e.g. {{session.authentication_token}}.' }),
    version: z.string().optional(),
    idempotency_key: z.string().optional(),
    mode: z.enum(['test', 'live']).optional(),
    save: name.optional().meta({ description: 'Save the response body under this name for {{name.field}} templates.' }),
    times: z.number().int().positive().max(10_000).optional().meta({ description: 'Send the request this many times in a row.' }),
  })
  .strict()

const stepActions = ['request', 'parallel', 'advance', 'settle', 'client', 'receiver', 'admin', 'repeat'] as const

const stepSchema: z.ZodType<T.StepSpec> = z.lazy(() =>
  z
    .object({
      label: z.string().optional(),
      expect: expectSchema.optional(),
      request: requestSchema.optional(),
      parallel: z.array(requestSchema).min(1).optional().meta({ description: 'Requests sent at the same virtual instant.' }),
      advance: durationSchema().optional().meta({ description: 'Move the virtual clock, running everything due on the way.' }),
      settle: z.literal(true).optional(),
      client: z
        .object({ action: z.string(), args: z.record(z.string(), z.unknown()).optional(), save: name.optional() })
        .strict()
        .optional()
        .meta({ description: 'Run an action of the client module (the reference client by default).' }),
      receiver: z
        .object({ name, state: z.enum(['up', 'down']), status: z.number().int().min(100).max(599).optional() })
        .strict()
        .optional(),
      admin: z
        .object({ call: z.string(), args: z.array(z.unknown()).optional(), save: name.optional() })
        .strict()
        .optional()
        .meta({ description: 'Call a sim.admin method, e.g. setApiVersion.' }),
      repeat: z
        .object({ times: z.number().int().positive().max(10_000), steps: z.array(stepSchema).min(1) })
        .strict()
        .optional(),
    })
    .strict()
    .superRefine((step, ctx) => {
      const present = stepActions.filter((k) => step[k] !== undefined)
      if (present.length !== 1) {
        ctx.addIssue({
          code: 'custom',
          message:
            present.length === 0
              ? `expected exactly one action: ${stepActions.join(', ')}`
              : `expected exactly one action, found ${present.join(' and ')}`,
        })
      }
    }),
)

// The same row schema as createSimulator's `limits` option: one definition of a limit row.
const limitRow = limitsSchemas().limitRowSchema

/** The `limits` option of `createSimulator`: rows merged by id into the spec's table, reads, lock wait. */
const limitsSchema = z
  .union([
    z.literal(false),
    z
      .object({
        rows: z.array(limitRow).optional(),
        defaults: z.boolean().optional(),
        reads: z.union([z.literal(false), z.object({ minimum: z.number().int().min(0).optional() }).strict()]).optional(),
        locks: z.union([z.literal(false), z.object({ waitMs: z.number().int().min(0).optional() }).strict()]).optional(),
      })
      .strict(),
  ])
  .meta({ description: "The limit table: rows by id ('endpoint-rate', 'global-concurrency.live', ...) or false for none." })

const accountSetup = z
  .object({
    name,
    email: z.string().optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, { message: 'expected a two-letter country code' })
      .optional(),
    type: z.enum(['standard', 'express', 'custom']).optional(),
    api_version: z.string().optional(),
    metadata: z.record(z.string(), z.string()).optional(),
  })
  .strict()

const meterSetup = z
  .object({
    name,
    event_name: z.string().min(1),
    display_name: z.string().optional(),
    account: z.string().optional(),
    customer_key: z.string().optional(),
    value_key: z.string().optional(),
  })
  .strict()

const destinationSetup = z
  .object({
    name,
    account: z.string().optional().meta({ description: "Owner account name (default 'platform')." }),
    url: z.url(),
    events_from: z.array(z.enum(EVENTS_FROM)).default(['@self']),
    event_payload: z.enum(EVENT_PAYLOADS).default('snapshot'),
    enabled_events: z.array(z.string()).min(1),
    api_version: z.string().optional(),
    mode: z.enum(['test', 'live']).optional(),
  })
  .strict()

const receiverSetup = z
  .object({
    name,
    url: z.url(),
    client: z.string().default('reference').meta({ description: "'reference' or a module path exporting receiver(ctx)." }),
    destination: name.optional().meta({ description: 'Destination whose signing secret the receiver verifies with.' }),
    state: z.enum(['up', 'down']).default('up'),
    status: z
      .number()
      .int()
      .min(100)
      .max(599)
      .optional()
      .meta({ description: 'Status answered while down (default: no connection).' }),
  })
  .strict()

const expectationsSchema = z
  .object({
    checkers: z.array(z.string()).default([]),
    outcomes: z.record(z.string(), countSchema).optional().meta({ description: 'Tally of every request outcome label.' }),
    events: z
      .array(
        z
          .object({ type: z.string(), account: z.string().optional(), api_version: z.string().optional(), count: countSchema })
          .strict(),
      )
      .optional(),
    trace: z.array(z.object({ kind: z.string(), count: countSchema }).strict()).optional(),
    receivers: z
      .record(
        z.string(),
        z
          .object({
            attempts: countSchema.optional(),
            accepted: countSchema.optional(),
            refused: countSchema.optional(),
            unique: countSchema.optional(),
            duplicates: countSchema.optional(),
            bad_signatures: countSchema.optional(),
            statuses: z
              .record(z.string().regex(/^\d{3}$/, { message: 'expected a status code' }), countSchema)
              .optional()
              .meta({ description: 'Deliveries per status the receiver answered (0: connection refused).' }),
            processed: countSchema.optional().meta({
              description: 'Side effects the receiver reported (ctx.processed): one per event for a deduplicating receiver.',
            }),
            out_of_order: countSchema
              .optional()
              .meta({ description: 'Events first seen after a later-created event was already seen.' }),
            replays: countSchema.optional().meta({ description: 'Old signed deliveries re-POSTed by replay_delivery.' }),
            replays_accepted: countSchema.optional().meta({ description: 'Replayed deliveries the receiver answered 2xx.' }),
          })
          .strict(),
      )
      .optional(),
    deliveries: z
      .record(
        z.string(),
        z.object({ delivered: countSchema.optional(), failed: countSchema.optional(), pending: countSchema.optional() }).strict(),
      )
      .optional()
      .meta({ description: 'Delivery status counts per destination (needs sim.admin.deliveries).' }),
  })
  .strict()

/**
 * A scenario: one reproducible run of the simulator. Written as YAML or JSON; `scenarios/scenario.schema.json`
 * is this schema for editors.
 *
 * @example
 * scenarioSchema.parse({ name: 'hello', workload: [{ request: { path: '/v1/account' }, expect: { status: 200 } }] })
 * @internal
 */
export const scenarioSchema = z
  .object({
    $schema: z.string().optional(),
    name,
    description: z.string().optional(),
    seed: z.union([z.number().int(), z.string()]).default(0),
    mode: z.enum(['test', 'live']).default('test'),
    start: z
      .string()
      .refine((s) => Number.isFinite(Date.parse(s)), { message: 'expected an ISO 8601 time, e.g. 2026-03-01T00:00:00Z' })
      .optional(),
    header_prefix: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9]*$/)
      .optional(),
    api_version: z.string().optional(),
    service_time: durationSchema().optional().meta({ description: 'Virtual time each request stays in flight.' }),
    limits: limitsSchema.optional(),
    setup: z
      .object({
        accounts: z.array(accountSetup).default([]),
        organisations: z.array(z.object({ name, accounts: z.array(z.string()).min(1) }).strict()).default([]),
        meters: z.array(meterSetup).default([]),
        destinations: z.array(destinationSetup).default([]),
        receivers: z.array(receiverSetup).default([]),
      })
      .strict()
      .default({ accounts: [], organisations: [], meters: [], destinations: [], receivers: [] }),
    harness: z
      .object({
        reporter: z.string().optional(),
        webhook: z.string().optional(),
        flow: z.enum(FLOW_SCENARIO_PROPERTIES).optional().meta({
          description:
            "A billing flow with a client under test: the workload's client actions are the property's flow steps, judged by its checkers (fulfilment, subscription_mirror, dunning, thin_events).",
        }),
        client: z.string().optional().meta({
          description:
            "The flow's client: 'reference' (default), a bundled buggy variant's name, or a module path exporting `client` (a factory).",
        }),
        every_event: z.boolean().optional().meta({
          description:
            "A billing flow whose endpoint is subscribed to every event type ('*'), as a generated program may be; otherwise to the types its property handles.",
        }),
        deterministic_crypto: z.boolean().optional().meta({
          description:
            "Whether Web Crypto's HMAC and digest answer at once during the billing flow (default true), as the check that wrote the counterexample ran it ('deterministicCrypto'); false replays with the real ones.",
        }),
        options: z.record(z.string(), z.unknown()).optional().meta({
          description:
            "A billing flow property's own options the counterexample was found with: the mirror's 'pastDueGraceMs' and 'access' policy, fulfilment's 'payments' and 'provisional'.",
        }),
      })
      .strict()
      .optional()
      .meta({
        description:
          "The subject of a property-harness counterexample: 'reference', a bundled buggy variant's name, or a module path exporting reporter/webhook; or the property and client of a billing flow.",
      }),
    workload: z.array(stepSchema).default([]),
    faults: faultSchemas().faultsSchema.default({ schedule: [] }),
    expectations: expectationsSchema.default({ checkers: [] }),
  })
  .strict()

// The public types of scenario-types.ts are what the schemas parse: these fail to compile if either drifts.
type _CountPinned = Assert<Equal<T.CountExpectation, z.output<typeof countSchema>>>
type _ExpectPinned = Assert<Equal<T.StepExpectation, z.output<typeof expectSchema>>>
type _RequestPinned = Assert<Equal<T.RequestSpec, z.output<typeof requestSchema>>>
type _LimitsPinned = Assert<Equal<T.ScenarioLimits, z.output<typeof limitsSchema>>>
type _ScenarioPinned = Assert<Equal<T.Scenario, z.output<typeof scenarioSchema>>>
type _ScenarioInputPinned = Assert<Equal<T.ScenarioInput, z.input<typeof scenarioSchema>>>
