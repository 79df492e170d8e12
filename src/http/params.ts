import { type ZodError, type ZodType, z } from 'zod'
import { errorMessage } from '#catalogue/errors.js'
import { METADATA_LIMITS } from '#catalogue/rules.js'
import { invalidRequest, type ServiceError, tableError } from '#domain/service-error.js'

/**
 * Validates a decoded body or query against a route's schema and turns the first problem into the
 * spec's 400 envelope with `param` naming the field (`metadata[plan]` on `/v1`, `payload.value` on
 * `/v2`).
 *
 * @example
 * const body = parseParams(schema, decoded, 'v1') // throws ServiceError on bad input
 */
export function parseParams<T>(schema: ZodType<T>, input: unknown, style: 'v1' | 'v2'): T {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  throw toServiceError(result.error, input, style)
}

function paramName(path: readonly PropertyKey[], style: 'v1' | 'v2'): string {
  const parts = path.map(String)
  if (style === 'v2') return parts.join('.')
  return parts.map((p, i) => (i === 0 ? p : `[${p}]`)).join('')
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<PropertyKey, unknown>)[p]
  }
  return v
}

type Issue = ZodError['issues'][number]

/** A union's own issue says only "no branch matched"; the most specific branch issue names the field. */
function specific(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue
  let best: Issue = issue
  let depth = -1
  for (const branch of issue.errors) {
    const first = branch[0]
    if (first === undefined) continue
    const candidate = specific({ ...first, path: [...issue.path, ...first.path] } as Issue)
    if (candidate.path.length >= depth && candidate.code !== 'invalid_value' && candidate.code !== 'invalid_type') {
      best = candidate
      depth = candidate.path.length
    }
  }
  return best
}

function toServiceError(error: ZodError, input: unknown, style: 'v1' | 'v2'): ServiceError {
  const first = error.issues[0]
  const issue = first === undefined ? undefined : specific(first)
  if (issue === undefined) return tableError('request_parameters_invalid')
  if (issue.code === 'unrecognized_keys') {
    const param = paramName([...issue.path, issue.keys[0] ?? ''], style)
    return tableError('parameter_unknown', { param }, { param })
  }
  const param = paramName(issue.path, style)
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
    return tableError('parameter_missing', { param }, { param })
  }
  const code = issue.code === 'custom' && typeof issue.params?.code === 'string' ? issue.params.code : 'parameter_invalid'
  const message =
    issue.message.startsWith('Invalid') || issue.code === 'custom'
      ? issue.message
      : errorMessage('parameter_invalid', { param, detail: issue.message })
  return invalidRequest(param ? `${message} (param: ${param})` : message, { code, param })
}

/** A form or JSON integer: numbers, or strings of digits as form bodies carry them. */
export const formInt = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : /^-?\d+$/.test(v.trim()) ? Number(v) : Number.NaN
  if (!Number.isSafeInteger(n)) {
    ctx.addIssue({
      code: 'custom',
      message: errorMessage('parameter_invalid_integer', { value: String(v) }),
      params: { code: 'parameter_invalid_integer' },
    })
    return z.NEVER
  }
  return n
})

/** A form or JSON boolean: `true`/`false` as booleans or strings. */
export const formBool = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true')

/** A non-empty string. */
export const nonEmpty = z.string().min(1, { message: errorMessage('parameter_invalid_string', { value: 'must not be empty' }) })

/**
 * `metadata`: string keys to string values, at most `METADATA_LIMITS.keys` keys; `''` (form) clears the whole map on
 * update, which the catalogue check hands on as `null` (`Emptyable<MetadataParam>`).
 */
export const metadata = z.union([
  z.literal(''),
  z.null(),
  z
    .record(
      z.string().max(METADATA_LIMITS.keyLength),
      z.union([z.string().max(METADATA_LIMITS.valueLength), z.number().transform(String)]),
    )
    .refine((m) => Object.keys(m).length <= METADATA_LIMITS.keys, {
      message: errorMessage('parameter_invalid', { param: 'metadata', detail: `at most ${METADATA_LIMITS.keys} keys` }),
    }),
])

/** v1 `expand[]`: accepted and ignored where the simulator has nothing to expand. */
export const expand = z.array(z.string()).optional()
