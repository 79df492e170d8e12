import { request } from 'node:http'

/** An HTTP answer as node's client reads it. */
export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * One request to a loopback server with node's client, which (unlike fetch) lets a test set Host
 * and Origin.
 *
 * @example
 * const answer = await call(port, '/__sim/state', { headers: { Host: 'evil.example' } })
 */
export function call(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((done, failed) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} })
    req.on('response', (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', failed)
    req.end(options.body)
  })
}
