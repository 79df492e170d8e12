import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { SERVED_METHODS } from './serve-admission.js'
import { envelope, type Refusal } from './serve-guard.js'

/**
 * Answers a refusal in the envelope; a request with a body gets its connection closed unread.
 *
 * @example
 * refuse(req, res, { status: 413, code: 'body_too_large', message: 'request body over 1048576 bytes' })
 */
export function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
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

/**
 * An error nobody expected: 500 in the envelope when the response has not begun, else a drop.
 *
 * @example
 * handle(req, res).catch((error: unknown) => failed(req, res, error))
 */
export function failed(req: IncomingMessage, res: ServerResponse, error: unknown): void {
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

/**
 * Answers what node's parser refused (malformed HTTP, oversized headers, a slow client) in the
 * envelope, after any earlier pipelined answer still going out on the socket.
 *
 * @example
 * server.on('clientError', answerClientError)
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
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
}

/**
 * Refuses a CONNECT: serve is no proxy.
 *
 * @example
 * server.on('connect', refuseConnect)
 */
export function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy())
  answerRaw(socket, {
    status: 405,
    code: 'method_not_allowed',
    message: 'CONNECT is not served: service-sim is not a proxy',
    headers: { Allow: SERVED_METHODS.join(', ') },
  })
}
