import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { errorCode, exchangeRaw, parseResponses, type RawResponse } from './raw-http.js'

const stop = (server: Server) =>
  new Promise<void>((done) => {
    server.closeAllConnections()
    server.close(() => done())
  })
const portOf = (server: Server) => (server.address() as AddressInfo).port

describe('serve over raw sockets: malformed requests are answered, and the API keeps answering', () => {
  // No limits: every case below is followed by a balance request at the same virtual instant.
  const sim = createSimulator({ seed: 3, limits: false })
  const key = sim.platform.secretKey.test
  let server: Server
  let port = 0
  beforeAll(async () => {
    server = await startHttpServer(sim, { port: 0, adminToken: 'raw-socket-suite' })
    port = portOf(server)
  })
  afterAll(() => stop(server))

  afterEach(async () => {
    const balance = await fetch(`http://127.0.0.1:${port}/v1/balance`, { headers: { Authorization: `Bearer ${key}` } })
    expect(balance.status).toBe(200)
  })

  /** Sends `head` (lines joined by CRLF, ended by an empty line) and returns the one response. */
  const send = async (lines: readonly string[], body = ''): Promise<RawResponse & { closed: boolean }> => {
    const { text, closedByServer } = await exchangeRaw(port, [`${lines.join('\r\n')}\r\n\r\n${body}`])
    const [response] = parseResponses(text)
    if (response === undefined) throw new Error(`no response, got ${JSON.stringify(text.slice(0, 200))}`)
    return { ...response, closed: closedByServer }
  }
  const expectRefused = (response: RawResponse, status: number, code: string) => {
    expect(response.status).toBe(status)
    expect(response.headers['content-type']).toBe('application/json')
    expect(errorCode(response.body)).toBe(code)
  }
  const host = () => `Host: 127.0.0.1:${port}`
  const auth = () => `Authorization: Bearer ${key}`

  it('answers a request with Host: a b with 400 and keeps serving', async () => {
    expectRefused(await send(['GET /v1/balance HTTP/1.1', 'Host: a b', auth(), 'Connection: close']), 400, 'host_invalid')
  })

  it('answers a request with Host: [ with 400 and keeps serving', async () => {
    expectRefused(await send(['GET /v1/balance HTTP/1.1', 'Host: [', auth(), 'Connection: close']), 400, 'host_invalid')
  })

  it('answers a request with an empty Host with 400', async () => {
    expectRefused(await send(['GET /v1/balance HTTP/1.1', 'Host: ', auth(), 'Connection: close']), 400, 'host_invalid')
  })

  it('answers an HTTP/1.1 request without Host with 400', async () => {
    expectRefused(await send(['GET /v1/balance HTTP/1.1', auth(), 'Connection: close']), 400, 'host_missing')
  })

  it('answers a request with two Host headers with 400', async () => {
    expectRefused(
      await send(['GET /v1/balance HTTP/1.1', host(), 'Host: evil.example', auth(), 'Connection: close']),
      400,
      'host_invalid',
    )
  })

  it('refuses a foreign Host (DNS rebinding) with 403 on the service API', async () => {
    expectRefused(
      await send(['GET /v1/balance HTTP/1.1', 'Host: evil.example:12111', auth(), 'Connection: close']),
      403,
      'host_not_allowed',
    )
  })

  it('serves an absolute-form target from its path, checking its authority instead of Host', async () => {
    const served = await send([`GET http://127.0.0.1:${port}/v1/balance HTTP/1.1`, host(), auth(), 'Connection: close'])
    expect(served.status).toBe(200)
    expect((JSON.parse(served.body) as { object: string }).object).toBe('balance')
    expectRefused(
      await send(['GET http://evil.example/v1/balance HTTP/1.1', host(), auth(), 'Connection: close']),
      403,
      'host_not_allowed',
    )
    expectRefused(
      await send([`GET https://127.0.0.1:${port}/v1/balance HTTP/1.1`, host(), auth(), 'Connection: close']),
      400,
      'request_target_invalid',
    )
  })

  it('answers OPTIONS * with 400', async () => {
    expectRefused(await send(['OPTIONS * HTTP/1.1', host(), 'Connection: close']), 400, 'request_target_invalid')
  })

  it('treats a target of //evil.example/... as a path on its own origin, never as a host', async () => {
    const response = await send(['GET //evil.example/v1/balance HTTP/1.1', host(), auth(), 'Connection: close'])
    expect(response.status).toBe(404)
    expect(errorCode(response.body)).toBeDefined()
  })

  it('answers CONNECT with 405 and closes: it is not a proxy', async () => {
    const response = await send(['CONNECT example.com:443 HTTP/1.1', 'Host: example.com:443'])
    expectRefused(response, 405, 'method_not_allowed')
    expect(response.closed).toBe(true)
  })

  it('answers TRACE with 405', async () => {
    expectRefused(await send(['TRACE /v1/balance HTTP/1.1', host(), 'Connection: close']), 405, 'method_not_allowed')
  })

  it('answers a garbage request line with 400 and closes', async () => {
    const response = await send(['HELLO THERE'])
    expectRefused(response, 400, 'request_malformed')
    expect(response.closed).toBe(true)
  })

  it('answers a header name with a space or a control byte in its value with 400', async () => {
    expectRefused(await send(['GET /v1/balance HTTP/1.1', host(), 'Bad Header: x']), 400, 'request_malformed')
    expectRefused(await send(['GET /v1/balance HTTP/1.1', host(), 'X-Bad: a\x01b']), 400, 'request_malformed')
  })

  it('answers a header with a NUL byte with 400', async () => {
    expectRefused(await send(['GET /v1/balance HTTP/1.1', host(), 'X-Nul: a\x00b']), 400, 'request_malformed')
  })

  it('answers headers over 16 KiB with 431', async () => {
    expectRefused(await send(['GET /v1/balance HTTP/1.1', host(), `X-Big: ${'a'.repeat(20 * 1024)}`]), 431, 'headers_too_large')
  })

  it('answers a bad or doubled Content-Length with 400', async () => {
    expectRefused(
      await send(['POST /v1/customers HTTP/1.1', host(), auth(), 'Content-Length: abc'], 'x=1'),
      400,
      'request_malformed',
    )
    expectRefused(
      await send(['POST /v1/customers HTTP/1.1', host(), auth(), 'Content-Length: 3', 'Content-Length: 4'], 'x=1'),
      400,
      'request_malformed',
    )
  })

  it('answers a chunked body with a bad chunk size with 400', async () => {
    const response = await send(
      ['POST /v1/customers HTTP/1.1', host(), auth(), 'Transfer-Encoding: chunked'],
      'zz\r\nemail=a\r\n0\r\n\r\n',
    )
    expectRefused(response, 400, 'request_malformed')
    expect(response.closed).toBe(true)
  })

  it('answers a body over 1 MiB with 413 and closes the connection', async () => {
    const response = await send(
      [
        'POST /v1/customers HTTP/1.1',
        host(),
        auth(),
        'Content-Type: application/x-www-form-urlencoded',
        'Content-Length: 2000000',
      ],
      'email=a',
    )
    expectRefused(response, 413, 'body_too_large')
    expect(response.closed).toBe(true)
  })

  it('serves HTTP/1.0, which needs no Host', async () => {
    const response = await send(['GET /v1/balance HTTP/1.0', auth()])
    expect(response.status).toBe(200)
    expect(response.closed).toBe(true)
  })

  it('answers pipelined requests in order, a refused one between them', async () => {
    const request = (extra: string[]) => `${['GET /v1/balance HTTP/1.1', auth(), ...extra].join('\r\n')}\r\n\r\n`
    const { text } = await exchangeRaw(port, [
      request([host()]) + request(['Host: evil.example']) + request([host(), 'Connection: close']),
    ])
    expect(parseResponses(text).map((r) => r.status)).toEqual([200, 403, 200])
  })

  it('answers a good request pipelined before a garbage one, then 400 for the garbage', async () => {
    const good = `${['GET /v1/balance HTTP/1.1', host(), auth()].join('\r\n')}\r\n\r\n`
    const { text, closedByServer } = await exchangeRaw(port, [`${good}HELLO THERE\r\n\r\n`])
    const responses = parseResponses(text)
    expect(responses.map((r) => r.status)).toEqual([200, 400])
    expect(errorCode(responses[1]?.body ?? '')).toBe('request_malformed')
    expect(closedByServer).toBe(true)
  })

  it('serves a request asking for a protocol upgrade as a plain request', async () => {
    const head = ['GET /v1/balance HTTP/1.1', host(), auth(), 'Connection: Upgrade', 'Upgrade: websocket']
    // No `Connection: close` possible here: the connection stays open, so read for a bounded time.
    const { text } = await exchangeRaw(port, [`${head.join('\r\n')}\r\n\r\n`], 500)
    expect(parseResponses(text)[0]?.status).toBe(200)
  })

  it('keeps serving others while a slowloris client holds half its headers', async () => {
    const slow = exchangeRaw(port, [`GET /v1/balance HTTP/1.1\r\n${host()}\r\nX-Half: `], 1_000)
    const balance = await fetch(`http://127.0.0.1:${port}/v1/balance`, { headers: { Authorization: `Bearer ${key}` } })
    expect(balance.status).toBe(200)
    await slow
  })
})

describe('serve timeouts', () => {
  it('answers a slowloris client 408 and closes once the headers timeout passes', async () => {
    const sim = createSimulator({ seed: 3, limits: false })
    const server = await startHttpServer(sim, {
      port: 0,
      adminToken: null,
      timeouts: { headersMs: 200, requestMs: 1_000, keepAliveMs: 200 },
    })
    try {
      const { text, closedByServer } = await exchangeRaw(
        portOf(server),
        [`GET /v1/balance HTTP/1.1\r\nHost: localhost\r\nX-Half: `],
        5_000,
      )
      expect(closedByServer).toBe(true)
      const [response] = parseResponses(text)
      expect(response?.status).toBe(408)
      expect(errorCode(response?.body ?? '')).toBe('request_timeout')
      const balance = await fetch(`http://127.0.0.1:${portOf(server)}/v1/balance`, {
        headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` },
      })
      expect(balance.status).toBe(200)
    } finally {
      await stop(server)
    }
  })

  it('sets the default timeouts on the server: 10 s headers, 30 s request, 5 s keep-alive', async () => {
    const server = await startHttpServer(createSimulator({ seed: 1 }), { port: 0, adminToken: null })
    try {
      expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([10_000, 30_000, 5_000])
    } finally {
      await stop(server)
    }
  })
})
