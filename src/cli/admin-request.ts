import { request } from 'node:http'

/** An answer of serve's admin API: status and parsed JSON body (`{}` when not JSON). */
export interface AdminAnswer {
  readonly status: number
  readonly body: unknown
}

/**
 * POSTs `body` as JSON to `url` on a running serve and reads the answer. Through `node:http` with
 * the connection closed after the answer: `fetch` loads its HTTP client on first use and keeps the
 * connection alive, which held a one-call command open for about a second after it had its answer.
 *
 * @example
 * const { status, body } = await postAdmin(new URL('http://127.0.0.1:12111/__sim/settle'), {}, token)
 */
export function postAdmin(url: URL, body: unknown, token: string | undefined): Promise<AdminAnswer> {
  const text = JSON.stringify(body)
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
    Connection: 'close',
    ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
  }
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers }, (res) => {
      let answer = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        answer += chunk
      })
      res.on('error', reject)
      res.on('end', () => {
        res.socket?.destroy()
        let parsed: unknown = {}
        try {
          parsed = JSON.parse(answer)
        } catch {}
        resolve({ status: res.statusCode ?? 0, body: parsed })
      })
    })
    req.on('error', reject)
    req.end(text)
  })
}
