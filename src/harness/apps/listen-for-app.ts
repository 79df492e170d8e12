import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { FlowClientEnv } from '../flows/flow-run.js'

// Headers of one hop: the served request is a new one, its length and framing its own.
const HOP = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'upgrade', 'expect'])

/**
 * The path an app outside the process records its effects at (`POST`, JSON `{ call, args }`).
 *
 * @example
 * await fetch(apiUrl + RECORD_PATH, { method: 'POST', body: JSON.stringify({ call: 'orders.fulfil', args: ['cs_test_1'] }) })
 */
export const RECORD_PATH = '/__harness/record'

/** Runs a function in a captured async context (`AsyncLocalStorage.snapshot()`). */
export type ContextRunner = <T>(fn: () => T) => T

function within<T>(served: ServedRun, fn: () => T): T {
  if (served.inFlight.size !== 1) return fn()
  const [run] = served.inFlight
  return (run as ContextRunner)(fn)
}

/**
 * What the server serves now: the env of the current run (undefined between runs).
 *
 * @example
 * const served: ServedRun = { current: undefined, appKey: 'sk_test_harness_app', inFlight: new Set() }
 */
export interface ServedRun {
  current: FlowClientEnv | undefined
  /**
   * The async contexts of the deliveries and page visits being forwarded to the app now: a call of
   * the app that arrives while exactly one is in flight is served inside it, so what the harness
   * tracks per delivery (which event the app was handling when it read or recorded) follows the
   * app across the process boundary. With several in flight, the call cannot be told apart and is
   * served outside any.
   */
  readonly inFlight: Set<ContextRunner>
  /** The secret key the app was started with, swapped for the run's own. */
  readonly appKey: string
  /** How many requests the app has made of the harness (API calls and records): a sign it is still at work. */
  calls?: number
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

function swapKey(value: string, appKey: string, runKey: string): string {
  const basic = Buffer.from(`${appKey}:`).toString('base64')
  return value.replace(appKey, runKey).replace(basic, Buffer.from(`${runKey}:`).toString('base64'))
}

/**
 * Calls a recorder of the run's env by its dotted name (`orders.fulfil`, `notices.paymentFailed`,
 * `effects.record`) with JSON arguments: how an app in another process reports an effect. Only
 * a method of an object of the env is reachable (not `fetch`, not the clock, not the store).
 */
function record(env: FlowClientEnv, body: Buffer): { status: number; error?: string } {
  let call: unknown
  let args: unknown
  try {
    ;({ call, args } = JSON.parse(body.toString('utf8')) as { call?: unknown; args?: unknown })
  } catch {
    return { status: 400, error: 'expected JSON { "call": "orders.fulfil", "args": [...] }' }
  }
  const path = typeof call === 'string' ? call.split('.') : []
  const [owner, method] = path
  const target = owner === undefined ? undefined : (env as unknown as Record<string, unknown>)[owner]
  const fn = method === undefined ? undefined : (target as Record<string, unknown> | undefined)?.[method]
  if (path.length !== 2 || owner === 'clock' || owner === 'store' || typeof fn !== 'function')
    return { status: 400, error: `no recorder '${String(call)}' in this run's env (e.g. orders.fulfil, notices.paymentFailed)` }
  ;(fn as (...a: unknown[]) => unknown).apply(target, Array.isArray(args) ? args : [])
  return { status: 204 }
}

async function answer(served: ServedRun, req: IncomingMessage, res: ServerResponse): Promise<void> {
  served.calls = (served.calls ?? 0) + 1
  const body = await readBody(req)
  const env = served.current
  if (env === undefined) return json(res, 503, { error: { type: 'api_error', message: 'No harness run is in progress.' } })
  const path = req.url ?? '/'
  if (path === RECORD_PATH && req.method === 'POST') {
    const done = within(served, () => record(env, body))
    return done.error === undefined ? void res.writeHead(done.status).end() : json(res, done.status, { error: done.error })
  }
  const headers = new Headers()
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string
    const value = req.rawHeaders[i + 1] as string
    if (HOP.has(name.toLowerCase())) continue
    headers.append(name, name.toLowerCase() === 'authorization' ? swapKey(value, served.appKey, env.secretKey) : value)
  }
  const method = req.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD'
  const request = new Request(env.baseUrl + path, { method, headers, ...(hasBody ? { body: new Uint8Array(body) } : {}) })
  const answered = await within(served, () => env.fetch(request))
  const out: Record<string, string> = {}
  answered.headers.forEach((value, name) => {
    if (!HOP.has(name)) out[name] = value
  })
  res.writeHead(answered.status, out).end(Buffer.from(await answered.arrayBuffer()))
}

/**
 * The HTTP face of the harness for an app outside the process: every request is served by the
 * current run's simulator (its `fetch`, so the run's faults reach the app's calls), with the
 * secret key the app was started with swapped for the run's; `POST /__harness/record` calls a
 * recorder of the run's env. Listens on 127.0.0.1.
 *
 * @example
 * const server = await listenForApp({ current: undefined, appKey: 'sk_test_app', inFlight: new Set() }, 0)
 */
export async function listenForApp(served: ServedRun, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    answer(served, req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: { type: 'api_error', message: String((error as Error)?.message ?? error) } })
      else res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  return server
}
