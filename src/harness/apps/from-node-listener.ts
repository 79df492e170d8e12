import type { AppFetch, NodeListener } from './app-fetch.js'
import { exchangeInMemory } from './exchange-in-memory.js'

// Statuses whose response has no body (a WHATWG Response refuses one).
const NULL_BODY = new Set([101, 204, 205, 304])
// Framing of the in-memory exchange, not of the answer.
const FRAMING = new Set(['connection', 'transfer-encoding', 'keep-alive'])

/**
 * Serves a Node `http` request listener (an Express app, `(req, res) => ...`, Fastify's
 * `routing`) in memory: each WHATWG `Request` becomes a real `IncomingMessage` and
 * `ServerResponse` pair over a socket that only records what is written, and the listener's answer
 * comes back as a `Response`. No port is opened, so nothing waits on the network and the virtual
 * clock keeps its hold on the run; nothing outside the exchange is changed, so the same framework
 * can serve real sockets in the same process. A listener that throws answers 500.
 *
 * @example
 * const call = fromNodeListener((req, res) => res.writeHead(200).end('ok'))
 * const res = await call(new Request('http://app.test/webhook', { method: 'POST', body: '{}' }))
 */
export function fromNodeListener(listener: NodeListener): AppFetch {
  return async (request) => {
    const url = new URL(request.url)
    const headers: [string, string][] = [['host', url.host]]
    request.headers.forEach((value, name) => {
      if (name !== 'host') headers.push([name, value])
    })
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer())
    if (body !== undefined && !request.headers.has('content-length')) headers.push(['content-length', String(body.length)])
    let answer: Awaited<ReturnType<typeof exchangeInMemory>>
    try {
      answer = await exchangeInMemory(listener, { method: request.method, url: url.pathname + url.search, headers, body })
    } catch (error) {
      return new Response(String((error as Error)?.message ?? error), { status: 500 })
    }
    const out = new Headers()
    for (const [name, value] of answer.headers) if (!FRAMING.has(name)) out.append(name, value)
    const status = answer.status
    return new Response(NULL_BODY.has(status) ? null : new Uint8Array(answer.body), { status, headers: out })
  }
}
