import type { IncomingMessage } from 'node:http'
import type { IncomingUrl } from '#http/index.js'
import { ADMIN_PREFIX } from './admin/host.js'
import { checkDashboardToken, isDashboardPath } from './dashboard/dashboard-auth.js'
import { checkAdminToken, hostnameOf, isAllowedOrigin, isJsonContentType, type Refusal } from './serve-guard.js'
import { targetUrl } from './target-url.js'

/**
 * The methods anyone can mean here; TRACE (a cross-site tracing vector), CONNECT and WebDAV's are
 * refused before they reach the simulator or `new Request` (which throws on some of them).
 *
 * @example
 * SERVED_METHODS.includes('TRACE') // false
 */
export const SERVED_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/** What the checks before a request's body is read go by. */
export interface AdmissionRules {
  /** The admin token, or null for none. */
  readonly token: string | null
  readonly allowed: ReadonlySet<string>
  /** The fixed origin request URLs are built on; the Host header never goes into a URL. */
  readonly origin: string
  /** `Host` values seen and their host names (or undefined when invalid): a client sends the same one each time. */
  readonly hostnames: Map<string, string | undefined>
}

function cachedHostname(rules: AdmissionRules, authority: string): string | undefined {
  const known = rules.hostnames.get(authority)
  if (known !== undefined || rules.hostnames.has(authority)) return known
  const name = hostnameOf(authority)
  // Bounded: a client sending ever new values costs a parse each, never memory.
  if (rules.hostnames.size >= 256) rules.hostnames.clear()
  rules.hostnames.set(authority, name)
  return name
}

/** The request target's path and, in absolute form, its authority. */
function readTarget(target: string): { path: string; authority: string | undefined } | Refusal {
  if (target.startsWith('/')) return { path: target, authority: undefined }
  // Absolute form (`GET http://127.0.0.1:12111/v1/balance`): RFC 9112 section 3.2.2 says a server
  // must accept it, and that its authority replaces the Host header.
  const absolute = /^http:\/\/([^/?#]*)([^#]*)$/i.exec(target)
  if (absolute === null)
    return {
      status: 400,
      code: 'request_target_invalid',
      message: `request target ${JSON.stringify(target.slice(0, 200))} is neither a path ('/v1/...') nor an absolute http:// URL`,
    }
  const rest = absolute[2] ?? ''
  return { path: rest.startsWith('/') ? rest : `/${rest}`, authority: absolute[1] ?? '' }
}

/** `Host` (or the target's authority) and `Origin` against the allowed hosts. */
function checkHosts(rules: AdmissionRules, req: IncomingMessage, authority: string | undefined): Refusal | undefined {
  let hosts = 0
  const raw = req.rawHeaders
  // Only four-letter names can be Host: no lowercased copy of every header name.
  for (let i = 0; i < raw.length; i += 2) if (raw[i]?.length === 4 && raw[i]?.toLowerCase() === 'host') hosts++
  if (hosts > 1) return { status: 400, code: 'host_invalid', message: 'more than one Host header' }
  const host = req.headers.host
  if (host === undefined && !(req.httpVersionMajor === 1 && req.httpVersionMinor === 0))
    return { status: 400, code: 'host_missing', message: 'an HTTP/1.1 request needs a Host header' }
  const named = authority ?? host
  if (named !== undefined) {
    const hostname = cachedHostname(rules, named)
    if (hostname === undefined)
      return {
        status: 400,
        code: 'host_invalid',
        message: `Host ${JSON.stringify(named.slice(0, 200))} is not a valid host[:port]`,
      }
    if (!rules.allowed.has(hostname))
      return {
        status: 403,
        code: 'host_not_allowed',
        message: `Host '${hostname}' is not allowed: service-sim answers ${[...rules.allowed].join(', ')} (add one with --allowed-host)`,
      }
  }
  const origin = req.headers.origin
  if (origin !== undefined && !isAllowedOrigin(origin, rules.allowed))
    return {
      status: 403,
      code: 'origin_not_allowed',
      message: `Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed: only pages served from ${[...rules.allowed].join(', ')} may call service-sim`,
    }
  return undefined
}

/** The admin API's own checks (the dashboard's too): the token, and a JSON content type on writes. */
function checkAdmin(rules: AdmissionRules, req: IncomingMessage, method: string, dashboard?: URL): Refusal | undefined {
  if (rules.token !== null) {
    const refused =
      dashboard === undefined
        ? checkAdminToken(req.headers, rules.token)
        : checkDashboardToken(req, dashboard, rules.token, Number(new URL(rules.origin).port))
    if (refused !== undefined) return refused
  }
  if (method !== 'GET' && method !== 'HEAD' && !isJsonContentType(req.headers['content-type']))
    return {
      status: 415,
      code: 'content_type_unsupported',
      message: `admin API writes take 'Content-Type: application/json' only, got ${JSON.stringify(req.headers['content-type'] ?? 'none')}`,
    }
  return undefined
}

/**
 * The checks every request passes before its body is read: method, request target, `Host`,
 * `Origin`, and for the admin API and the dashboard the token and a JSON content type on writes.
 * Returns the URL to serve (the fixed origin plus the target's path and query) and which surface
 * it is for, or the refusal.
 *
 * @example
 * const admitted = admit(rules, req)
 * if (!('url' in admitted)) refuse(req, res, admitted)
 */
export function admit(
  rules: AdmissionRules,
  req: IncomingMessage,
): { url: IncomingUrl; admin: boolean; dashboard: boolean } | Refusal {
  const method = req.method ?? ''
  if (!SERVED_METHODS.includes(method))
    return {
      status: 405,
      code: 'method_not_allowed',
      message: `${method} is not served; methods: ${SERVED_METHODS.join(', ')}`,
      headers: { Allow: SERVED_METHODS.join(', ') },
    }
  const target = req.url ?? ''
  const read = readTarget(target)
  if ('status' in read) return read
  const refused = checkHosts(rules, req, read.authority)
  if (refused !== undefined) return refused
  const url = targetUrl(rules.origin, read.path)
  if (url === undefined)
    return {
      status: 400,
      code: 'request_target_invalid',
      message: `request target ${JSON.stringify(target.slice(0, 200))} is not a valid path`,
    }
  const admin = url.pathname === ADMIN_PREFIX.slice(0, -1) || url.pathname.startsWith(ADMIN_PREFIX)
  const dashboard = !admin && isDashboardPath(url.pathname)
  if (admin || dashboard) {
    const refusedAdmin = checkAdmin(rules, req, method, dashboard ? new URL(url.href) : undefined)
    if (refusedAdmin !== undefined) return refusedAdmin
  }
  return { url, admin, dashboard }
}
