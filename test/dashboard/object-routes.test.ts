import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { customerWithEverything } from './customer-with-everything.js'

const TOKEN = 'object-routes-suite'
type Obj = { id: string; object: string }

describe("inspecting stored objects through serve's admin API, as the Objects page does", () => {
  const sim = createSimulator({ seed: 44, headerPrefix: 'Stripe', limits: false })
  let server: SimServer
  let base = ''
  let stripe: Stripe
  let made: Awaited<ReturnType<typeof customerWithEverything>>
  const admin = async (path: string) => {
    const res = await fetch(`${base}/__sim${path}`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    return { status: res.status, body: (await res.json()) as Record<string, any> }
  }

  beforeAll(async () => {
    server = await startHttpServer(sim, { adminToken: TOKEN })
    const port = (server.address() as AddressInfo).port
    base = `http://127.0.0.1:${port}`
    stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
    made = await customerWithEverything(stripe)
    await sim.settle()
  })
  afterAll(async () => {
    server?.closeAllConnections()
    await new Promise((done) => server?.close(done))
  })

  it('finds an object by its id in any account and mode, and customers by a part of their email', async () => {
    const byId = await admin(`/objects?q=${made.refund.id}`)
    expect(byId.body.data).toEqual([
      expect.objectContaining({ id: made.refund.id, object: 'refund', account: sim.platform.id, mode: 'test' }),
    ])
    const byEmail = await admin('/objects?q=JENNY.ROSEN')
    expect(byEmail.body.data.map((m: Obj) => m.id)).toEqual([made.customer.id])
    expect((await admin('/objects?q=nobody@example.com')).body.data).toEqual([])
    expect((await admin('/objects?q=')).status).toBe(400)
  })

  it('shows a customer with its payment methods, subscriptions, invoices with lines, payments, refunds, disputes and balance transactions', async () => {
    const { status, body } = await admin(`/objects/${made.customer.id}`)
    expect(status).toBe(200)
    const ids = (kind: string) => (body.related[kind] as Obj[]).map((o) => o.id)
    expect(ids('payment_method')).toContain(made.card.id)
    expect(ids('subscription')).toEqual([made.subscription.id])
    expect(ids('invoice')).toEqual([made.subscription.latest_invoice])
    expect(body.related.invoice[0].lines.data[0].description).toContain('Pro')
    expect(ids('payment_intent')).toEqual(expect.arrayContaining([made.disputed.id, made.paid.id]))
    expect(ids('refund')).toEqual([made.refund.id])
    expect(body.related.dispute).toHaveLength(1)
    expect(body.related.dispute[0].payment_intent).toBe(made.disputed.id)
    // The payments, the refund and the dispute each moved the balance.
    const sources = (body.related.balance_transaction as { source: string }[]).map((t) => t.source)
    expect(sources).toEqual(expect.arrayContaining([made.refund.id, body.related.dispute[0].id]))
  })

  it("shows a test clock with its customers, their subscriptions and invoices, and an account's view", async () => {
    const clock = await admin(`/objects/${made.clock.id}`)
    expect(clock.body.related.customer.map((o: Obj) => o.id)).toEqual([made.customer.id])
    expect(clock.body.related.subscription.map((o: Obj) => o.id)).toEqual([made.subscription.id])
    const connected = sim.admin.createAccount({ email: 'shop@example.com' })
    await stripe.customers.create({ email: 'buyer@shop.example' }, { stripeAccount: connected.id })
    const view = await admin(`/objects/${connected.id}`)
    expect(view.body.object).toMatchObject({ id: connected.id, platform: sim.platform.id })
    expect(view.body.object.modes.test.counts.customer).toBe(1)
    expect((await admin(`/objects/${sim.platform.id}`)).body.object.connected).toContain(connected.id)
    expect((await admin('/objects/cus_nothing123')).status).toBe(404)
  })
})
