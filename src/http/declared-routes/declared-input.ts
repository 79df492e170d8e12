import { z } from 'zod'
import { ServiceError } from '#domain/service-error.js'
import { type DeclaredRoute, declaredRouteKey } from './declared-route.js'

const CODES: Readonly<Record<number, string>> = { 404: 'resource_missing', 405: 'method_not_allowed', 413: 'body_too_large' }

/**
 * A refusal of a declared route in the API's error envelope (`invalid_request_error`); the code
 * follows from the status.
 *
 * @example
 * declaredError(404, "meter: no such meter 'mtr_x'", 'meter').toJSON()
 * // { error: { type: 'invalid_request_error', code: 'resource_missing', message: "meter: …", param: 'meter' } }
 */
export function declaredError(status: number, message: string, param?: string): ServiceError {
  return new ServiceError({
    status,
    type: 'invalid_request_error',
    code: CODES[status] ?? 'parameter_invalid',
    message,
    ...(param === undefined ? {} : { param }),
  })
}

/**
 * An input refused before anything changed (or a handler's refusal): answered with its status
 * in the envelope.
 *
 * @example
 * throw new DeclaredInputError(400, "accounts: no such account 'acct_x'", 'accounts')
 */
export class DeclaredInputError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
  ) {
    super(message)
  }
}

/**
 * No parameters at all.
 *
 * @example
 * readDeclaredBody('{}', NO_INPUT) // {}
 */
export const NO_INPUT = z.strictObject({})

function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const param = issue?.path.join('.') || undefined
  throw new DeclaredInputError(400, `${param ? `${param}: ` : ''}${issue?.message ?? `invalid ${what}`}`, param)
}

/**
 * A JSON body validated (an empty body is `{}`).
 *
 * @example
 * readDeclaredBody('{"email":"a@b.c"}', z.strictObject({ email: z.string().optional() })) // { email: 'a@b.c' }
 */
export function readDeclaredBody<T>(text: string, schema: z.ZodType<T>): T {
  let value: unknown = {}
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw new DeclaredInputError(400, `body is not JSON: ${(error as Error).message}`)
    }
  }
  return parsed(schema, value, 'body')
}

/**
 * Query parameters validated like a body: unknown ones refused, each value a single string.
 *
 * @example
 * readDeclaredQuery(url, z.strictObject({ since: z.coerce.number().optional() })) // { since: 3 }
 */
export function readDeclaredQuery<T>(url: URL, schema: z.ZodType<T>): T {
  const value: Record<string, string> = {}
  for (const [name, text] of url.searchParams) {
    if (name in value) throw new DeclaredInputError(400, `${name}: given more than once`, name)
    value[name] = text
  }
  return parsed(schema, value, 'query')
}

/**
 * The validated input of a route: the query of a GET, the JSON body of any other method (a stray
 * query on a write is refused, as a mistake worth saying); nothing for a `raw` route.
 *
 * @example
 * const { query, body } = await readDeclaredInput(route, url, () => text)
 */
export async function readDeclaredInput(
  route: DeclaredRoute<never, unknown>,
  url: URL,
  text: () => string | Promise<string>,
): Promise<{ query: unknown; body: unknown }> {
  if (route.raw === true) return { query: {}, body: {} }
  if (route.method === 'GET') return { query: readDeclaredQuery(url, route.query ?? NO_INPUT), body: {} }
  if (url.search !== '') throw new DeclaredInputError(400, `${declaredRouteKey(route)} takes no query parameters`)
  try {
    return { query: {}, body: readDeclaredBody(await text(), route.body ?? NO_INPUT) }
  } catch (error) {
    if (route.bodyHint !== undefined && error instanceof DeclaredInputError && error.status === 400)
      throw new DeclaredInputError(400, `${route.bodyHint}: ${error.message}`, error.param)
    throw error
  }
}
