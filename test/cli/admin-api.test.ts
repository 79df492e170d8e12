import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { cli } from './run-cli.js'

describe('serve admin API input validation', () => {
  const sim = createSimulator({ seed: 7 })
  const token = 'admin-api-test-token'
  const auth = { Authorization: `Bearer ${token}` }
  let base = ''
  let close: () => Promise<void>
  beforeAll(async () => {
    const server = await startHttpServer(sim, { port: 0, adminToken: token })
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    close = () =>
      new Promise((done) => {
        server.closeAllConnections()
        server.close(() => done())
      })
  })
  afterAll(() => close())

  const post = (path: string, body: string) =>
    fetch(`${base}/__sim${path}`, { method: 'POST', body, headers: { ...auth, 'Content-Type': 'application/json' } })
  const state = async () =>
    (await (await fetch(`${base}/__sim/state`, { headers: auth })).json()) as { now: string; seed: unknown; accounts: unknown[] }

  it('refuses a clock advance that is not a whole number of ms up to ten years with 400, leaving the clock alone', async () => {
    const before = await state()
    for (const body of [
      '{"ms":1e308}',
      '{"ms":-1}',
      '{"ms":1.5}',
      '{"ms":"abc"}',
      '{"duration":"100000d"}',
      '{"ms":1,"x":2}',
      '[1]',
      '{',
    ]) {
      const r = await post('/clock/advance', body)
      expect(r.status, body).toBe(400)
      const envelope = (await r.json()) as { error: { type: string; message: string } }
      expect(envelope.error.type).toBe('invalid_request_error')
    }
    const after = await state()
    expect(after.now).toBe(before.now)
    expect(after.seed).toBe(before.seed)
    expect(after.seed).not.toBeNull()
    expect((await post('/clock/advance', '{"ms":60000}')).status).toBe(200)
    expect((await state()).now).toBe(new Date(Date.parse(before.now) + 60_000).toISOString())
  })

  it('refuses accounts and organisations with wrongly typed fields with 400 and creates nothing', async () => {
    const before = (await state()).accounts.length
    expect((await post('/accounts', '{"email":5}')).status).toBe(400)
    expect((await post('/accounts', '{"emial":"a@b.c"}')).status).toBe(400)
    expect((await post('/organisations', '{"accounts":"acct_1"}')).status).toBe(400)
    const missing = await post('/organisations', '{"accounts":["acct_nope"]}')
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as { error: { param: string } }).error.param).toBe('accounts')
    expect((await fetch(`${base}/__sim/trace?since=-3`, { headers: auth })).status).toBe(400)
    expect((await state()).accounts.length).toBe(before)
    expect((await post('/accounts', '{"email":"a@example.com"}')).status).toBe(200)
  })

  it('answers 413 to a body over 1 MiB, on the admin API and the service, without reading it whole', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024)
    const admin = await post('/accounts', big)
    expect(admin.status).toBe(413)
    expect(((await admin.json()) as { error: { code: string } }).error.code).toBe('body_too_large')
    // A 60 MB upload is declared but never sent: the answer comes from the header alone.
    const status = await new Promise<number | undefined>((done, failed) => {
      const req = request(`${base}/v1/customers`, {
        method: 'POST',
        headers: { 'Content-Length': String(60 * 1024 * 1024), 'Content-Type': 'application/x-www-form-urlencoded' },
      })
      req.on('response', (res) => {
        res.resume()
        done(res.statusCode)
      })
      req.on('error', failed)
      req.write('email=a')
    })
    expect(status).toBe(413)
    // Chunked, no length: stopped once the count passes the limit.
    const chunked = await new Promise<number | undefined>((done, failed) => {
      const req = request(`${base}/v1/customers`, { method: 'POST', headers: { 'Transfer-Encoding': 'chunked' } })
      req.on('response', (res) => {
        res.resume()
        done(res.statusCode)
      })
      req.on('error', failed)
      for (let i = 0; i < 3; i++) req.write(Buffer.alloc(512 * 1024, 120))
    })
    expect(chunked).toBe(413)
  })
})

describe('service-sim serve on a busy port', () => {
  it('exits 2 with a clear message and no stack', async () => {
    const blocker = createServer()
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done))
    const port = (blocker.address() as AddressInfo).port
    try {
      const r = cli(['serve', '--port', String(port)])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`)
      expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+/)
    } finally {
      blocker.close()
    }
  })
})
