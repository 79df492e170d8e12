import { IncomingMessage, ServerResponse } from 'node:http'
import { Duplex } from 'node:stream'

/**
 * The connection of one in-memory exchange: what the response writes is kept, nothing is read
 * from it (the request's body is pushed into the request itself). It says what a server's
 * socket says about the peer (a loopback address, not encrypted).
 */
class MemorySocket extends Duplex {
  readonly written: Buffer[] = []
  readonly remoteAddress = '127.0.0.1'
  readonly remotePort = 0
  readonly encrypted = false
  override _read(): void {}
  override _write(chunk: Buffer | string, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.written.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk)
    done()
  }
  // Node's HTTP server sets an idle time-out on its socket; an exchange in memory has no idle time,
  // so this is the socket interface's method, answered with no timer at all.
  setTimeout(): this {
    return this
  }
  setNoDelay(): this {
    return this
  }
  setKeepAlive(): this {
    return this
  }
  destroySoon(): void {
    this.end()
  }
}

/** What a listener answered, read off the bytes it wrote. */
interface WrittenAnswer {
  readonly status: number
  readonly headers: readonly (readonly [string, string])[]
  readonly body: Buffer
}

function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const eol = body.indexOf('\r\n', at)
    if (eol < 0) break
    const size = Number.parseInt(body.subarray(at, eol).toString('latin1'), 16)
    if (!Number.isFinite(size) || size === 0) break
    parts.push(body.subarray(eol + 2, eol + 2 + size))
    at = eol + 2 + size + 2
  }
  return Buffer.concat(parts)
}

/** Parses the status line, the header lines and the body of a written HTTP/1.1 response. */
function parseWritten(bytes: Buffer): WrittenAnswer {
  const end = bytes.indexOf('\r\n\r\n')
  const head = (end < 0 ? bytes : bytes.subarray(0, end)).toString('latin1').split('\r\n')
  const status = Number((head[0] ?? '').split(' ')[1] ?? 500)
  const headers = head.slice(1).flatMap((line): [string, string][] => {
    const colon = line.indexOf(':')
    return colon < 0 ? [] : [[line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]]
  })
  const raw = end < 0 ? Buffer.alloc(0) : bytes.subarray(end + 4)
  const chunked = headers.some(([n, v]) => n === 'transfer-encoding' && v.toLowerCase().includes('chunked'))
  return { status, headers, body: chunked ? unchunk(raw) : raw }
}

/**
 * One request as a Node server would hand it to its listener.
 *
 * @example
 * const request: MemoryRequest = { method: 'POST', url: '/webhook', headers: [['content-type', 'application/json']], body: Buffer.from('{}') }
 */
export interface MemoryRequest {
  readonly method: string
  /** Path and query. */
  readonly url: string
  /** Header names and values in order (`rawHeaders` pairs). */
  readonly headers: readonly (readonly [string, string])[]
  readonly body: Buffer | undefined
}

/**
 * Runs a Node request listener on one request in memory: a real `IncomingMessage` and
 * `ServerResponse` over a socket that only records, so a framework that swaps their prototypes
 * (Express does) keeps working, and nothing is changed outside this exchange. Resolves with what
 * the listener wrote once it ends its response; rejects when the listener throws.
 *
 * @example
 * const answer = await exchangeInMemory((req, res) => res.end('ok'), { method: 'GET', url: '/', headers: [], body: undefined })
 */
export function exchangeInMemory(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  request: MemoryRequest,
): Promise<WrittenAnswer> {
  const socket = new MemorySocket()
  const req = new IncomingMessage(socket as never)
  req.method = request.method
  req.url = request.url
  req.httpVersion = '1.1'
  req.httpVersionMajor = 1
  req.httpVersionMinor = 1
  for (const [name, value] of request.headers) {
    req.rawHeaders.push(name, value)
    const key = name.toLowerCase()
    const had = req.headers[key]
    req.headers[key] = had === undefined ? value : `${String(had)}, ${value}`
  }
  if (request.body !== undefined && request.body.length > 0) req.push(request.body)
  req.push(null)
  req.complete = true
  const res = new ServerResponse(req)
  // One response per connection, its body as written: the bytes read back need no framing but the end.
  res.useChunkedEncodingByDefault = false
  res.shouldKeepAlive = false
  res.assignSocket(socket as never)
  return new Promise((resolve, reject) => {
    res.once('finish', () => resolve(parseWritten(Buffer.concat(socket.written))))
    res.once('error', reject)
    try {
      listener(req, res)
    } catch (error) {
      reject(error)
    }
  })
}
