import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { IncomingExchangeHandler } from '../http/handler.js'
import { type IncomingUrl, lowercaseHeaderReader } from '../http/incoming.js'
import { createTransport } from '../http/transport.js'
import { callerNow } from '../kernel/wall-clock.js'
import { createSimulator, incomingExchangeOf, type Simulator } from '../simulator/create-simulator.js'
import { ADMIN_PREFIX, type AdminHost, MAX_BODY_BYTES, withAdminApi } from './admin-api.js'
import { preflightHeaders } from './customer-pages/cors.js'
import { customerSide, isCustomerPath } from './customer-pages/customer-routes.js'
import { rewriteProviderUrls } from './customer-pages/provider-urls.js'
import { installServeReceiverFaults } from './serve-faults.js'
import {
  allowedHostSet,
  checkAdminToken,
  envelope,
  hostnameOf,
  isAllowedOrigin,
  isJsonContentType,
  type Refusal,
} from './serve-guard.js'
import type { SessionRecorder } from './session-record.js'
import { writeStateFile } from './state-file.js'
import { targetUrl } from './target-url.js'
import { createWallDriver, type ServeClock, type WallDriver } from './wall-driver.js'

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
}

/** The server `startHttpServer` returns, with the simulator it serves now (a reset replaces it). */
export interface SimServer extends Server {
  readonly host: AdminHost
}

// The methods anyone can mean here; TRACE (a cross-site tracing vector), CONNECT and WebDAV's are
// refused before they reach the simulator or `new Request` (which throws on some of them).
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

interface Context {
  /** The simulator served now and its exchange of read requests (both replaced by a reset). */
  sim: Simulator
  raw: IncomingExchangeHandler
  readonly driver: WallDriver | undefined
  readonly admin: (req: Request) => Promise<Response>
  readonly token: string | null
  readonly allowed: ReadonlySet<string>
  readonly recorder: SessionRecorder | undefined
  /** The fixed origin request URLs are built on; the Host header never goes into a URL. */
  origin: string
  /** `Host` values seen and their host names (or undefined when invalid): a client sends the same one each time. */
  readonly hostnames: Map<string, string | undefined>
}

function cachedHostname(context: Context, authority: string): string | undefined {
  const known = context.hostnames.get(authority)
  if (known !== undefined || context.hostnames.has(authority)) return known
  const name = hostnameOf(authority)
  // Bounded: a client sending ever new values costs a parse each, never memory.
  if (context.hostnames.size >= 256) context.hostnames.clear()
  context.hostnames.set(authority, name)
  return name
}

/**
 * Serves a simulator over HTTP on loopback with node's own server. Every request is checked first
 * (request target, `Host` and `Origin` against the allowed hosts, the admin token and JSON-only
 * admin writes) and refused in the JSON error envelope; malformed HTTP that node's parser rejects
 * is answered the same way. Service requests go to the simulator's raw exchange with a string body
 * and node's header object (no `Request` or `Response` is built per call); the admin API under
 * `/__sim/` gets a real `Request`.
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
  const rebuild =
    options.rebuild ??
    (() =>
      createSimulator({
        seed: context.sim.seed,
        headerPrefix: context.sim.service.kernel.prefix,
        ...(clock.mode === 'wall' ? { start: callerNow() } : {}),
      }))
  const recorder = options.recorder
  const install = (target: Simulator) =>
    installServeReceiverFaults(
      target,
      recorder === undefined ? undefined : recorder.transport(createTransport(target.receivers), target),
    )
  // Time travel runs the work due on the way in order of its virtual time and waits for each
  // step's attempts to receivers outside the process (timed on the wall clock, so bounded) before
  // moving on: a real answer is never overtaken by the jump and recorded as a time-out.
  const move = async (ms: number) => {
    const { scheduler, clock: virtual } = context.sim.service.kernel
    await scheduler.advance(virtual.now + ms)
    await context.sim.settle()
  }
  const host: AdminHost = {
    get sim() {
      return context.sim
    },
    clock,
    advance: (ms) => (driver ? driver.jump(() => move(ms)) : move(ms)),
    async reset() {
      const fresh = await rebuild()
      install(fresh)
      recorder?.reset(fresh)
      context.sim = fresh
      context.raw = incomingExchangeOf(fresh)
      driver?.attach(fresh)
      return fresh
    },
    async snapshot() {
      const take = async () => {
        await context.sim.settle()
        return context.sim.snapshot()
      }
      // Serialised with the wall clock's catch-ups: the clock does not move while it is taken.
      const snapshot = driver ? await driver.jump(take) : await take()
      if (options.stateFile !== undefined) writeStateFile(options.stateFile, snapshot)
      return { snapshot, file: options.stateFile }
    },
    ...(options.extras === undefined ? {} : { extras: options.extras }),
  }
  install(sim)
  const context: Context = {
    sim,
    raw: incomingExchangeOf(sim),
    driver,
    admin: withAdminApi(host),
    token: options.adminToken,
    allowed: allowedHostSet(options.allowedHosts),
    recorder,
    origin: 'http://127.0.0.1',
    hostnames: new Map(),
  }
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
  Object.defineProperty(server, 'host', { value: host })
  server.on('close', () => driver?.stop())
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage
    const answer = () => (socket.writable ? answerRaw(socket, clientErrorRefusal(error)) : socket.destroy())
    // An earlier pipelined request, received whole, is still being answered: its answer goes
    // first, or the client would read this refusal as the answer to that request.
    if (inFlight && !inFlight.writableFinished && inFlight.req.complete) {
      let once = false
      const after = () => {
        if (!once) answer()
        once = true
      }
      inFlight.once('finish', after)
      inFlight.once('close', after)
      return
    }
    // As node's own handler: answer only if nothing of a response went out on this socket yet.
    if (inFlight?.headersSent) socket.destroy()
    else answer()
  })
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy())
    answerRaw(socket, {
      status: 405,
      code: 'method_not_allowed',
      message: 'CONNECT is not served: service-sim is not a proxy',
      headers: { Allow: METHODS.join(', ') },
    })
  })
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
  const { url, admin } = admitted
  const read = readBody(req)
  const text = read instanceof Promise ? await read : read
  if (text === undefined)
    return refuse(req, res, { status: 413, code: 'body_too_large', message: `request body over ${MAX_BODY_BYTES} bytes` })
  const method = req.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD' && text !== ''
  // A page of the app's (another port) calls the API and the customer side through the browser
  // library stand-in: its preflight is answered here; the admin API answers none.
  const origin = admin ? undefined : req.headers.origin
  if (origin !== undefined && method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
    res.writeHead(204, preflightHeaders(origin, req.headers['access-control-request-headers']))
    res.end()
    return
  }
  if (!admin && isCustomerPath(url.pathname)) {
    const answer = await customerSide(context.sim, context.admin, method, new URL(url.href), text)
    res.writeHead(answer.status, {
      ...answer.headers,
      ...(origin === undefined ? {} : { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' }),
    })
    res.end(answer.text)
    return
  }
  // A request sees the current time: the clock catches up with the wall before it is served.
  const driver = context.driver
  // During a jump the request is served at the jump's current time without waiting for it: the
  // jump may be waiting for a webhook whose receiver calls back into the API before it answers.
  if (driver !== undefined && !driver.trySync() && !driver.jumping) await driver.sync().catch(reportCatchUp)
  const arrived = arrival(context.sim, req.method ?? 'GET', req.headers, url.pathname + url.search, admin, text)
  if (admin) {
    // Only the header the admin API reads: whatever else a client sent cannot make `Request` throw.
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
    context.recorder?.request({ ...arrived, status: response.status, response: body })
    res.writeHead(response.status, out)
    res.end(body)
    return
  }
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

// Hop-by-hop and framing headers say nothing about the request; admin credentials stay out of the trace.
const UNRECORDED = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])
const ADMIN_SECRETS = new Set(['authorization', 'x-sim-admin-token'])

// Requests arrive many to a millisecond under load: its ISO text is made once.
let lastWall = { ms: Number.NaN, iso: '' }
function wallNow(): string {
  const ms = callerNow()
  if (ms !== lastWall.ms) lastWall = { ms, iso: new Date(ms).toISOString() }
  return lastWall.iso
}

/** A served request's arrival as its `serve.request` trace entry holds it. */
export interface Arrival {
  /** The entry's `seq`: the order requests were accepted in. */
  readonly seq: number
  /** Virtual arrival time (epoch ms), the entry's `at`. */
  readonly at: number
  /** Real arrival time (ISO 8601). */
  readonly wall: string
  readonly method: string
  readonly path: string
  readonly admin: boolean
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * Records a served request's arrival: its wall time and (as the entry's `at`) the virtual time it
 * is served at, with what a replay needs to send it again (method, target, headers, body). Only
 * the served path (and `replay --served`, with the recorded `wall`) appends it, so in-process runs
 * keep their trace byte for byte.
 *
 * @example
 * arrival(sim, 'GET', { authorization: 'Bearer sk_test_...' }, '/v1/balance', false, '')
 */
export function arrival(
  sim: Simulator,
  method: string,
  raw: Readonly<Record<string, string | string[] | undefined>>,
  path: string,
  admin: boolean,
  body: string,
  wall: string = wallNow(),
): Arrival {
  const headers = recordedHeaders(raw, admin)
  const entry = sim.trace.append('serve.request', { wall, method, path, admin, headers, body })
  return { seq: entry.seq, at: entry.at, wall, method, path, admin, headers, body }
}

// The last recorded headers, names in order: a client sends the same headers again and again, and
// entries are never changed, so an equal set is shared instead of kept once per request.
let lastHeaders: Record<string, string> = {}
let lastNames: string[] = []

/** Whether a `serve.request` entry records a header: every one but the hop-by-hop ones (and admin secrets). */
function recorded(name: string, value: string | string[] | undefined, admin: boolean): value is string {
  return typeof value === 'string' && !UNRECORDED.has(name) && !(admin && ADMIN_SECRETS.has(name))
}

/** The headers a `serve.request` entry records, shared with the previous request's when equal. */
function recordedHeaders(raw: Readonly<Record<string, string | string[] | undefined>>, admin: boolean): Record<string, string> {
  let i = 0
  let same = true
  for (const name in raw) {
    const value = raw[name]
    if (!recorded(name, value, admin)) continue
    if (lastNames[i] !== name || lastHeaders[name] !== value) {
      same = false
      break
    }
    i++
  }
  if (same && i === lastNames.length) return lastHeaders
  const headers: Record<string, string> = {}
  const names: string[] = []
  for (const name in raw) {
    const value = raw[name]
    if (!recorded(name, value, admin)) continue
    headers[name] = value
    names.push(name)
  }
  lastHeaders = headers
  lastNames = names
  return headers
}

/**
 * The checks every request passes before its body is read: method, request target, `Host`,
 * `Origin`, and for the admin API the token and a JSON content type on writes. Returns the URL to
 * serve (the fixed origin plus the target's path and query) or the refusal.
 */
function admit(context: Context, req: IncomingMessage): { url: IncomingUrl; admin: boolean } | Refusal {
  const method = req.method ?? ''
  if (!METHODS.includes(method))
    return {
      status: 405,
      code: 'method_not_allowed',
      message: `${method} is not served; methods: ${METHODS.join(', ')}`,
      headers: { Allow: METHODS.join(', ') },
    }
  const target = req.url ?? ''
  let path: string
  let authority: string | undefined
  if (target.startsWith('/')) path = target
  else {
    // Absolute form (`GET http://127.0.0.1:12111/v1/balance`): RFC 9112 section 3.2.2 says a server
    // must accept it, and that its authority replaces the Host header.
    const absolute = /^http:\/\/([^/?#]*)([^#]*)$/i.exec(target)
    if (absolute === null)
      return {
        status: 400,
        code: 'request_target_invalid',
        message: `request target ${JSON.stringify(target.slice(0, 200))} is neither a path ('/v1/...') nor an absolute http:// URL`,
      }
    authority = absolute[1] ?? ''
    const rest = absolute[2] ?? ''
    path = rest.startsWith('/') ? rest : `/${rest}`
  }
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
    const hostname = cachedHostname(context, named)
    if (hostname === undefined)
      return {
        status: 400,
        code: 'host_invalid',
        message: `Host ${JSON.stringify(named.slice(0, 200))} is not a valid host[:port]`,
      }
    if (!context.allowed.has(hostname))
      return {
        status: 403,
        code: 'host_not_allowed',
        message: `Host '${hostname}' is not allowed: service-sim answers ${[...context.allowed].join(', ')} (add one with --allowed-host)`,
      }
  }
  const origin = req.headers.origin
  if (origin !== undefined && !isAllowedOrigin(origin, context.allowed))
    return {
      status: 403,
      code: 'origin_not_allowed',
      message: `Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed: only pages served from ${[...context.allowed].join(', ')} may call service-sim`,
    }
  const url = targetUrl(context.origin, path)
  if (url === undefined)
    return {
      status: 400,
      code: 'request_target_invalid',
      message: `request target ${JSON.stringify(target.slice(0, 200))} is not a valid path`,
    }
  const admin = url.pathname === ADMIN_PREFIX.slice(0, -1) || url.pathname.startsWith(ADMIN_PREFIX)
  if (admin) {
    if (context.token !== null) {
      const refused = checkAdminToken(req.headers, context.token)
      if (refused !== undefined) return refused
    }
    if (method !== 'GET' && method !== 'HEAD' && !isJsonContentType(req.headers['content-type']))
      return {
        status: 415,
        code: 'content_type_unsupported',
        message: `admin API writes take 'Content-Type: application/json' only, got ${JSON.stringify(req.headers['content-type'] ?? 'none')}`,
      }
  }
  return { url, admin }
}

/** Answers a refusal in the envelope; a request with a body gets its connection closed unread. */
function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0'
  const body = envelope(refusal)
  res.writeHead(refusal.status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    ...refusal.headers,
    // Not draining a body nobody wants (it may be huge); the client opens a new connection.
    ...(hasBody ? { Connection: 'close' } : {}),
  })
  res.end(body, hasBody ? () => req.destroy() : undefined)
}

/** An error nobody expected: 500 in the envelope when the response has not begun, else a drop. */
function failed(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  // A client that went away mid-body is no error of ours.
  if (req.socket.destroyed || res.destroyed) return
  process.stderr.write(
    `service-sim: unexpected error answering ${req.method} ${JSON.stringify(req.url)}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  if (res.headersSent) return void req.socket.destroy()
  const body = envelope({
    status: 500,
    code: 'server_error',
    message: `unexpected error in service-sim serve: ${error instanceof Error ? error.message : String(error)}`,
  })
  res.writeHead(500, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  })
  res.end(body)
}

function clientErrorRefusal(error: NodeJS.ErrnoException): Refusal {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'headers_too_large', message: 'request headers over the 16 KiB limit' }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'body_too_large', message: 'chunk extensions over the limit' }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request_timeout', message: 'the request did not arrive in time' }
    default:
      return {
        status: 400,
        code: 'request_malformed',
        message: `malformed HTTP request: ${(error as { reason?: string }).reason ?? error.message}`,
      }
  }
}

/** Writes a whole response on a socket node's parser has given up on, then closes it. */
function answerRaw(socket: Duplex, refusal: Refusal): void {
  const body = envelope(refusal)
  const head = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(refusal.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ]
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy())
}

/** The body as text, or undefined as soon as it is (or declares to be) over `MAX_BODY_BYTES`. */
function readBody(req: IncomingMessage): string | undefined | Promise<string | undefined> {
  const length = req.headers['content-length']
  // No body announced (a GET): nothing to wait for; node discards whatever it is once answered.
  if (length === undefined && req.headers['transfer-encoding'] === undefined) return ''
  if (Number(length ?? 0) > MAX_BODY_BYTES) return undefined
  // Events, not for-await: leaving a for-await loop destroys the socket before the 413 is sent.
  return new Promise((done, failed) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk)
      req.off('data', onData)
      req.pause()
      done(undefined)
    }
    req.on('data', onData)
    req.once('end', () =>
      done(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    )
    req.once('error', failed)
    // A client gone before the end of its body: settles the read (nobody is left to answer).
    req.once('close', () => {
      if (!req.complete) failed(new Error('client closed the connection before the end of the body'))
    })
  })
}
