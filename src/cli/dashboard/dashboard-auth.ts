import type { IncomingMessage } from 'node:http'
import { checkAdminToken, type Refusal } from '../serve-guard.js'

/**
 * The path the dashboard of `serve` is served under; everything below it (its script, its calls
 * of the admin API, its live stream) needs the admin token as the admin API does.
 *
 * @example
 * isDashboardPath('/__dashboard/live') // true
 */
export const DASHBOARD_PREFIX = '/__dashboard'

/**
 * Whether a path is the dashboard's.
 *
 * @example
 * isDashboardPath('/__dashboard') // true
 * isDashboardPath('/__dashboards') // false
 */
export function isDashboardPath(pathname: string): boolean {
  return pathname === DASHBOARD_PREFIX || pathname.startsWith(`${DASHBOARD_PREFIX}/`)
}

/**
 * The cookie that carries the admin token after the banner's link was opened. Cookies are not
 * kept apart by port, so its name holds the port: two servers on one machine keep their own.
 *
 * @example
 * dashboardCookieName(12111) // 'service_sim_dashboard_12111'
 */
export const dashboardCookieName = (port: number): string => `service_sim_dashboard_${port}`

/**
 * The `Set-Cookie` value the link with the token answers with: readable by no script, sent by the
 * browser only with the dashboard's own same-site requests (a foreign page's are not).
 *
 * @example
 * res.setHeader('Set-Cookie', dashboardCookie(12111, token))
 */
export function dashboardCookie(port: number, token: string): string {
  return `${dashboardCookieName(port)}=${encodeURIComponent(token)}; Path=${DASHBOARD_PREFIX}; HttpOnly; SameSite=Strict`
}

/** The dashboard cookie's value among a request's cookies, if any. */
function cookieToken(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim())
      } catch {
        return undefined
      }
    }
  }
  return undefined
}

/**
 * The dashboard's authentication: the token in its cookie, or in the headers the admin API takes
 * (`Authorization: Bearer`, `X-Sim-Admin-Token`), or, on the entry page only, in `?token=` (the
 * banner's link, answered by setting the cookie). Returns the refusal (401), or undefined when the
 * token matches.
 *
 * @example
 * checkDashboardToken(req, url, 'abc', 12111) // undefined when the cookie or a header holds 'abc'
 */
export function checkDashboardToken(req: IncomingMessage, url: URL, token: string, port: number): Refusal | undefined {
  const fromLink = url.pathname === DASHBOARD_PREFIX ? url.searchParams.get('token') : null
  const fromCookie = cookieToken(req.headers.cookie, dashboardCookieName(port))
  const given = fromLink ?? fromCookie
  const headers = given === undefined || given === '' ? req.headers : { ...req.headers, authorization: `Bearer ${given}` }
  const refused = checkAdminToken(headers, token)
  if (refused === undefined) return undefined
  return {
    ...refused,
    message:
      refused.code === 'admin_token_missing'
        ? "the dashboard needs the admin token: open the link 'service-sim serve' printed at start (it carries the token)"
        : refused.message,
  }
}
