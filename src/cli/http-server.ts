import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Simulator } from '../simulator/create-simulator.js'
import { ADMIN_PREFIX, withAdminApi } from './admin-api.js'

/**
 * Serves a simulator over HTTP on loopback with node's own server. Service requests go to
 * `sim.fetch` with a string body and plain headers (its fast path: no `Request` is built); the
 * admin API under `/__sim/` gets a real `Request`.
 *
 * @example
 * const server = await startHttpServer(sim, 0)
 * server.address() // { port: 43121, ... }
 */
export function startHttpServer(sim: Simulator, port: number): Promise<Server> {
  const admin = withAdminApi(sim)
  const server = createServer((req, res) => {
    handle(sim, admin, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ error: { type: 'api_error', code: 'server_error', message: String(error) } }))
    })
  })
  return new Promise((ready, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => ready(server))
  })
}

async function handle(
  sim: Simulator,
  admin: (req: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  const url = `http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`
  const method = req.method ?? 'GET'
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  const hasBody = method !== 'GET' && method !== 'HEAD' && text !== ''
  const response = (req.url ?? '').startsWith(ADMIN_PREFIX)
    ? await admin(new Request(url, { method, headers, ...(hasBody ? { body: text } : {}) }))
    : await sim.fetch(url, { method, headers, ...(hasBody ? { body: text } : {}) })
  const out: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    out[name] = value
  })
  const body = await response.text()
  res.writeHead(response.status, out)
  res.end(body)
}
