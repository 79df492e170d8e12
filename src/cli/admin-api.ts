import { z } from 'zod'
import { parseDuration } from '#kernel/duration.js'
import type { Simulator } from '../simulator/create-simulator.js'

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
      code: status === 413 ? 'body_too_large' : status === 404 ? 'resource_missing' : 'parameter_invalid',
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
  since: z.coerce.number().int().nonnegative(),
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

/**
 * The admin API of `service-sim serve`: setup, inspection and time travel over HTTP, so clients in
 * any language can drive the simulation. Everything else goes to `sim.fetch`.
 *
 * @example
 * const handler = withAdminApi(sim)
 * await handler(new Request('http://127.0.0.1/__sim/clock/advance', { method: 'POST', body: '{"duration":"15m"}' }))
 */
export function withAdminApi(sim: Simulator): (req: Request) => Promise<Response> {
  return async (req) => {
    const url = new URL(req.url)
    if (!url.pathname.startsWith(ADMIN_PREFIX)) return sim.fetch(req)
    const route = `${req.method} ${url.pathname.slice(ADMIN_PREFIX.length - 1)}`
    try {
      switch (route) {
        case 'GET /state':
          return json(200, {
            now: new Date(sim.clock.now).toISOString(),
            seed: sim.seed,
            platform: { id: sim.platform.id, secret_key: sim.platform.secretKey, publishable_key: sim.platform.publishableKey },
            accounts: sim.admin.accounts().map((a) => ({
              id: a.id,
              platform: a.platform ?? null,
              organisation: a.organisation ?? null,
              secret_key: a.keys.secret,
            })),
            trace: { length: sim.trace.length, hash: sim.trace.hash() },
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
          await sim.clock.tickAsync('ms' in b ? b.ms : b.duration)
          await sim.settle()
          return json(200, { now: new Date(sim.clock.now).toISOString() })
        }
        case 'POST /settle':
          await readBody(req, schemas.empty)
          await sim.settle()
          return json(200, { now: new Date(sim.clock.now).toISOString() })
        case 'GET /events':
          return json(200, {
            data: sim.admin.events().map((e) => ({ id: e.id, type: e.type, account: e.account, mode: e.mode, kind: e.kind })),
          })
        case 'GET /trace': {
          const parsed = schemas.since.safeParse(url.searchParams.get('since') ?? 0)
          if (!parsed.success) return fail(400, 'since: expected a non-negative integer sequence number', 'since')
          const since = parsed.data
          const lines = sim.trace
            .entries()
            .filter((e) => e.seq >= since)
            .map((e) => `${JSON.stringify(e)}\n`)
            .join('')
          return new Response(lines, { headers: { 'Content-Type': 'application/x-ndjson' } })
        }
        default:
          return fail(404, `no admin route ${route}; see 'service-sim serve --help'`)
      }
    } catch (error) {
      if (error instanceof AdminInputError) return fail(error.status, error.message, error.param)
      return fail(400, error instanceof Error ? error.message : String(error))
    }
  }
}
