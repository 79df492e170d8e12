import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { ExchangeHandler } from '../http/handler.js'
import { exchangeOf, type Simulator } from '../simulator/create-simulator.js'
import { ADMIN_PREFIX, MAX_BODY_BYTES, withAdminApi } from './admin-api.js'

/**
 * Serves a simulator over HTTP on loopback with node's own server. Service requests go to the
 * simulator's raw exchange with a string body and node's header object (no `Request` or `Response`
 * is built per call); the admin API under `/__sim/` gets a real `Request`.
 *
 * @example
 * const server = await startHttpServer(sim, 0)
 * server.address() // { port: 43121, ... }
 */
export function startHttpServer(sim: Simulator, port: number): Promise<Server> {
  const admin = withAdminApi(sim)
  const raw = exchangeOf(sim)
  const server = createServer((req, res) => {
    handle(raw, admin, req, res).catch((error: unknown) => {
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
  raw: ExchangeHandler,
  admin: (req: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const text = await readBody(req)
  if (text === undefined) {
    // Refused without reading the rest: the connection closes instead of draining a huge upload.
    res.writeHead(413, { 'Content-Type': 'application/json', Connection: 'close' })
    res.end(
      JSON.stringify({
        error: {
          type: 'invalid_request_error',
          code: 'body_too_large',
          message: `request body over ${MAX_BODY_BYTES} bytes`,
        },
      }),
      () => req.destroy(),
    )
    return
  }
  const url = `http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`
  const method = req.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD' && text !== ''
  if ((req.url ?? '').startsWith(ADMIN_PREFIX)) {
    const headers: [string, string][] = []
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.push([name, Array.isArray(value) ? value.join(', ') : value])
    }
    const response = await admin(new Request(url, { method, headers, ...(hasBody ? { body: text } : {}) }))
    const out: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      out[name] = value
    })
    const body = await response.text()
    res.writeHead(response.status, out)
    res.end(body)
    return
  }
  // node's header object has lowercase names and string values (arrays only for set-cookie, which
  // requests do not carry); the exchange reads it as it is.
  const answer = await raw(url, {
    method,
    headers: req.headers as Record<string, string>,
    ...(hasBody ? { body: text } : {}),
  })
  res.writeHead(answer.status, answer.headers)
  res.end(answer.text)
}

/** The body as text, or undefined as soon as it is (or declares to be) over `MAX_BODY_BYTES`. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return Promise.resolve(undefined)
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
    req.once('end', () => done(Buffer.concat(chunks).toString('utf8')))
    req.once('error', failed)
  })
}
