import { connect } from 'node:net'

/** One HTTP response read off a raw socket. */
export interface RawResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * Sends raw bytes to 127.0.0.1:port and collects everything the server writes until it closes the
 * connection or `waitMs` passes (then the socket is dropped). Returns the bytes as latin1 text and
 * whether the server closed the connection itself.
 */
export function exchangeRaw(
  port: number,
  chunks: readonly (string | Buffer)[],
  waitMs = 5_000,
): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((done, failed) => {
    const socket = connect(port, '127.0.0.1')
    const received: Buffer[] = []
    let closedByServer = false
    const timer = setTimeout(() => socket.destroy(), waitMs)
    socket.on('data', (chunk) => received.push(chunk))
    socket.on('end', () => {
      closedByServer = true
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may reset a connection it refused while we were still writing.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') failed(error)
    })
    socket.on('close', () => {
      clearTimeout(timer)
      done({ text: Buffer.concat(received).toString('latin1'), closedByServer })
    })
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk)
    })
  })
}

/** Splits what a server wrote into its responses (framed by Content-Length or chunked). */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = []
  let rest = text
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n')
    if (end < 0) break
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n')
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(':')
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
    }
    rest = rest.slice(end + 4)
    let body = ''
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const line = rest.indexOf('\r\n')
        const size = Number.parseInt(rest.slice(0, line), 16)
        if (line < 0 || Number.isNaN(size)) break
        body += rest.slice(line + 2, line + 2 + size)
        rest = rest.slice(line + 2 + size + 2)
        if (size === 0) break
      }
    } else {
      const length = Number(headers['content-length'] ?? rest.length)
      body = rest.slice(0, length)
      rest = rest.slice(length)
    }
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body })
  }
  return responses
}

/** The `code` of a JSON error envelope, or undefined when the body is not one. */
export function errorCode(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { type?: string; code?: string } }
    return parsed.error?.type === undefined ? undefined : parsed.error.code
  } catch {
    return undefined
  }
}
