import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Simulator } from '#simulator/index.js'
import { withAdminApi } from '../admin-api.js'
import { admit } from '../serve-admission.js'
import { readNodeBody } from '../serve-body.js'
import { allowedHostSet, generateAdminToken } from '../serve-guard.js'
import { failed, refuse } from '../serve-refusals.js'
import { DASHBOARD_PREFIX, dashboardCookie } from './dashboard-auth.js'
import { dashboardFile } from './dashboard-page.js'
import { DashboardStreams } from './dashboard-streams.js'

/**
 * Options of {@link openDashboard}.
 *
 * @example
 * const options: DashboardOptions = { port: 4545, readOnly: false }
 */
export interface DashboardOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number
  /**
   * True (default): the pages read, and every action (resend, time travel, a fault) is refused
   * with 403, so looking at a paused test cannot change what it will do next.
   */
  readonly readOnly?: boolean
  /** The token the link carries; default a fresh random one. */
  readonly token?: string
}

/**
 * A dashboard being served: the link to open (it carries the token) and how to stop it.
 *
 * @example
 * const { url, close } = await openDashboard(sim)
 */
export interface OpenDashboard {
  readonly url: string
  close(): Promise<void>
}

/** Serves one request of the dashboard of an in-process simulator. */
async function answer(
  context: { sim: Simulator; readOnly: boolean; streams: DashboardStreams; admin: (req: Request) => Promise<Response> },
  rules: Parameters<typeof admit>[0],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const admitted = admit(rules, req)
  if (!('url' in admitted)) return refuse(req, res, admitted)
  const method = req.method ?? 'GET'
  const url = new URL(admitted.url.href)
  if (!admitted.dashboard)
    return refuse(req, res, {
      status: 404,
      code: 'resource_missing',
      message: `this server shows the dashboard of a simulator inside a process; it serves no ${method} ${url.pathname}`,
    })
  if (url.pathname === DASHBOARD_PREFIX && url.searchParams.has('token') && rules.token !== null) {
    res.writeHead(303, { Location: DASHBOARD_PREFIX, 'Set-Cookie': dashboardCookie(Number(url.port), rules.token) })
    return void res.end()
  }
  if (url.pathname === `${DASHBOARD_PREFIX}/live` && method === 'GET') return context.streams.open(res)
  const api = `${DASHBOARD_PREFIX}/api/`
  const read = method === 'GET' || method === 'HEAD'
  if (url.pathname.startsWith(api)) {
    if (!read && context.readOnly)
      return refuse(req, res, {
        status: 403,
        code: 'dashboard_read_only',
        message: 'this dashboard is read-only: open it with readOnly: false to act on the simulation',
      })
    const body = read ? undefined : await readNodeBody(req)
    const target = new URL(`/__sim/${url.pathname.slice(api.length)}${url.search}`, url.origin)
    const contentType = req.headers['content-type']
    const response = await context.admin(
      new Request(target, {
        method,
        headers: contentType === undefined ? {} : { 'content-type': contentType },
        ...(body === undefined || body === '' ? {} : { body }),
      }),
    )
    const text = await response.text()
    res.writeHead(response.status, Object.fromEntries(response.headers))
    return void res.end(text)
  }
  const file = read ? dashboardFile(url.pathname) : undefined
  if (file === undefined)
    return refuse(req, res, {
      status: 404,
      code: 'resource_missing',
      message: `the dashboard serves no ${method} ${url.pathname}`,
    })
  res.writeHead(file.status, file.headers)
  res.end(method === 'HEAD' ? undefined : file.text)
}

const DASHBOARD_OPTIONS: ReadonlySet<string> = new Set(['port', 'readOnly', 'token'])

/** Bad input is refused before anything listens, naming the option. */
function checkDashboardInput(sim: unknown, options: unknown): void {
  const refuse = (why: string) => {
    throw new TypeError(`openDashboard: ${why}`)
  }
  if (typeof (sim as Partial<Simulator> | null)?.fetch !== 'function' || typeof (sim as Partial<Simulator>).admin !== 'object')
    refuse('expected a simulator from createSimulator() as its first argument')
  if (typeof options !== 'object' || options === null || Array.isArray(options)) refuse("'options' must be an object")
  const o = options as Record<string, unknown>
  const unknown = Object.keys(o).filter((k) => !DASHBOARD_OPTIONS.has(k))
  if (unknown.length > 0) refuse(`unknown option(s) ${unknown.map((k) => `'${k}'`).join(', ')}; known: port, readOnly, token`)
  if (o.port !== undefined && !(Number.isInteger(o.port) && (o.port as number) >= 0 && (o.port as number) <= 65_535))
    refuse("option 'port' must be an integer from 0 to 65535")
  if (o.readOnly !== undefined && typeof o.readOnly !== 'boolean') refuse("option 'readOnly' must be a boolean")
  if (o.token !== undefined && (typeof o.token !== 'string' || o.token === ''))
    refuse("option 'token' must be a non-empty string")
}

/**
 * Serves the dashboard of a simulator running in this process (inside a test) on loopback, behind
 * a token and serve's `Host` and `Origin` checks, read-only unless asked: open the returned link
 * in a browser while the test is paused. The pages' reads append nothing to the trace, and the
 * simulator's transport is left as it is: looking does not change the run.
 *
 * @example
 * const { url, close } = await openDashboard(sim, { port: 4545 })
 * console.log(`dashboard: ${url}`)
 * await close()
 */
export function openDashboard(sim: Simulator, options: DashboardOptions = {}): Promise<OpenDashboard> {
  checkDashboardInput(sim, options)
  const token = options.token ?? generateAdminToken()
  const rules = { token, allowed: allowedHostSet(), origin: 'http://127.0.0.1', hostnames: new Map<string, string | undefined>() }
  const context = { sim, readOnly: options.readOnly ?? true, streams: new DashboardStreams(sim), admin: withAdminApi(sim) }
  const server = createServer((req, res) => {
    answer(context, rules, req, res).catch((error: unknown) => failed(req, res, error))
  })
  return new Promise((ready, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      rules.origin = `http://127.0.0.1:${port}`
      ready({
        url: `${rules.origin}${DASHBOARD_PREFIX}?token=${encodeURIComponent(token)}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    })
  })
}
