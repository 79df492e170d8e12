import type { z } from 'zod'
import { isoTime } from '#kernel/time.js'
import { MAX_BODY_BYTES } from './host.js'

/**
 * A JSON answer of the admin API (pretty-printed: people read it with curl).
 *
 * @example
 * return json(200, { now: '2026-01-01T00:00:00.000Z' })
 */
export const json = (status: number, body: unknown): Response =>
  new Response(`${JSON.stringify(body, null, 2)}\n`, { status, headers: { 'Content-Type': 'application/json' } })

const codes: Readonly<Record<number, string>> = { 404: 'resource_missing', 405: 'method_not_allowed', 413: 'body_too_large' }

/**
 * A refusal in the service's error envelope; the code follows from the status.
 *
 * @example
 * return fail(404, "meter: no such meter 'mtr_x'", 'meter')
 */
export const fail = (status: number, message: string, param?: string): Response =>
  json(status, {
    error: {
      type: 'invalid_request_error',
      code: codes[status] ?? 'parameter_invalid',
      message,
      ...(param === undefined ? {} : { param }),
    },
  })

/**
 * A refused admin request: answered with its status in the JSON envelope, before anything changed.
 *
 * @example
 * throw new AdminInputError(400, "accounts: no such account 'acct_x'", 'accounts')
 */
export class AdminInputError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
  ) {
    super(message)
  }
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

function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const param = issue?.path.join('.') || undefined
  throw new AdminInputError(400, `${param ? `${param}: ` : ''}${issue?.message ?? `invalid ${what}`}`, param)
}

/**
 * Reads and validates a JSON body (an empty body is `{}`), refusing an oversized one with 413
 * without reading it whole.
 *
 * @example
 * const b = await readBody(req, z.strictObject({ email: z.string().optional() }))
 */
export async function readBody<T>(req: Request, schema: z.ZodType<T>): Promise<T> {
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
  return parsed(schema, value, 'body')
}

/**
 * Query parameters validated like a body: unknown ones refused, each value a single string.
 *
 * @example
 * const q = readQuery(url, z.strictObject({ since: z.coerce.number().optional() }))
 */
export function readQuery<T>(url: URL, schema: z.ZodType<T>): T {
  const value: Record<string, string> = {}
  for (const [name, text] of url.searchParams) {
    if (name in value) throw new AdminInputError(400, `${name}: given more than once`, name)
    value[name] = text
  }
  return parsed(schema, value, 'query')
}

/**
 * Epoch ms as an ISO time, `null` for none.
 *
 * @example
 * iso(0) // '1970-01-01T00:00:00.000Z'
 */
export const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : isoTime(ms))
