import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { adminOpenApiText } from '../../src/cli/admin/openapi.js'
import { ADMIN_ROUTES } from '../../src/cli/admin-api.js'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { setUpForwarding } from '../../src/cli/serve-forwarding.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { call } from './node-request.js'
import { ROOT } from './run-cli.js'

const RECEIVER = 'http://127.0.0.1:9/receiver'
const token = 'admin-routes-suite'
const auth = { Authorization: `Bearer ${token}` }
const jsonAuth = { ...auth, 'Content-Type': 'application/json' }

describe('serve admin API routes over HTTP', () => {
  const sim = createSimulator({ seed: 5 })
  let server: SimServer
  let port = 0
  const get = async (path: string) => {
    const a = await call(port, `/__sim${path}`, { headers: auth })
    return { status: a.status, body: JSON.parse(a.body) as any }
  }
  const post = async (path: string, body: unknown) => {
    const a = await call(port, `/__sim${path}`, {
      method: 'POST',
      headers: jsonAuth,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
    return { status: a.status, body: JSON.parse(a.body) as any }
  }
  const service = (path: string, method = 'GET', body?: string) =>
    call(port, path, {
      method,
      headers: {
        Authorization: `Bearer ${server.host.sim.platform.secretKey.test}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
      },
      ...(body === undefined ? {} : { body }),
    })

  beforeAll(async () => {
    server = await startHttpServer(sim, {
      port: 0,
      adminToken: token,
      rebuild: () => {
        const fresh = createSimulator({ seed: 5 })
        setUpForwarding(fresh, { url: RECEIVER, events: ['*'] })
        return fresh
      },
    })
    port = (server.address() as AddressInfo).port
    setUpForwarding(sim, { url: RECEIVER, events: ['*'] })
  })
  afterAll(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  )

  it('GET /state names the clock mode and the header prefix; refuses a query', async () => {
    const s = await get('/state')
    expect(s.status).toBe(200)
    expect(s.body).toMatchObject({ header_prefix: 'Service', clock: { mode: 'manual' }, seed: '5' })
    expect((await get('/state?x=1')).status).toBe(400)
  })

  it('POST /accounts and /organisations create, and refuse bad input', async () => {
    const a = await post('/accounts', { email: 'shop@example.com' })
    expect(a.status).toBe(200)
    expect(a.body.id).toMatch(/^acct_/)
    expect((await post('/accounts', { email: 5 })).status).toBe(400)
    const org = await post('/organisations', { accounts: [sim.platform.id, a.body.id] })
    expect(org.status).toBe(200)
    expect((await post('/organisations', { accounts: ['acct_nope'] })).body.error.param).toBe('accounts')
  })

  it('POST /meters and GET /meters/summary give a meter and its processed usage', async () => {
    const m = await post('/meters', { event_name: 'api_call', formula: 'sum' })
    expect(m.status).toBe(200)
    expect(m.body.id).toMatch(/^mtr_/)
    for (const bad of [{}, { event_name: '' }, { event_name: 'x', formula: 'avg' }, { event_name: 'x', account: 'acct_nope' }])
      expect((await post('/meters', bad)).status, JSON.stringify(bad)).toBe(400)
    const s = await get(`/meters/summary?meter=${m.body.id}&customer=cus_1`)
    expect(s.status).toBe(200)
    expect(s.body).toMatchObject({ meter: m.body.id, customer: 'cus_1', formula: 'sum', value: 0 })
    expect((await get('/meters/summary?meter=mtr_nope&customer=cus_1')).status).toBe(404)
    expect((await get(`/meters/summary?meter=${m.body.id}`)).status).toBe(400)
    expect((await get(`/meters/summary?meter=${m.body.id}&customer=c&start=soon`)).status).toBe(400)
    expect((await get(`/meters/summary?meter=${m.body.id}&customer=c&bogus=1`)).status).toBe(400)
  })

  it('POST /events/trigger emits an event that GET /events lists and GET /deliveries follows, attempt by attempt', async () => {
    const t = await post('/events/trigger', { type: 'invoice.paid', object: { amount_paid: 700 } })
    expect(t.status).toBe(200)
    expect(t.body).toMatchObject({ type: 'invoice.paid', kind: 'snapshot', body: { data: { object: { amount_paid: 700 } } } })
    for (const bad of [
      { type: 'Not A Type' },
      { type: 'invoice.paid', account: 'acct_nope' },
      { type: 'invoice.paid', x: 1 },
      {},
    ])
      expect((await post('/events/trigger', bad)).status, JSON.stringify(bad)).toBe(400)
    expect((await get('/events')).body.data.map((e: { id: string }) => e.id)).toContain(t.body.id)
    expect((await post('/settle', {})).status).toBe(200)
    const d = await get(`/deliveries?event=${t.body.id}`)
    expect(d.status).toBe(200)
    const [delivery] = d.body.data
    // Nothing listens at the forwarding URL: a connection failure, and a retry scheduled.
    expect(delivery).toMatchObject({
      event: t.body.id,
      status: 'Pending',
      attempts: [{ outcome: 'connect_error', status: null }],
    })
    expect(Date.parse(delivery.next_attempt_at)).toBeGreaterThan(Date.parse(delivery.attempts[0].at))
    expect((await get('/deliveries?status=Nope')).status).toBe(400)
    expect((await get('/deliveries?event=a&event=b')).status).toBe(400)
  })

  it('POST /deliveries/resend sends again (delivered once a receiver answers); refuses unknown ids', async () => {
    const t = await post('/events/trigger', { type: 'customer.created' })
    await post('/settle', {})
    const [destination] = (await get('/destinations')).body.data
    expect(destination).toMatchObject({ url: RECEIVER, event_payload: 'snapshot', enabled_events: ['*'] })
    expect(destination.signing_secrets[0]).toMatch(/^whsec_/)
    sim.receivers.mount(RECEIVER, () => new Response(null, { status: 200 }))
    const r = await post('/deliveries/resend', { event: t.body.id, destination: destination.id })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ trigger: 'dashboard', outcome: 'delivered', status: 200 })
    expect((await post('/deliveries/resend', { event: 'evt_nope', destination: destination.id })).status).toBe(404)
    expect((await post('/deliveries/resend', { event: t.body.id, destination: destination.id, via: 'api' })).status).toBe(400)
    expect(
      (await get(`/deliveries?event=${t.body.id}`)).body.data[0].attempts.map((a: { trigger: string }) => a.trigger),
    ).toEqual(['automatic', 'dashboard'])
  })

  it('faults: inject one, set rates at run time, clear them; receiver faults act on a destination', async () => {
    expect((await get('/faults')).body).toMatchObject({ rates: {}, fired: {} })
    expect((await post('/faults/inject', { fault: 'lock_timeout' })).status).toBe(200)
    const locked = await service('/v1/customers', 'POST', 'email=a%40b.c')
    expect(locked.status).toBe(429)
    expect(JSON.parse(locked.body).error.code).toBe('lock_timeout')
    expect((await service('/v1/customers', 'POST', 'email=a%40b.c')).status).toBe(200)

    const storm = await post('/faults/rates', { rates: { rate_limit: 1 } })
    expect(storm.body.rates).toEqual({ rate_limit: 1 })
    const limited = await service('/v1/balance')
    expect(limited.status).toBe(429)
    expect(limited.headers['service-rate-limited-reason']).toBeDefined()
    for (const bad of [{ rates: { rate_limit: 2 } }, { rates: { nope: 0.5 } }, { rate_limit: 1 }])
      expect((await post('/faults/rates', bad)).status, JSON.stringify(bad)).toBe(400)
    expect((await post('/faults/rates', { rates: { duplicate_delivery: 1 } })).status).toBe(200)
    expect(sim.admin.deliveryFaults.duplicateRate).toBe(1)
    const cleared = await post('/faults/clear', {})
    expect(cleared.body.rates).toEqual({})
    expect(sim.admin.deliveryFaults.duplicateRate).toBe(0)
    expect((await service('/v1/balance')).status).toBe(200)
    expect((await get('/faults')).body.fired).toMatchObject({ lock_timeout: 1 })

    const [destination] = (await get('/destinations')).body.data
    expect((await post('/faults/inject', { fault: 'receiver_down', receiver: destination.id })).status).toBe(200)
    const t = await post('/events/trigger', { type: 'charge.created' })
    await post('/settle', {})
    expect((await get(`/deliveries?event=${t.body.id}`)).body.data[0].attempts[0]).toMatchObject({ outcome: 'connect_error' })
    await post('/faults/inject', { fault: 'receiver_up', receiver: destination.id })
    const again = await post('/deliveries/resend', { event: t.body.id, destination: destination.id })
    expect(again.body.outcome).toBe('delivered')
    for (const bad of [{ fault: 'nope' }, { fault: 'rate_limit', reason: 'too-fast' }, { fault: 'lock_timeout', step: 2 }])
      expect((await post('/faults/inject', bad)).status, JSON.stringify(bad)).toBe(400)
    const formerName = await post('/faults/inject', { fault: 'server_error', operation: 'payment_intents.create' })
    expect(formerName.status).toBe(400)
    expect(JSON.stringify(formerName.body)).toContain("did you mean 'paymentIntents.create'?")
  })

  it('POST /faults/inject lets the first `after` matching requests through, and refuses a bad after naming it', async () => {
    expect((await post('/faults/inject', { fault: 'server_error', operation: 'balance.', after: 1 })).status).toBe(200)
    expect((await service('/v1/balance')).status).toBe(200)
    expect((await service('/v1/balance')).status).toBe(500)
    expect((await service('/v1/balance')).status).toBe(200)
    const bad: [unknown, string][] = [
      [{ fault: 'server_error', after: -1 }, 'must be 0 or more'],
      [{ fault: 'server_error', after: 0.5 }, 'must be a whole number of matching requests to let through'],
      [{ fault: 'server_error', after: 1e15 }, 'must be at most 1000000'],
      [
        { fault: 'delay_delivery', after: 1 },
        "applies to request faults only (rate_limit, lock_timeout, concurrent_conflict, server_error, indeterminate), not 'delay_delivery'",
      ],
    ]
    for (const [body, says] of bad) {
      const r = await post('/faults/inject', body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.error.param, JSON.stringify(body)).toBe('after')
      expect(r.body.error.message, JSON.stringify(body)).toContain(says)
    }
  })

  it('POST /clock/advance and /settle move virtual time; GET /trace has a serve.request per served request', async () => {
    const before = Date.parse((await get('/state')).body.now)
    const moved = await post('/clock/advance', { duration: '1h' })
    expect(Date.parse(moved.body.now)).toBe(before + 3_600_000)
    expect((await post('/settle', '{"x":1}')).status).toBe(400)
    const trace = await call(port, '/__sim/trace?since=0', { headers: auth })
    const arrivals = trace.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.kind === 'serve.request')
    expect(arrivals.length).toBeGreaterThan(10)
    expect(arrivals[0].data).toMatchObject({ method: expect.any(String), wall: expect.stringMatching(/Z$/) })
    // The admin token never enters the trace.
    expect(trace.body).not.toContain(token)
    expect((await get('/trace?since=-1')).status).toBe(400)
    expect((await get('/trace?from=1')).status).toBe(400)
  })

  it('unknown routes answer 404, known paths with another method 405, in the envelope', async () => {
    expect((await get('/nope')).body.error.code).toBe('resource_missing')
    const wrong = await call(port, '/__sim/faults/clear', { headers: auth })
    expect(wrong.status).toBe(405)
    expect((await post('/state', {})).status).toBe(405)
  })

  it('every route keeps the protections: token, Host, Origin, JSON-only writes', async () => {
    for (const route of ADMIN_ROUTES) {
      const [method, path] = route.split(' ') as [string, string]
      const target = `/__sim${path}`
      expect((await call(port, target, { method })).status, route).toBe(401)
      expect((await call(port, target, { method, headers: { ...auth, Host: 'evil.example' } })).status, route).toBe(403)
      expect((await call(port, target, { method, headers: { ...auth, Origin: 'https://evil.example' } })).status, route).toBe(403)
      if (method === 'POST')
        expect(
          (await call(port, target, { method, headers: { ...auth, 'Content-Type': 'text/plain' }, body: '{}' })).status,
          route,
        ).toBe(415)
    }
  })

  it('POST /reset serves a fresh simulator (same token and port) built by the same options', async () => {
    const before = (await get('/state')).body
    const r = await post('/reset', {})
    expect(r.status).toBe(200)
    const after = (await get('/state')).body
    expect(after.accounts).toHaveLength(1)
    expect(after.trace.length).toBeLessThan(before.trace.length)
    expect((await get('/events')).body.data).toEqual([])
    expect((await get('/destinations')).body.data).toHaveLength(1)
    expect((await post('/reset', { hard: true })).status).toBe(400)
    expect(server.host.sim).not.toBe(sim)
  })
})

describe('docs/admin-api.openapi.yaml', () => {
  it('documents exactly the routes the admin API serves', () => {
    const doc = parse(readFileSync(`${ROOT}docs/admin-api.openapi.yaml`, 'utf8')) as {
      openapi: string
      paths: Record<string, Record<string, unknown>>
    }
    expect(doc.openapi).toMatch(/^3\.1\./)
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k))
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    expect([...documented].sort()).toEqual([...ADMIN_ROUTES].sort())
  })

  it('is the document generated from the route declarations (regenerate with npm run admin-openapi)', () => {
    expect(readFileSync(`${ROOT}docs/admin-api.openapi.yaml`, 'utf8')).toBe(adminOpenApiText())
  })
})
