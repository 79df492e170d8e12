import { importOptional } from '../optional-package.js'
import type { AppFetch, NodeListener } from './app-fetch.js'

// Statuses whose response has no body (a WHATWG Response refuses one).
const NULL_BODY = new Set([101, 204, 205, 304])

type Inject = typeof import('light-my-request')['default']
let loaded: Promise<Inject> | undefined

function inject(): Promise<Inject> {
  loaded ??= importOptional('light-my-request', () => import('light-my-request'), 'Mounting a Node request listener').then(
    (m) => m.default,
  )
  return loaded
}

/**
 * Serves a Node `http` request listener (an Express app, `(req, res) => ...`, Fastify's
 * `routing` after `ready()`) in memory: each WHATWG `Request` becomes an `IncomingMessage` and
 * `ServerResponse` pair without a socket, through `light-my-request` (the injector Fastify's own
 * `inject` is built on; an optional peer package), and the listener's answer comes back as a
 * `Response`. No port is opened, so nothing waits on the network and the virtual clock keeps
 * its hold on the run.
 *
 * @example
 * const call = fromNodeListener((req, res) => res.writeHead(200).end('ok'))
 * const res = await call(new Request('http://app.test/webhook', { method: 'POST', body: '{}' }))
 */
export function fromNodeListener(listener: NodeListener): AppFetch {
  return async (request) => {
    const run = await inject()
    const url = new URL(request.url)
    const headers: Record<string, string> = { host: url.host }
    request.headers.forEach((value, name) => {
      headers[name] = value
    })
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer())
    const res = await run(listener, {
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(body === undefined ? {} : { payload: body }),
    })
    const out = new Headers()
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue
      for (const one of Array.isArray(value) ? value : [value]) out.append(name, String(one))
    }
    const status = res.statusCode
    return new Response(NULL_BODY.has(status) ? null : new Uint8Array(res.rawPayload), { status, headers: out })
  }
}
