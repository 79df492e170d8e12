import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { DASHBOARD_PREFIX, dashboardCookie } from '../dashboard/dashboard-auth.js'
import { dashboardFile } from '../dashboard/dashboard-page.js'
import { admit } from '../serve-admission.js'
import { allowedHostSet } from '../serve-guard.js'
import { failed, refuse } from '../serve-refusals.js'
import { answerCounterexamples } from './counterexample-routes.js'
import type { CounterexampleSource } from './counterexample-source.js'

/**
 * Options of `startOpenServer`.
 *
 * @example
 * const options: OpenServerOptions = { port: 0, token: generateAdminToken(), allowedHosts: ['devbox.local'] }
 */
export interface OpenServerOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number
  /** The token its pages need (as serve's dashboard), or null for none. */
  readonly token: string | null
  /** Host names accepted besides localhost, 127.0.0.1 and [::1] (in `Host` and `Origin`). */
  readonly allowedHosts?: readonly string[]
}

/** The rules `admit` checks, with the origin known once listening. */
interface Rules {
  readonly token: string | null
  readonly allowed: ReadonlySet<string>
  origin: string
  readonly hostnames: Map<string, string | undefined>
}

async function handle(rules: Rules, source: CounterexampleSource, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET'
  if (method !== 'GET' && method !== 'HEAD')
    return refuse(req, res, {
      status: 405,
      code: 'method_not_allowed',
      message: `the counterexample dashboard is read-only: ${method} is not served`,
      headers: { Allow: 'GET, HEAD' },
    })
  const admitted = admit(rules, req)
  if (!('url' in admitted)) return refuse(req, res, admitted)
  const url = new URL(admitted.url.href)
  if (!admitted.dashboard) {
    res.writeHead(303, { Location: DASHBOARD_PREFIX }).end()
    return
  }
  if (url.pathname === DASHBOARD_PREFIX && url.searchParams.has('token') && rules.token !== null) {
    // The printed link: the token goes into the cookie and out of the address bar.
    res.writeHead(303, { Location: DASHBOARD_PREFIX, 'Set-Cookie': dashboardCookie(Number(url.port), rules.token) })
    return void res.end()
  }
  const answer = (await answerCounterexamples(source, url.pathname)) ?? dashboardFile(url.pathname, 'counterexample')
  if (answer === undefined)
    return refuse(req, res, {
      status: 404,
      code: 'resource_missing',
      message: `the counterexample dashboard serves no ${method} ${url.pathname}`,
    })
  res.writeHead(answer.status, answer.headers)
  res.end(method === 'HEAD' ? undefined : answer.text)
}

/**
 * Serves the dashboard's step-through of counterexamples (one file, or a directory of them) on
 * loopback, read-only, with serve's protections: the token (by the printed link's cookie or a
 * header), the `Host` and `Origin` checks against DNS rebinding and foreign pages, and a page
 * that loads nothing from elsewhere.
 *
 * @example
 * const server = await startOpenServer(new CounterexampleSource(file), { token: generateAdminToken() })
 */
export function startOpenServer(source: CounterexampleSource, options: OpenServerOptions): Promise<Server> {
  const rules: Rules = {
    token: options.token,
    allowed: allowedHostSet(options.allowedHosts),
    origin: 'http://127.0.0.1',
    hostnames: new Map(),
  }
  const server = createServer((req, res) => {
    handle(rules, source, req, res).catch((error: unknown) => failed(req, res, error))
  })
  return new Promise((ready, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      const address = server.address()
      if (typeof address === 'object' && address !== null) rules.origin = `http://127.0.0.1:${address.port}`
      ready(server)
    })
  })
}
