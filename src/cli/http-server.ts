import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { type IncomingUrl, lowercaseHeaderReader } from '#http/index.js'
import { incomingExchangeOf, type Simulator } from '#simulator/index.js'
import { ADMIN_PREFIX, type AdminHost, MAX_BODY_BYTES, withAdminApi } from './admin-api.js'
import { answerCounterexamples } from './counterexample/counterexample-routes.js'
import type { CounterexampleSource } from './counterexample/counterexample-source.js'
import { preflightHeaders } from './customer-pages/cors.js'
import { customerSide, isCustomerPath } from './customer-pages/customer-side.js'
import { rewriteProviderUrls } from './customer-pages/provider-urls.js'
import { DASHBOARD_PREFIX, dashboardCookie } from './dashboard/dashboard-auth.js'
import { dashboardFile } from './dashboard/dashboard-page.js'
import { DashboardStreams } from './dashboard/dashboard-streams.js'
import { type AdmissionRules, admit } from './serve-admission.js'
import { type Arrival, arrival } from './serve-arrival.js'
import { readNodeBody } from './serve-body.js'
import { allowedHostSet } from './serve-guard.js'
import { createServeHost, installServed, type Served } from './serve-host.js'
import { answerClientError, failed, refuse, refuseConnect } from './serve-refusals.js'
import type { SessionRecorder } from './session-record.js'
import { createWallDriver, type ServeClock, type WallDriver } from './wall-driver.js'

export { type Arrival, arrival } from './serve-arrival.js'

/** How long `serve` waits for a slow client, in wall-clock milliseconds. */
export interface ServeTimeouts {
  /** From connection (or the previous response) to the end of the request headers. */
  readonly headersMs: number
  /** From connection (or the previous response) to the end of the request body. */
  readonly requestMs: number
  /** How long an idle keep-alive connection stays open. */
  readonly keepAliveMs: number
}

/**
 * The timeouts of `serve`: a client that trickles its headers (slowloris) is answered 408 and
 * dropped after 10 s, a body after 30 s, an idle connection after 5 s.
 *
 * @example
 * DEFAULT_TIMEOUTS.headersMs // 10_000
 */
export const DEFAULT_TIMEOUTS: ServeTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 }

/** Options of `startHttpServer`. */
export interface HttpServerOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number
  /**
   * The token the admin API under `/__sim/` requires (`Authorization: Bearer <token>` or
   * `X-Sim-Admin-Token`), or null for none. No default, so that no caller opens it by omission.
   */
  readonly adminToken: string | null
  /** Host names accepted besides localhost, 127.0.0.1 and [::1] (in `Host` and `Origin`). */
  readonly allowedHosts?: readonly string[]
  /** Overrides of `DEFAULT_TIMEOUTS`. */
  readonly timeouts?: Partial<ServeTimeouts>
  /**
   * How virtual time moves: `{ mode: 'manual' }` (default here; only the admin API moves it) or
   * `{ mode: 'wall', speed }` (it follows real time, `speed` times faster; `service-sim serve`'s default).
   */
  readonly clock?: ServeClock
  /** Real milliseconds between wall-clock catch-ups while idle. Default 50. */
  readonly tickMs?: number
  /**
   * Builds the fresh simulator `POST /__sim/reset` serves from then on. Default: one with the same
   * seed and header prefix (and, with a wall clock, starting at the current time).
   */
  readonly rebuild?: () => Simulator | Promise<Simulator>
  /** Extra members of `GET /__sim/state` (what the caller set up, e.g. forwarding). */
  readonly extras?: () => Record<string, unknown>
  /** `serve --state`: the file `POST /__sim/snapshot` (and the caller, on exit) writes the snapshot to. */
  readonly stateFile?: string
  /** `serve --record`: records every accepted request, its answer and webhook answers, for `replay --served`. */
  readonly recorder?: SessionRecorder
  /** `serve --counterexamples`: the counterexample files the dashboard's step-through opens. */
  readonly counterexamples?: CounterexampleSource
}

/** The server `startHttpServer` returns, with the simulator it serves now (a reset replaces it). */
export interface SimServer extends Server {
  readonly host: AdminHost
}

interface Context extends AdmissionRules, Served {
  readonly host: AdminHost
  /** The admin API under `/__sim/` (its declared routes; anything else there goes to the service). */
  readonly admin: (req: Request) => Promise<Response>
  readonly driver: WallDriver | undefined
  readonly recorder: SessionRecorder | undefined
  /** The dashboard's open live streams. */
  readonly streams: DashboardStreams
  readonly counterexamples: CounterexampleSource | undefined
  origin: string
}

/** The node server with serve's timeouts, its refusals of what node's parser rejects, and its request handler. */
function createNodeServer(context: Context, timeouts: ServeTimeouts): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeouts.headersMs / 4))),
      // Answered below in the JSON envelope instead of node's bare 400.
      requireHostHeader: false,
    },
    (req, res) => {
      handle(context, req, res).catch((error: unknown) => failed(req, res, error))
    },
  )
  server.keepAliveTimeout = timeouts.keepAliveMs
  Object.defineProperty(server, 'host', { value: context.host })
  server.on('close', () => context.driver?.stop())
  server.on('clientError', answerClientError)
  server.on('connect', refuseConnect)
  return server
}

/**
 * Serves a simulator over HTTP on loopback with node's own server. Every request is checked first
 * (request target, `Host` and `Origin` against the allowed hosts, the admin token and JSON-only
 * admin writes) and refused in the JSON error envelope; malformed HTTP that node's parser rejects
 * is answered the same way. Service requests go to the simulator's raw exchange with a string body
 * and node's header object (no `Request` or `Response` is built per call); the admin API under
 * `/__sim/` and the customer pages are served from their declared routes.
 *
 * @example
 * const server = await startHttpServer(sim, { port: 0, adminToken: generateAdminToken() })
 * server.address() // { port: 43121, ... }
 */
export function startHttpServer(sim: Simulator, options: HttpServerOptions): Promise<SimServer> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
  const clock: ServeClock = options.clock ?? { mode: 'manual' }
  const driver =
    clock.mode === 'wall'
      ? createWallDriver(sim, { speed: clock.speed, ...(options.tickMs === undefined ? {} : { intervalMs: options.tickMs }) })
      : undefined
  const recorder = options.recorder
  installServed(sim, recorder)
  const served: Served = { sim, raw: incomingExchangeOf(sim) }
  const host = createServeHost(served, {
    clock,
    driver,
    recorder,
    ...(options.rebuild === undefined ? {} : { rebuild: options.rebuild }),
    ...(options.extras === undefined ? {} : { extras: options.extras }),
    ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }),
  })
  const context: Context = Object.assign(served, {
    host,
    admin: withAdminApi(host),
    driver,
    token: options.adminToken,
    allowed: allowedHostSet(options.allowedHosts),
    recorder,
    streams: new DashboardStreams(sim),
    counterexamples: options.counterexamples,
    origin: 'http://127.0.0.1',
    hostnames: new Map<string, string | undefined>(),
  })
  const server = createNodeServer(context, timeouts)
  return new Promise((ready, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      const address = server.address()
      if (typeof address === 'object' && address !== null) context.origin = `http://127.0.0.1:${address.port}`
      driver?.start()
      ready(server as SimServer)
    })
  })
}

async function handle(context: Context, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const admitted = admit(context, req)
  if (!('url' in admitted)) return refuse(req, res, admitted)
  const { url, admin, dashboard } = admitted
  const read = readNodeBody(req)
  const text = read instanceof Promise ? await read : read
  if (text === undefined)
    return refuse(req, res, { status: 413, code: 'body_too_large', message: `request body over ${MAX_BODY_BYTES} bytes` })
  const method = req.method ?? 'GET'
  if (dashboard) return answerDashboard(context, req, res, method, new URL(url.href), text)
  // A page of the app's (another port) calls the API and the customer side through the browser
  // library stand-in: its preflight is answered here; the admin API answers none.
  const origin = admin ? undefined : req.headers.origin
  if (origin !== undefined && method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
    res.writeHead(204, preflightHeaders(origin, req.headers['access-control-request-headers']))
    res.end()
    return
  }
  if (!admin && isCustomerPath(url.pathname)) return answerCustomer(context, res, method, url, text, origin)
  // A request sees the current time: the clock catches up with the wall before it is served.
  const driver = context.driver
  // During a jump the request is served at the jump's current time without waiting for it: the
  // jump may be waiting for a webhook whose receiver calls back into the API before it answers.
  if (driver !== undefined && !driver.trySync() && !driver.jumping) await driver.sync().catch(reportCatchUp)
  const arrived = arrival(context.sim, req.method ?? 'GET', req.headers, url.pathname + url.search, admin, text)
  if (admin) return answerAdmin(context, req, res, method, url, text, arrived)
  return answerApi(context, req, res, url, text, origin, arrived)
}

/** A page, an action or the browser library of serve's customer side. */
async function answerCustomer(
  context: Context,
  res: ServerResponse,
  method: string,
  url: IncomingUrl,
  text: string,
  origin: string | undefined,
): Promise<void> {
  const answer = await customerSide(context.host, method, new URL(url.href), text)
  res.writeHead(answer.status, {
    ...answer.headers,
    ...(origin === undefined ? {} : { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' }),
  })
  res.end(answer.text)
}

/**
 * A request of the dashboard: its page and files, its live stream, and its calls of the admin API
 * (`/__dashboard/api/<route>` is `/__sim/<route>`, authenticated by the dashboard's cookie). The
 * page's reads are not recorded, or a page rereading on each change would record its own reads;
 * its actions (a resend) are, as the admin API's are.
 */
async function answerDashboard(
  context: Context,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  url: URL,
  text: string,
): Promise<void> {
  const api = `${DASHBOARD_PREFIX}/api/`
  if (url.pathname.startsWith(api)) {
    const target = new URL(`${ADMIN_PREFIX}${url.pathname.slice(api.length)}${url.search}`, context.origin)
    const read = method === 'GET' || method === 'HEAD'
    const headers = { 'content-type': req.headers['content-type'] }
    const arrived = read ? undefined : arrival(context.sim, method, headers, target.pathname + target.search, true, text)
    return answerAdmin(context, req, res, method, target, text, arrived)
  }
  if (url.pathname === DASHBOARD_PREFIX && url.searchParams.has('token') && context.token !== null) {
    // The banner's link: the token goes into the cookie and out of the address bar.
    res.writeHead(303, { Location: DASHBOARD_PREFIX, 'Set-Cookie': dashboardCookie(Number(url.port), context.token) })
    return void res.end()
  }
  if (url.pathname === `${DASHBOARD_PREFIX}/live` && method === 'GET') return context.streams.open(res)
  const reads = method === 'GET' || method === 'HEAD'
  const file = reads
    ? ((await answerCounterexamples(context.counterexamples, url.pathname)) ?? dashboardFile(url.pathname))
    : undefined
  if (file === undefined)
    return refuse(req, res, {
      status: 404,
      code: 'resource_missing',
      message: `the dashboard serves no ${method} ${url.pathname}`,
    })
  res.writeHead(file.status, file.headers)
  res.end(method === 'HEAD' ? undefined : file.text)
}

/** An admin request, answered from the admin API's declared routes and recorded (when `arrived` is given). */
async function answerAdmin(
  context: Context,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  url: IncomingUrl,
  text: string,
  arrived: Arrival | undefined,
): Promise<void> {
  const hasBody = method !== 'GET' && method !== 'HEAD' && text !== ''
  // Only the header the admin API reads: whatever else a client sent cannot make `Request` throw.
  // A real `Request`, read as `replay --served` reads it, so a replay awaits as the served run did.
  const contentType = req.headers['content-type']
  const response = await context.admin(
    new Request(url.href, {
      method,
      headers: contentType === undefined ? {} : { 'content-type': contentType },
      ...(hasBody ? { body: text } : {}),
    }),
  )
  const out: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    out[name] = value
  })
  const body = await response.text()
  if (arrived !== undefined) context.recorder?.request({ ...arrived, status: response.status, response: body })
  // A reset serves a fresh simulator: the dashboard's live pages follow it.
  context.streams.retarget(context.host.sim)
  res.writeHead(response.status, out)
  res.end(body)
}

/** A request of the API: the simulator's raw exchange, its answer's provider URLs pointed at serve's pages. */
async function answerApi(
  context: Context,
  req: IncomingMessage,
  res: ServerResponse,
  url: IncomingUrl,
  text: string,
  origin: string | undefined,
  arrived: Arrival,
): Promise<void> {
  const method = req.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD' && text !== ''
  // The URL admit parsed and node's header object (lowercase names, values its parser checked)
  // go to the exchange as they are.
  const answering = context.raw({ method, url, headers: lowercaseHeaderReader(req.headers), text: hasBody ? text : '' })
  const recorder = context.recorder
  // An indeterminate answer (a fault) throws: recorded as status 0, so a replay expects the same.
  if (recorder !== undefined)
    answering.then(
      (a) => recorder.request({ ...arrived, status: a.status, response: a.text }),
      (error: unknown) => recorder.request({ ...arrived, status: 0, response: String((error as Error)?.message ?? error) }),
    )
  const answer = await answering
  // Headers as one flat array and the length given: node then sends the head and the body in one
  // write, where without a length it frames the body as chunks (one writev of several buffers).
  const head: string[] = []
  const headers = answer.headers
  for (const name in headers) head.push(name, headers[name] as string)
  if (origin !== undefined) head.push('Access-Control-Allow-Origin', origin, 'Vary', 'Origin')
  const body = rewriteProviderUrls(answer.text, context.origin)
  if (answer.status >= 200 && answer.status !== 204 && answer.status !== 304)
    head.push('Content-Length', String(Buffer.byteLength(body)))
  res.writeHead(answer.status, head)
  res.end(body)
}

function reportCatchUp(error: unknown): void {
  process.stderr.write(`service-sim: wall clock catch-up failed: ${(error as Error)?.stack ?? String(error)}\n`)
}
