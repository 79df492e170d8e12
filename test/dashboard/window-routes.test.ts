import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { call } from '../cli/node-request.js'
import { servedAdmin } from './served-admin.js'

const TOKEN = 'window-routes-suite'

describe("the windows of the dashboard's lists through serve's admin API, counted and filtered on the server", () => {
  const sim = createSimulator({ seed: 46, headerPrefix: 'Stripe', limits: false })
  const served = servedAdmin(sim, TOKEN)
  const admin = served.admin
  const port = () => Number(new URL(served.base).port)

  it('answers the requests newest first, a window by offset and limit, with how many match and how many there are', async () => {
    for (let i = 0; i < 12; i++) await served.stripe.customers.create({ email: `c${i}@example.com` }, { idempotencyKey: `k${i}` })
    await served.stripe.customers.retrieve('cus_missing').catch(() => undefined)
    const all = await admin('GET', '/requests?limit=500')
    expect(all.status).toBe(200)
    expect(all.body.total).toBe(13)
    expect(all.body.count).toBe(13)
    expect(all.body.data[0]).toMatchObject({ method: 'GET', path: '/v1/customers/cus_missing', status: 404 })
    expect(all.body.data[12]).toMatchObject({ method: 'POST', status: 200, idempotency_key: 'k0', account: sim.platform.id })
    expect(all.body.data[12].response_body).toContain('c0@example.com')
    expect(all.body.accounts).toEqual([sim.platform.id])
    const window = await admin('GET', '/requests?offset=3&limit=4')
    expect(window.body.data.map((r: { seq: number }) => r.seq)).toEqual(
      all.body.data.slice(3, 7).map((r: { seq: number }) => r.seq),
    )
    expect(window.body).toMatchObject({ total: 13, count: 13, offset: 3 })
    // A list's rows without their bodies; the one row opened, by its sequence number, with them.
    const light = await admin('GET', '/requests?offset=3&limit=4&bodies=false')
    expect(light.body.data[0]).not.toHaveProperty('response_body')
    expect(light.body.data[0].seq).toBe(window.body.data[0].seq)
    const opened = await admin('GET', `/requests?seq=${all.body.data[12].seq}`)
    expect(opened.body).toMatchObject({ total: 1, count: 13 })
    expect(opened.body.data[0].response_body).toContain('c0@example.com')
    // The counts alone: what a page reads when the live stream says something changed.
    expect((await admin('GET', '/requests?limit=0')).body).toMatchObject({ total: 13, data: [] })
    // Past the end: an empty window, the counts still right.
    expect((await admin('GET', '/requests?offset=100')).body).toMatchObject({ total: 13, data: [] })
  })

  it('filters the requests by status class or code, by text in the path and by account, counting only those that match', async () => {
    const failed = await admin('GET', '/requests?status=4xx')
    expect(failed.body.total).toBe(1)
    expect(failed.body.count).toBe(13)
    expect((await admin('GET', '/requests?status=404')).body.total).toBe(1)
    expect((await admin('GET', '/requests?status=2xx&limit=5&offset=10')).body).toMatchObject({ total: 12, offset: 10 })
    expect((await admin('GET', '/requests?path=cus_missing')).body.total).toBe(1)
    expect((await admin('GET', `/requests?account=${sim.platform.id}&status=2xx`)).body.total).toBe(12)
    expect((await admin('GET', '/requests?account=acct_nobody')).body.total).toBe(0)
  })

  it('answers the events newest first, each with how its deliveries stand, filtered by type and by delivery status', async () => {
    await served.stripe.webhookEndpoints.create({ url: 'http://127.0.0.1:9/down', enabled_events: ['customer.updated'] })
    const [first] = (await served.stripe.customers.list({ limit: 1 })).data
    await served.stripe.customers.update(first?.id ?? '', { name: 'Jenny' })
    await admin('POST', '/clock/advance', { duration: '1s' })
    const all = await admin('GET', '/events/window')
    expect(all.status).toBe(200)
    expect(all.body).toMatchObject({ total: 13, count: 13, offset: 0 })
    expect(all.body.data[0]).toMatchObject({ type: 'customer.updated' })
    expect(all.body.data[0].deliveries).toEqual([
      expect.objectContaining({ status: 'Pending', attempts: 1, last_status: null, url: 'http://127.0.0.1:9/down' }),
    ])
    expect(all.body.data[0].deliveries[0].next_attempt_at).toMatch(/^\d{4}-/)
    expect(all.body.data[1]).toMatchObject({ type: 'customer.created', deliveries: [] })
    expect((await admin('GET', '/events/window?type=customer.created&offset=10')).body).toMatchObject({ total: 12 })
    const pending = await admin('GET', '/events/window?delivery_status=Pending')
    expect(pending.body.total).toBe(1)
    expect(pending.body.data[0].id).toBe(all.body.data[0].id)
    expect((await admin('GET', '/events/window?delivery_status=Delivered')).body.total).toBe(0)
  })

  it('refuses a bad window or filter with 400 in the error envelope, naming the parameter', async () => {
    const cases: [string, string][] = [
      ['/requests?offset=-1', 'offset'],
      ['/requests?offset=x', 'offset'],
      ['/requests?limit=501', 'limit'],
      ['/requests?limit=2.5', 'limit'],
      ['/requests?status=abc', 'status'],
      ['/requests?seq=-2', 'seq'],
      ['/requests?bodies=no', 'bodies'],
      ['/events/window?limit=-3', 'limit'],
      ['/events/window?delivery_status=Lost', 'delivery_status'],
    ]
    for (const [path, param] of cases) {
      const answer = await admin('GET', path)
      expect(answer.status, path).toBe(400)
      expect(answer.body.error, path).toMatchObject({ type: 'invalid_request_error', param })
    }
    const unknown = await admin('GET', '/requests?sort=asc')
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.message).toContain('sort')
  })

  it("is behind the admin token and the Host and Origin checks, on the admin path as on the dashboard's", async () => {
    for (const path of [
      '/__sim/requests',
      '/__sim/events/window',
      '/__dashboard/api/requests',
      '/__dashboard/api/events/window',
    ]) {
      expect((await call(port(), path)).status, path).toBe(401)
      const bearer = { Authorization: `Bearer ${TOKEN}` }
      expect((await call(port(), path, { headers: bearer })).status, path).toBe(200)
      expect((await call(port(), path, { headers: { ...bearer, Origin: 'https://evil.example' } })).status, path).toBe(403)
      expect((await call(port(), path, { headers: { ...bearer, Host: `evil.example:${port()}` } })).status, path).toBe(403)
    }
  })

  it("does not record the dashboard's window reads in the trace, so reading them on each change wakes nothing", async () => {
    const before = sim.trace.length
    const bearer = { Authorization: `Bearer ${TOKEN}` }
    expect((await call(port(), '/__dashboard/api/requests?status=2xx', { headers: bearer })).status).toBe(200)
    expect((await call(port(), '/__dashboard/api/events/window', { headers: bearer })).status).toBe(200)
    expect(sim.trace.length).toBe(before)
  })
})
