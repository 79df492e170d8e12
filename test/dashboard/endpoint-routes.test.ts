import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { servedAdmin } from './served-admin.js'

const TOKEN = 'endpoint-routes-suite'

describe("managing webhook endpoints through serve's admin API, as the dashboard does", () => {
  const sim = createSimulator({ seed: 42, headerPrefix: 'Stripe', limits: false })
  const served = servedAdmin(sim, TOKEN)
  const admin = served.admin
  let app: Server
  let appUrl = ''

  beforeAll(async () => {
    app = createServer((req, res) => {
      req.resume()
      req.on('end', () => res.writeHead(500).end('down'))
    })
    await new Promise<void>((ready) => app.listen(0, '127.0.0.1', ready))
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hook`
  })
  afterAll(async () => {
    await new Promise((done) => app?.close(done))
  })

  it("reports each destination's health: attempts, the share that succeeded, pending deliveries and the last failure", async () => {
    const endpoint = await served.stripe.webhookEndpoints.create({ url: appUrl, enabled_events: ['customer.created'] })
    const quiet = await served.stripe.webhookEndpoints.create({ url: `${appUrl}/quiet`, enabled_events: ['invoice.paid'] })
    await served.stripe.customers.create({ email: 'jenny@example.com' })
    expect((await admin('POST', '/clock/advance', { duration: '1s' })).status).toBe(200)
    const { status, body } = await admin('GET', '/destinations/health')
    expect(status).toBe(200)
    const health = body.data.find((h: { destination: string }) => h.destination === endpoint.id)
    expect(health).toMatchObject({ attempts: 1, succeeded: 0, success_ratio: 0, pending: 1 })
    expect(health.last_failure).toMatchObject({ status: 500, outcome: 'http_error' })
    expect(body.data.find((h: { destination: string }) => h.destination === quiet.id)).toMatchObject({
      attempts: 0,
      success_ratio: null,
      last_failure: null,
    })
  })

  it('rolls a signing secret, keeping the old one for the overlap asked for', async () => {
    const [endpoint] = (await served.stripe.webhookEndpoints.list()).data.filter((e) => e.url === appUrl)
    const id = endpoint?.id ?? ''
    const before = (await admin('GET', '/destinations')).body.data.find((d: { id: string }) => d.id === id).signing_secrets
    const rolled = await admin('POST', `/destinations/${id}/roll_secret`, { overlap: '1h' })
    expect(rolled.status).toBe(200)
    expect(rolled.body.signing_secrets).toEqual([rolled.body.secret, ...before])
    const refused = await admin('POST', `/destinations/${id}/roll_secret`, { overlap: '2d' })
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toContain('at most 24h')
    expect((await admin('POST', '/destinations/we_nope/roll_secret', {})).status).toBe(404)
  })

  it('disables and enables a destination through the API call that does it', async () => {
    const [endpoint] = (await served.stripe.webhookEndpoints.list()).data.filter((e) => e.url === appUrl)
    const id = endpoint?.id ?? ''
    const off = await admin('POST', `/destinations/${id}/status`, { status: 'disabled' })
    expect(off.status).toBe(200)
    expect((await served.stripe.webhookEndpoints.retrieve(id)).status).toBe('disabled')
    expect((await admin('GET', '/destinations')).body.data.find((d: { id: string }) => d.id === id).status).toBe('disabled')
    await admin('POST', `/destinations/${id}/status`, { status: 'enabled' })
    expect((await served.stripe.webhookEndpoints.retrieve(id)).status).toBe('enabled')
    expect((await admin('POST', `/destinations/${id}/status`, { status: 'off' })).status).toBe(400)
  })

  it('sends a test ping to one destination only, as an attempt of its own', async () => {
    const endpoints = (await served.stripe.webhookEndpoints.list()).data
    const target = endpoints.find((e) => e.url === appUrl)?.id ?? ''
    const sent = await admin('POST', `/destinations/${target}/test_send`)
    expect(sent.status).toBe(200)
    expect(sent.body.type).toBe('v2.core.event_destination.ping')
    const deliveries = (await admin('GET', `/deliveries?event=${sent.body.id}`)).body.data
    expect(deliveries.map((d: { destination: string }) => d.destination)).toEqual([target])
    expect(deliveries[0].attempts[0]).toMatchObject({ trigger: 'ping', status: 500 })
  })
})
