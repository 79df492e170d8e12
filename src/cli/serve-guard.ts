import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * The host names `serve` answers by default: the loopback names a browser can only reach on this
 * machine. A DNS-rebound page sends its own (foreign) name in `Host`, so checking it is what stops
 * a web page from reading the simulator's keys.
 *
 * @example
 * LOOPBACK_HOSTS.includes('localhost') // true
 */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]']

/** A request refused before it reaches the simulator: its status and the JSON envelope's fields. */
export interface Refusal {
  readonly status: number
  readonly code: string
  readonly message: string
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * The error envelope every refusal of `serve` is answered with, the service's own shape.
 *
 * @example
 * envelope({ status: 403, code: 'host_not_allowed', message: '...' })
 * // '{"error":{"type":"invalid_request_error","code":"host_not_allowed","message":"..."}}'
 */
export function envelope(refusal: Refusal): string {
  const type = refusal.status >= 500 ? 'api_error' : 'invalid_request_error'
  return JSON.stringify({ error: { type, code: refusal.code, message: refusal.message } })
}

// Characters of a reg-name, an IPv4 address or a bracketed IPv6 literal, and an optional port. The
// URL parser below normalises what passes (case, `127.1`, IPv6 zero runs); this regex keeps out what
// it would silently reinterpret (`user@host`, paths, spaces).
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::\d{1,5})?$/

/**
 * The normalised host name of a `Host` header value (or of an absolute request target's authority),
 * or undefined when it is not a syntactically valid `host[:port]`.
 *
 * @example
 * hostnameOf('LOCALHOST:12111') // 'localhost'
 * hostnameOf('a b') // undefined
 */
export function hostnameOf(authority: string): string | undefined {
  if (!AUTHORITY.test(authority)) return undefined
  try {
    return new URL(`http://${authority}`).hostname
  } catch {
    return undefined
  }
}

/**
 * The set of host names a server accepts: the loopback names plus `extra` (`--allowed-host`), each
 * normalised; throws a `TypeError` naming a value that is not a host name.
 *
 * @example
 * allowedHostSet(['sim.internal']).has('sim.internal') // true
 */
export function allowedHostSet(extra: readonly string[] = []): ReadonlySet<string> {
  const hosts = new Set(LOOPBACK_HOSTS)
  for (const value of extra) {
    const name = hostnameOf(value)
    const portless = value.startsWith('[') ? value.endsWith(']') : !value.includes(':')
    if (name === undefined || !portless)
      throw new TypeError(`'${value}' is not a host name (give it without scheme, port or path, e.g. sim.internal)`)
    hosts.add(name)
  }
  return hosts
}

/**
 * Whether an `Origin` header names a page served from an allowed host (any port, http or https).
 * `null` (file pages, sandboxed frames) and anything unparsable are foreign.
 *
 * @example
 * isAllowedOrigin('http://localhost:5173', allowedHostSet()) // true
 * isAllowedOrigin('https://evil.example', allowedHostSet()) // false
 */
export function isAllowedOrigin(origin: string, allowed: ReadonlySet<string>): boolean {
  const match = /^(https?):\/\/([^/?#]*)$/i.exec(origin)
  if (match === null) return false
  const name = hostnameOf(match[2] ?? '')
  return name !== undefined && allowed.has(name)
}

/**
 * Whether a `Content-Type` header is JSON (`application/json`, with or without parameters). The
 * admin API takes nothing else for writes: every media type a cross-origin page may send without a
 * CORS preflight (`text/plain`, forms) is thereby refused.
 *
 * @example
 * isJsonContentType('application/json; charset=utf-8') // true
 * isJsonContentType('text/plain') // false
 */
export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && value.split(';', 1)[0]?.trim().toLowerCase() === 'application/json'
}

/**
 * A fresh admin token from the operating system's randomness (24 bytes, base64url). The CLI is the
 * one place real randomness is fine: the token never enters the simulation or its seeded streams.
 *
 * @example
 * const token = generateAdminToken() // 'q3X0...' (32 characters)
 */
export function generateAdminToken(): string {
  return randomBytes(24).toString('base64url')
}

/**
 * Checks a token given by `--admin-token` or `SERVICE_SIM_ADMIN_TOKEN`: visible ASCII without
 * spaces (it has to fit in one header), 1 to 512 characters. Returns a message when it is not.
 *
 * @example
 * adminTokenProblem('s3cret') // undefined
 * adminTokenProblem('two words') // 'expected 1 to 512 visible ASCII characters without spaces'
 */
export function adminTokenProblem(token: string): string | undefined {
  return /^[\x21-\x7e]{1,512}$/.test(token) ? undefined : 'expected 1 to 512 visible ASCII characters without spaces'
}

const digest = (text: string) => createHash('sha256').update(text).digest()

/**
 * The admin API's authentication: `Authorization: Bearer <token>` or `X-Sim-Admin-Token: <token>`,
 * compared in constant time. Returns the refusal (401) or undefined when the token matches.
 *
 * @example
 * checkAdminToken({ authorization: 'Bearer abc' }, 'abc') // undefined
 * checkAdminToken({}, 'abc')?.status // 401
 */
export function checkAdminToken(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  token: string,
): Refusal | undefined {
  const authorization = headers.authorization
  const bearer = typeof authorization === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)?.[1] : undefined
  const header = headers['x-sim-admin-token']
  const given = bearer ?? (typeof header === 'string' ? header.trim() : undefined)
  const challenge = { 'WWW-Authenticate': 'Bearer realm="service-sim admin"' }
  if (given === undefined || given === '')
    return {
      status: 401,
      code: 'admin_token_missing',
      message:
        "the admin API needs the token 'service-sim serve' printed at start: send 'Authorization: Bearer <token>' or 'X-Sim-Admin-Token: <token>'",
      headers: challenge,
    }
  // Digests have one length, so the comparison takes the same time whatever was sent.
  if (!timingSafeEqual(digest(given), digest(token)))
    return { status: 401, code: 'admin_token_invalid', message: 'the admin token does not match', headers: challenge }
  return undefined
}
