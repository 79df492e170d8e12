import type Nock from 'nock'
import { hostsFor, type InterceptOptions } from './hosts.js'

/** A fetch-compatible handler: what the interception routes matched requests to. */
export type RouteTarget = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

/** An active interception; `restore()` removes exactly what it installed. */
export interface Interception {
  /** The hosts routed to the simulator. */
  readonly hosts: readonly string[]
  /** Removes the interceptors and allows the network again. */
  restore(): void
}

const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'] as const
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

let nockModule: Promise<typeof Nock> | undefined

// Hosts routed by live interceptions in this process: nock would send a second simulator's
// requests for the same host to the first one, so that is refused instead.
const claimed = new Set<string>()

/**
 * nock is an optional peer dependency: it is loaded on first use so the core never imports it (and
 * so that importing `service-sim` does not patch `http`/`fetch` as importing nock does).
 */
function loadNock(): Promise<typeof Nock> {
  nockModule ??= import('nock').then(
    (m) => ((m as { default?: typeof Nock }).default ?? m) as typeof Nock,
    (error: unknown) => {
      nockModule = undefined
      throw new Error("sim.intercept() needs the optional peer dependency 'nock' (version 14 or newer): npm i -D nock@14", {
        cause: error,
      })
    },
  )
  return nockModule
}

function headerList(raw: Record<string, string | string[] | number | undefined>): [string, string][] {
  const out: [string, string][] = []
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const v of value) out.push([name, v])
    else out.push([name, String(value)])
  }
  return out
}

/** Answers one intercepted request by `target`, with the raw body nock saw for it. */
async function answer(
  target: RouteTarget,
  url: string,
  method: (typeof METHODS)[number],
  req: Nock.ReplyFnContext['req'],
  body: string | undefined,
) {
  const headers = new Headers(headerList(req.headers as Record<string, string | string[]>))
  const hasBody = method !== 'GET' && method !== 'HEAD' && body !== undefined && body !== ''
  const response = await target(url, {
    method,
    headers,
    ...(hasBody ? { body } : {}),
  })
  // Null prototype: a receiver may answer with any header name, `__proto__` included.
  const replyHeaders: Record<string, string> = Object.create(null)
  response.headers.forEach((value, name) => {
    replyHeaders[name] = value
  })
  return [response.status, await response.text(), replyHeaders] as const
}

/**
 * Routes every method of one origin (`https://host`) to `target`: a persistent nock scope whose
 * interceptors are added to `installed`. nock hands reply functions a JSON-parsed body; the
 * simulator must see the raw bytes (idempotency fingerprints, signatures), so they are taken from
 * the scope's `request` event into `rawBodies`.
 */
function routeOrigin(
  nock: typeof Nock,
  target: RouteTarget,
  origin: string,
  rawBodies: WeakMap<object, string>,
  installed: Nock.Interceptor[],
): Nock.Scope {
  const scope = nock(origin).persist()
  scope.on('request', (req: object, _interceptor: unknown, body: string) => {
    rawBodies.set(req, body)
  })
  for (const method of METHODS) {
    const interceptor = scope.intercept(() => true, method)
    interceptor.reply(async function (this: Nock.ReplyFnContext, path: string) {
      return answer(target, `${origin}${path}`, method, this.req, rawBodies.get(this.req))
    })
    installed.push(interceptor)
  }
  return scope
}

/**
 * Routes the global `fetch` and node's `http`/`https` for `hosts` to `target`, through nock 14
 * (which intercepts both paths). Requests to other hosts fail with nock's
 * `NetConnectNotAllowedError` (default `unmatched: 'error'`) or pass through (loopback always passes, so in-process
 * servers and local webhook receivers keep working).
 *
 * @example
 * const interception = await interceptHosts(sim.fetch, { hosts: ['api.service.test'] })
 * await fetch('https://api.service.test/v1/balance', { headers }) // answered by the simulator
 * interception.restore()
 */
export async function interceptHosts(
  target: RouteTarget,
  options: InterceptOptions & { prefix?: string } = {},
): Promise<Interception> {
  const nock = await loadNock()
  const hosts = hostsFor(options.prefix ?? 'Service', options)
  const taken = hosts.filter((h) => claimed.has(h))
  if (taken.length > 0) {
    throw new Error(
      `sim.intercept(): ${taken.join(', ')} ${taken.length === 1 ? 'is' : 'are'} already routed to another simulator; call its restore() first, or intercept other hosts`,
    )
  }
  for (const h of hosts) claimed.add(h)
  if (!nock.isActive()) nock.activate()
  const rawBodies = new WeakMap<object, string>()
  const installed: Nock.Interceptor[] = []
  const scopes: Nock.Scope[] = []
  for (const host of hosts) {
    for (const protocol of ['https', 'http'])
      scopes.push(routeOrigin(nock, target, `${protocol}://${host}`, rawBodies, installed))
  }
  const failUnmatched = (options.unmatched ?? 'error') === 'error'
  if (failUnmatched) {
    nock.disableNetConnect()
    nock.enableNetConnect((host: string) => LOOPBACK.has(host.replace(/:\d+$/, '')))
  }
  let active = true
  return {
    hosts,
    restore() {
      if (!active) return
      active = false
      for (const h of hosts) claimed.delete(h)
      for (const interceptor of installed) nock.removeInterceptor(interceptor)
      for (const scope of scopes) scope.removeAllListeners('request')
      // nock has no getter for the policy; its default (allow all) is what we give back.
      if (failUnmatched) nock.enableNetConnect()
      // nock patches globals while active; give them back unless someone else still has mocks.
      if (nock.activeMocks().length === 0 && nock.isActive()) nock.restore()
    },
  }
}
