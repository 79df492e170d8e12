import { z } from 'zod'
import { ServiceError } from '#domain/service-error.js'
import { parseDuration } from '#kernel/duration.js'
import { DELIVERY_STATUSES } from '../catalogue/rules.js'
import { faultInjectionSchema, faultKinds } from '../faults/faults-schema.js'
import { createSimulator, type Simulator } from '../simulator/create-simulator.js'
import type { Snapshot } from '../simulator/snapshot.js'
import type { ServeClock } from './wall-driver.js'

/** The reserved path prefix of the admin API in serve mode. */
export const ADMIN_PREFIX = '/__sim/'

/** Largest request body the admin API and the HTTP server read: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024

/** Longest single clock advance: ten years (a larger jump is a mistake, and overflows dates). */
export const MAX_ADVANCE_MS = 10 * 365 * 86_400_000

const json = (status: number, body: unknown) =>
  new Response(`${JSON.stringify(body, null, 2)}\n`, { status, headers: { 'Content-Type': 'application/json' } })
const fail = (status: number, message: string, param?: string) =>
  json(status, {
    error: {
      type: 'invalid_request_error',
      code:
        status === 413
          ? 'body_too_large'
          : status === 404
            ? 'resource_missing'
            : status === 405
              ? 'method_not_allowed'
              : 'parameter_invalid',
      message,
      ...(param === undefined ? {} : { param }),
    },
  })

/** A refused admin request: answered with its status in the JSON envelope, before anything changed. */
class AdminInputError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
  ) {
    super(message)
  }
}

const ms = z
  .number()
  .int('expected a whole number of milliseconds')
  .nonnegative('expected a non-negative number of milliseconds')
  .max(MAX_ADVANCE_MS, `at most ${MAX_ADVANCE_MS} ms (10 years) at a time`)
const schemas = {
  account: z.strictObject({ email: z.string().max(512).optional(), country: z.string().length(2).optional() }),
  organisation: z.strictObject({
    accounts: z.array(z.string().min(1).max(255)).min(1).max(100),
    name: z.string().max(512).optional(),
  }),
  advance: z.union([
    z.strictObject({ ms }),
    z.strictObject({
      duration: z
        .string()
        .max(64)
        .transform((text, ctx) => {
          const value = parseDuration(text)
          if (value === undefined || value > MAX_ADVANCE_MS) {
            ctx.addIssue({ code: 'custom', message: `expected a duration such as 15m or 2d, at most 10 years, got '${text}'` })
            return z.NEVER
          }
          return value
        }),
    }),
  ]),
  empty: z.strictObject({}),
  trace: z.strictObject({
    since: z.coerce
      .number('expected a non-negative integer sequence number')
      .int('expected a non-negative integer sequence number')
      .nonnegative('expected a non-negative integer sequence number')
      .optional(),
  }),
  trigger: z.strictObject({
    type: z
      .string()
      .max(255)
      .regex(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/, 'expected an event type name such as payment_intent.succeeded'),
    account: z.string().min(1).max(255).optional(),
    mode: z.enum(['test', 'live']).optional(),
    object: z.record(z.string(), z.unknown()).optional(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
  resend: z.strictObject({
    event: z.string().min(1).max(255),
    destination: z.string().min(1).max(255),
    via: z.enum(['dashboard', 'cli']).optional(),
  }),
  deliveries: z.strictObject({
    event: z.string().min(1).max(255).optional(),
    destination: z.string().min(1).max(255).optional(),
    status: z.enum(DELIVERY_STATUSES).optional(),
  }),
  meter: z.strictObject({
    event_name: z.string().min(1).max(100),
    display_name: z.string().max(250).optional(),
    formula: z.enum(['sum', 'count', 'last']).optional(),
    customer_key: z.string().min(1).max(100).optional(),
    value_key: z.string().min(1).max(100).optional(),
    account: z.string().min(1).max(255).optional(),
    mode: z.enum(['test', 'live']).optional(),
  }),
  inject: faultInjectionSchema,
  rates: z.strictObject({ rates: z.partialRecord(z.enum(faultKinds), z.number().min(0).max(1)) }),
  billedUsage: z.strictObject({
    customer: z.string().min(1).max(255),
    account: z.string().min(1).max(255).optional(),
    mode: z.enum(['test', 'live']).optional(),
    meter: z.string().min(1).max(255).optional(),
  }),
  meterSummary: z.strictObject({
    meter: z.string().min(1).max(255),
    customer: z.string().min(1).max(255),
    start: z.coerce.number().int().optional(),
    end: z.coerce.number().int().optional(),
  }),
}

/**
 * Every route of the admin API, as `METHOD /path` under `/__sim`. `docs/admin-api.openapi.yaml`
 * documents exactly these (a test holds the two together).
 *
 * @example
 * ADMIN_ROUTES.includes('POST /events/trigger') // true
 */
export const ADMIN_ROUTES: readonly string[] = [
  'GET /state',
  'POST /accounts',
  'POST /organisations',
  'POST /meters',
  'GET /meters/summary',
  'GET /billing/usage',
  'POST /clock/advance',
  'POST /settle',
  'GET /events',
  'POST /events/trigger',
  'GET /deliveries',
  'POST /deliveries/resend',
  'GET /destinations',
  'GET /faults',
  'POST /faults/inject',
  'POST /faults/rates',
  'POST /faults/clear',
  'POST /reset',
  'POST /snapshot',
  'GET /trace',
]

/**
 * What the admin API drives: the current simulator, how the clock moves and how to start over.
 * `withAdminApi(sim)` makes a manual one whose reset builds a simulator with the same seed and
 * header prefix.
 */
export interface AdminHost {
  /** The simulator now served (a reset replaces it). */
  readonly sim: Simulator
  readonly clock: ServeClock
  /** Moves virtual time ahead by `ms` and runs the work due on the way (with `--clock wall`, it stays ahead). */
  advance(ms: number): Promise<void>
  /** Replaces the simulator with a fresh one built from the same options (token, port and clock mode kept). */
  reset(): Promise<Simulator>
  /**
   * Takes a snapshot at rest (after settling the work due now) and, with `serve --state`, writes it
   * to the state file atomically; `file` is that path, or undefined.
   */
  snapshot(): Promise<{ snapshot: Snapshot; file: string | undefined }>
  /** What the host set up at start (e.g. `--forward-to` destinations), shown in `GET /state`. */
  readonly extras?: () => Record<string, unknown>
}

/**
 * Reads at most `limit` bytes of a body, and stops (without reading the rest) once it is over.
 *
 * @example
 * const text = await readLimited(req.body, MAX_BODY_BYTES) // undefined when too large
 */
export async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string | undefined> {
  if (body === null) return ''
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

async function readBody<T>(req: Request, schema: z.ZodType<T>): Promise<T> {
  const declared = Number(req.headers.get('content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) throw new AdminInputError(413, `request body over ${MAX_BODY_BYTES} bytes`)
  const text = await readLimited(req.body, MAX_BODY_BYTES)
  if (text === undefined) throw new AdminInputError(413, `request body over ${MAX_BODY_BYTES} bytes`)
  let value: unknown = {}
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw new AdminInputError(400, `body is not JSON: ${(error as Error).message}`)
    }
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const param = issue?.path.join('.') || undefined
    throw new AdminInputError(400, `${param ? `${param}: ` : ''}${issue?.message ?? 'invalid body'}`, param)
  }
  return parsed.data
}

/** Query parameters validated like a body: unknown ones refused, each value a single string. */
function readQuery<T>(url: URL, schema: z.ZodType<T>): T {
  const value: Record<string, string> = {}
  for (const [name, text] of url.searchParams) {
    if (name in value) throw new AdminInputError(400, `${name}: given more than once`, name)
    value[name] = text
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const param = issue?.path.join('.') || undefined
    throw new AdminInputError(400, `${param ? `${param}: ` : ''}${issue?.message ?? 'invalid query'}`, param)
  }
  return parsed.data
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString())

/** A manual host around one simulator. */
function manualHost(initial: Simulator): AdminHost {
  let sim = initial
  return {
    get sim() {
      return sim
    },
    clock: { mode: 'manual' },
    async advance(ms) {
      await sim.clock.tickAsync(ms)
      await sim.settle()
    },
    async reset() {
      sim = createSimulator({ seed: sim.seed, headerPrefix: sim.service.kernel.prefix })
      return sim
    },
    async snapshot() {
      await sim.settle()
      return { snapshot: sim.snapshot(), file: undefined }
    },
  }
}

/** The fault engine's state: the rates in force, what fired, and every kind that can be injected. */
function faultsJson(sim: Simulator) {
  return { rates: sim.faults.rates(), fired: sim.faults.fired(), kinds: [...faultKinds] }
}

/**
 * Duplicate and reordered deliveries drawn by rate are the delivery area's own knobs (as
 * `installFaults` sets them from the policy): they follow the rates in force.
 */
function syncDeliveryKnobs(sim: Simulator): void {
  const rates = sim.faults.rates()
  const knobs = sim.admin.deliveryFaults
  knobs.duplicateRate = rates.duplicate_delivery ?? 0
  knobs.reorderWindowMs = (rates.reorder_delivery ?? 0) > 0 ? (sim.faults.policy.params.reorder_delivery?.delay ?? 5_000) : 0
}

/** The JSON of a delivery: every attempt, and the next automatic one. */
function deliveryJson(r: ReturnType<Simulator['admin']['deliveries']>[number]) {
  return {
    event: r.eventId,
    event_type: r.eventType,
    destination: r.destinationId,
    url: r.url,
    mode: r.mode,
    status: r.status,
    retries: r.retries,
    next_attempt_at: iso(r.nextAttemptAt),
    cancelled: r.cancelled ?? null,
    attempts: r.attempts.map(attemptJson),
  }
}

function attemptJson(a: ReturnType<Simulator['admin']['deliveries']>[number]['attempts'][number]) {
  return {
    at: iso(a.at),
    trigger: a.trigger,
    outcome: a.outcome,
    status: a.status,
    duration_ms: a.durationMs,
    ...(a.message === undefined ? {} : { message: a.message }),
  }
}

const eventJson = (e: ReturnType<Simulator['admin']['events']>[number]) => ({
  id: e.id,
  type: e.type,
  account: e.account,
  mode: e.mode,
  kind: e.kind,
  created: iso(e.at),
})

/**
 * The admin API of `service-sim serve`: setup, inspection, time travel, events, deliveries, faults
 * and reset over HTTP, so test suites in any language can drive the simulation. Everything outside
 * `/__sim/` goes to the served simulator's `fetch`. Every input is validated (zod) before anything
 * changes; a refusal is answered in the JSON error envelope. The routes are `ADMIN_ROUTES`.
 *
 * @example
 * const handler = withAdminApi(sim)
 * await handler(new Request('http://127.0.0.1/__sim/clock/advance', { method: 'POST', body: '{"duration":"15m"}' }))
 */
export function withAdminApi(target: Simulator | AdminHost): (req: Request) => Promise<Response> {
  const host: AdminHost = 'fetch' in target ? manualHost(target) : target
  return async (req) => {
    const url = new URL(req.url)
    const sim = host.sim
    if (!url.pathname.startsWith(ADMIN_PREFIX)) return sim.fetch(req)
    const path = url.pathname.slice(ADMIN_PREFIX.length - 1)
    const route = `${req.method} ${path}`
    try {
      // Routes without a query take none: a stray one is a mistake worth saying (on a route that
      // exists: a wrong method is 405 whatever its query).
      if (req.method !== 'GET' && url.search !== '' && ADMIN_ROUTES.includes(route))
        return fail(400, `${route} takes no query parameters`)
      switch (route) {
        case 'GET /state':
          readQuery(url, schemas.empty)
          return json(200, {
            now: new Date(sim.clock.now).toISOString(),
            seed: sim.seed,
            header_prefix: sim.service.kernel.prefix,
            clock: host.clock,
            platform: { id: sim.platform.id, secret_key: sim.platform.secretKey, publishable_key: sim.platform.publishableKey },
            accounts: sim.admin.accounts().map((a) => ({
              id: a.id,
              platform: a.platform ?? null,
              organisation: a.organisation ?? null,
              secret_key: a.keys.secret,
            })),
            trace: { length: sim.trace.length, hash: sim.trace.hash() },
            ...(host.extras?.() ?? {}),
          })
        case 'POST /accounts': {
          const b = await readBody(req, schemas.account)
          const a = sim.admin.createAccount({
            ...(b.email === undefined ? {} : { email: b.email }),
            ...(b.country === undefined ? {} : { country: b.country }),
          })
          return json(200, { id: a.id, secret_key: a.keys.secret, publishable_key: a.keys.publishable })
        }
        case 'POST /organisations': {
          const b = await readBody(req, schemas.organisation)
          const missing = b.accounts.find((id) => sim.admin.account(id) === undefined)
          if (missing !== undefined) return fail(400, `accounts: no such account '${missing}'`, 'accounts')
          const org = sim.admin.createOrganisation({
            accounts: b.accounts,
            ...(b.name === undefined ? {} : { name: b.name }),
          })
          return json(200, { id: org.id, accounts: [...org.accounts] })
        }
        case 'POST /meters': {
          const b = await readBody(req, schemas.meter)
          if (b.account !== undefined && sim.admin.account(b.account) === undefined)
            return fail(400, `account: no such account '${b.account}'`, 'account')
          return json(
            200,
            sim.admin.createMeter({
              eventName: b.event_name,
              ...(b.display_name === undefined ? {} : { displayName: b.display_name }),
              ...(b.formula === undefined ? {} : { formula: b.formula }),
              ...(b.customer_key === undefined ? {} : { customerKey: b.customer_key }),
              ...(b.value_key === undefined ? {} : { valueKey: b.value_key }),
              ...(b.account === undefined ? {} : { account: b.account }),
              ...(b.mode === undefined ? {} : { mode: b.mode }),
            }),
          )
        }
        case 'GET /meters/summary': {
          const q = readQuery(url, schemas.meterSummary)
          if (sim.admin.meter(q.meter) === undefined) return fail(404, `meter: no such meter '${q.meter}'`, 'meter')
          const s = sim.admin.meterSummary({
            meter: q.meter,
            customer: q.customer,
            ...(q.start === undefined ? {} : { start: q.start }),
            ...(q.end === undefined ? {} : { end: q.end }),
          })
          return json(200, { ...s, stats: sim.admin.meterStats() })
        }
        case 'GET /billing/usage': {
          const q = readQuery(url, schemas.billedUsage)
          if (q.account !== undefined && sim.admin.account(q.account) === undefined)
            return fail(400, `account: no such account '${q.account}'`, 'account')
          if (q.meter !== undefined && sim.admin.meter(q.meter) === undefined)
            return fail(404, `meter: no such meter '${q.meter}'`, 'meter')
          return json(
            200,
            sim.admin.billedUsage({
              customer: q.customer,
              ...(q.account === undefined ? {} : { account: q.account }),
              ...(q.mode === undefined ? {} : { mode: q.mode }),
              ...(q.meter === undefined ? {} : { meter: q.meter }),
            }),
          )
        }
        case 'POST /clock/advance': {
          // Validated whole before the clock moves: a refused advance leaves time where it was.
          const b = await readBody(req, schemas.advance).catch((error: unknown) => {
            if (error instanceof AdminInputError && error.status === 400)
              throw new AdminInputError(
                400,
                `expected {"ms": <integer 0..${MAX_ADVANCE_MS}>} or {"duration": "15m"}: ${error.message}`,
                error.param,
              )
            throw error
          })
          await host.advance('ms' in b ? b.ms : b.duration)
          return json(200, { now: new Date(host.sim.clock.now).toISOString() })
        }
        case 'POST /settle':
          await readBody(req, schemas.empty)
          await sim.settle()
          return json(200, { now: new Date(sim.clock.now).toISOString() })
        case 'GET /events':
          readQuery(url, schemas.empty)
          return json(200, { data: sim.admin.events().map(eventJson) })
        case 'POST /events/trigger': {
          const b = await readBody(req, schemas.trigger)
          if (b.account !== undefined && sim.admin.account(b.account) === undefined)
            return fail(400, `account: no such account '${b.account}'`, 'account')
          const event = sim.admin.trigger(b.type, {
            ...(b.account === undefined ? {} : { account: b.account }),
            ...(b.mode === undefined ? {} : { mode: b.mode }),
            ...(b.object === undefined ? {} : { object: b.object }),
            ...(b.data === undefined ? {} : { data: b.data }),
          })
          return json(200, { ...eventJson(event), body: event.body })
        }
        case 'GET /deliveries': {
          const q = readQuery(url, schemas.deliveries)
          return json(200, { data: sim.admin.deliveries(q).map(deliveryJson) })
        }
        case 'POST /deliveries/resend': {
          const b = await readBody(req, schemas.resend)
          const attempt = await sim.admin.resend(b.event, b.destination, b.via === undefined ? {} : { via: b.via })
          return json(200, attemptJson(attempt))
        }
        case 'GET /destinations':
          readQuery(url, schemas.empty)
          return json(200, {
            data: sim.admin.destinations().map((d) => ({
              id: d.id,
              account: d.account,
              mode: d.mode,
              url: d.url,
              status: d.status,
              event_payload: d.eventPayload,
              events_from: [...d.eventsFrom],
              enabled_events: [...d.enabledEvents],
              signing_secrets: sim.admin.signingSecrets(d.id),
            })),
          })
        case 'GET /faults':
          readQuery(url, schemas.empty)
          return json(200, faultsJson(sim))
        case 'POST /faults/inject': {
          const b = await readBody(req, schemas.inject)
          // A receiver named by id must be a destination: a typo would arm nothing, silently.
          const r = b.receiver
          if (r !== undefined && r !== '*' && !/^https?:\/\//.test(r) && !sim.admin.destinations().some((d) => d.id === r))
            return fail(404, `No such destination: '${r}' (receiver takes a destination id or a URL)`, 'receiver')
          sim.faults.inject(b)
          return json(200, faultsJson(sim))
        }
        case 'POST /faults/rates': {
          const b = await readBody(req, schemas.rates)
          sim.faults.setRates(b.rates)
          syncDeliveryKnobs(sim)
          return json(200, faultsJson(sim))
        }
        case 'POST /faults/clear':
          await readBody(req, schemas.empty)
          sim.faults.clear()
          syncDeliveryKnobs(sim)
          return json(200, faultsJson(sim))
        case 'POST /reset': {
          await readBody(req, schemas.empty)
          const fresh = await host.reset()
          return json(200, {
            now: new Date(fresh.clock.now).toISOString(),
            seed: fresh.seed,
            trace: { length: fresh.trace.length },
          })
        }
        case 'POST /snapshot': {
          await readBody(req, schemas.empty)
          let taken: Awaited<ReturnType<AdminHost['snapshot']>>
          try {
            taken = await host.snapshot()
          } catch (error) {
            // Work in flight (a delivery awaiting a slow receiver): a snapshot is taken at rest.
            return fail(409, error instanceof Error ? error.message : String(error))
          }
          return new Response(JSON.stringify(taken.snapshot), { headers: { 'Content-Type': 'application/json' } })
        }
        case 'GET /trace': {
          const { since = 0 } = readQuery(url, schemas.trace)
          const lines = sim.trace
            .entries()
            .filter((e) => e.seq >= since)
            .map((e) => `${JSON.stringify(e)}\n`)
            .join('')
          return new Response(lines, { headers: { 'Content-Type': 'application/x-ndjson' } })
        }
        default:
          return ADMIN_ROUTES.some((r) => r.endsWith(` ${path}`))
            ? fail(405, `${req.method} is not served at /__sim${path}; see docs/admin-api.openapi.yaml`)
            : fail(404, `no admin route ${route}; see docs/admin-api.openapi.yaml or 'service-sim serve --help'`)
      }
    } catch (error) {
      if (error instanceof AdminInputError) return fail(error.status, error.message, error.param)
      if (error instanceof ServiceError) return fail(error.status === 404 ? 404 : 400, error.message, error.param)
      return fail(400, error instanceof Error ? error.message : String(error))
    }
  }
}
