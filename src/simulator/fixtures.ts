/**
 * One request of a fixture file, as the provider's CLI reads it: a name later requests refer to,
 * the API path and method, and the parameters.
 */
export interface FixtureRequest {
  readonly name?: string
  readonly path: string
  readonly method: string
  readonly params?: Record<string, unknown>
  /** The request is expected to fail with this error type (the run goes on when it does). */
  readonly expected_error_type?: string
}

/** A fixture file: `_meta` (`template_version`, ...) and the requests, run in order. */
export interface FixtureFile {
  readonly _meta?: Record<string, unknown>
  readonly fixtures: readonly FixtureRequest[]
}

/** One request run: its name, what was sent, the status and the id of the object answered. */
export interface FixtureStep {
  readonly name: string | undefined
  readonly method: string
  readonly path: string
  readonly status: number
  readonly id: string | undefined
}

/** What a fixture run did: every request run, and the first that failed (the run stops there). */
export interface FixtureResult {
  readonly ok: boolean
  readonly steps: readonly FixtureStep[]
  readonly failed?: {
    /** Position in `fixtures` (0-based). */
    readonly index: number
    readonly name: string | undefined
    readonly method: string
    readonly path: string
    /** The answer's status, or 0 when the request was not sent (a bad entry or reference). */
    readonly status: number
    readonly reason: string
    /** The error envelope the API answered, when it did. */
    readonly error?: unknown
  }
}

/** Options of `runFixtures`. */
export interface FixtureOptions {
  /** The values of `${.env:NAME}` references. Default none (such a reference then fails). */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** The account requests are made on (`Service-Account`/`Stripe-Account`). Default the platform. */
  readonly account?: string
}

/** What a run needs of the simulator: its fetch, the secret key and the header prefix. */
export interface FixtureTarget {
  readonly fetch: (input: string, init: RequestInit) => Promise<Response>
  readonly secretKey: string
  readonly prefix: string
}

const REFERENCE = /\$\{([^}]+)\}/g

class FixtureError extends Error {}

/**
 * Runs a fixture file through the API, request by request, as the provider's CLI does: each
 * request's `${name:path}` references (path and string parameters) take values from earlier
 * answers (`${customer:id}`, `${prices:data.0.id}`, `${sub:items.data[0].id}`), `${.env:NAME}` from
 * `options.env`; v1 parameters are sent form-encoded (nested objects and arrays with brackets), v2
 * ones as JSON. The run stops at the first request that fails (a malformed entry, a reference to
 * nothing, an error answer not named by `expected_error_type`) and says which and why.
 *
 * @example
 * const result = await runFixtures(target, { _meta: { template_version: 0 }, fixtures: [
 *   { name: 'customer', path: '/v1/customers', method: 'post', params: { email: 'a@example.com' } },
 * ] })
 * result.ok // true
 */
export async function runFixtures(target: FixtureTarget, input: unknown, options: FixtureOptions = {}): Promise<FixtureResult> {
  const text = typeof input === 'string' ? parseJson(input) : input
  if (text instanceof FixtureError) return refused(-1, text.message)
  const fixtures = (text as { fixtures?: unknown } | null)?.fixtures
  if (typeof text !== 'object' || text === null || !Array.isArray(fixtures))
    return refused(-1, "not a fixture file: expected an object with a 'fixtures' array")
  const answers = new Map<string, unknown>()
  const steps: FixtureStep[] = []
  for (const [index, raw] of fixtures.entries()) {
    const entry = raw as Partial<FixtureRequest> | null
    const name = typeof entry?.name === 'string' ? entry.name : undefined
    const shape = entryProblem(entry)
    if (shape !== undefined) return refused(index, shape, steps, name)
    const request = entry as FixtureRequest
    const method = request.method.toUpperCase()
    let path: string
    let params: unknown
    try {
      path = resolveText(request.path, answers, options.env) as string
      params = resolveValue(request.params ?? {}, answers, options.env)
    } catch (error) {
      return refused(index, (error as Error).message, steps, name, method, request.path)
    }
    const response = await send(target, method, path, params as Record<string, unknown>, options.account)
    const body = await response.text()
    let json: unknown
    try {
      json = JSON.parse(body)
    } catch {
      json = body
    }
    const id = (json as { id?: unknown } | null)?.id
    steps.push({ name, method, path, status: response.status, id: typeof id === 'string' ? id : undefined })
    if (name !== undefined) answers.set(name, json)
    if (response.status >= 400) {
      const error = (json as { error?: { type?: string; message?: string } } | null)?.error
      if (request.expected_error_type !== undefined && error?.type === request.expected_error_type) continue
      return {
        ok: false,
        steps,
        failed: {
          index,
          name,
          method,
          path,
          status: response.status,
          reason: error?.message ?? `answered ${response.status}`,
          error: json,
        },
      }
    }
  }
  return { ok: true, steps }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    return new FixtureError(`not JSON: ${(error as Error).message}`)
  }
}

function refused(index: number, reason: string, steps: FixtureStep[] = [], name?: string, method = '', path = ''): FixtureResult {
  return { ok: false, steps, failed: { index, name, method, path, status: 0, reason } }
}

function entryProblem(entry: Partial<FixtureRequest> | null): string | undefined {
  if (typeof entry !== 'object' || entry === null) return 'expected an object with name, path, method and params'
  if (typeof entry.path !== 'string' || !entry.path.startsWith('/')) return "'path' must be an API path such as /v1/customers"
  if (typeof entry.method !== 'string' || !/^(get|post|delete)$/i.test(entry.method))
    return "'method' must be get, post or delete"
  if (entry.params !== undefined && (typeof entry.params !== 'object' || entry.params === null || Array.isArray(entry.params)))
    return "'params' must be an object"
  return undefined
}

/** A string with references replaced; a string that is one reference takes the value as it is. */
function resolveText(text: string, answers: Map<string, unknown>, env: FixtureOptions['env']): unknown {
  const whole = /^\$\{([^}]+)\}$/.exec(text)
  if (whole !== null) return lookup(whole[1] as string, answers, env)
  return text.replace(REFERENCE, (_, ref: string) => {
    const value = lookup(ref, answers, env)
    return typeof value === 'object' ? JSON.stringify(value) : String(value)
  })
}

function resolveValue(value: unknown, answers: Map<string, unknown>, env: FixtureOptions['env']): unknown {
  if (typeof value === 'string') return resolveText(value, answers, env)
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, answers, env))
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveValue(v, answers, env)]))
  return value
}

/** `name:path` (a dotted path, numeric segments or `[n]` indexing arrays) or `.env:NAME`, each with an optional `|default`. */
function lookup(reference: string, answers: Map<string, unknown>, env: FixtureOptions['env']): unknown {
  const [ref, fallback] = splitDefault(reference)
  const colon = ref.indexOf(':')
  if (colon < 0) throw new FixtureError(`reference \${${reference}} must be \${name:path} or \${.env:NAME}`)
  const name = ref.slice(0, colon)
  const path = ref.slice(colon + 1)
  if (name === '.env') {
    const value = env?.[path]
    if (value !== undefined && value !== '') return value
    if (fallback !== undefined) return fallback
    throw new FixtureError(`\${${reference}}: the environment variable ${path} is not set`)
  }
  if (!answers.has(name)) {
    if (fallback !== undefined) return fallback
    throw new FixtureError(`\${${reference}}: no earlier fixture is named '${name}'`)
  }
  let at: unknown = answers.get(name)
  for (const segment of path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((s) => s !== '')) {
    if (typeof at !== 'object' || at === null || !(segment in at)) {
      if (fallback !== undefined) return fallback
      throw new FixtureError(`\${${reference}}: the answer of '${name}' has nothing at '${path}'`)
    }
    at = (at as Record<string, unknown>)[segment]
  }
  return at
}

function splitDefault(reference: string): [string, string | undefined] {
  const bar = reference.indexOf('|')
  return bar < 0 ? [reference, undefined] : [reference.slice(0, bar), reference.slice(bar + 1)]
}

async function send(
  target: FixtureTarget,
  method: string,
  path: string,
  params: Record<string, unknown>,
  account: string | undefined,
): Promise<Response> {
  const v2 = path.startsWith('/v2/')
  const headers: Record<string, string> = { Authorization: `Bearer ${target.secretKey}` }
  if (account !== undefined) headers[`${target.prefix}-Account`] = account
  const pairs = formPairs(params)
  if (method === 'GET' || method === 'DELETE') {
    const query = v2 ? new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])) : new URLSearchParams(pairs)
    const q = query.toString()
    return target.fetch(`https://api.service.test${path}${q === '' ? '' : `${path.includes('?') ? '&' : '?'}${q}`}`, {
      method,
      headers,
    })
  }
  if (v2) headers['Content-Type'] = 'application/json'
  else headers['Content-Type'] = 'application/x-www-form-urlencoded'
  return target.fetch(`https://api.service.test${path}`, {
    method,
    headers,
    body: v2 ? JSON.stringify(params) : new URLSearchParams(pairs).toString(),
  })
}

/** Form pairs with the provider's bracket syntax: `items[0][price]=price_1`, `metadata[plan]=pro`. */
function formPairs(value: unknown, prefix = ''): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => formPairs(v, `${prefix}[${i}]`))
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) => formPairs(v, prefix === '' ? k : `${prefix}[${k}]`))
  if (value === null || value === undefined) return prefix === '' ? [] : [[prefix, '']]
  return prefix === '' ? [] : [[prefix, String(value)]]
}

/**
 * A failed fixture run in one line: which request (position, name, method and path) and why.
 *
 * @example
 * fixtureFailure(result) // "fixture #2 'price' (POST /v1/prices) failed: No such product: 'prod_x' (404)"
 */
export function fixtureFailure(result: FixtureResult): string {
  const f = result.failed
  if (f === undefined) return 'fixtures ran'
  if (f.index < 0) return f.reason
  const what = f.method === '' ? '' : ` (${f.method} ${f.path})`
  return `fixture #${f.index + 1}${f.name === undefined ? '' : ` '${f.name}'`}${what} failed: ${f.reason}${f.status === 0 ? '' : ` (${f.status})`}`
}
