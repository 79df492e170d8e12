import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { call } from './node-request.js'

/**
 * Outside in (issue 17): the official client over serve's HTTP, then the admin API's billing route
 * and its refusals through HTTP.
 */
describe('serve: GET /__sim/billing/usage over HTTP after billing through the official client', () => {
  const token = 'billing-usage-suite'
  const sim = createSimulator({ seed: 17, headerPrefix: 'Stripe', limits: false, start: '2026-01-31T00:00:00.000Z' })
  let server: SimServer
  let port = 0
  const admin = async (path: string, method = 'GET') => {
    const a = await call(port, `/__sim${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(method === 'GET' ? {} : { 'Content-Type': 'application/json' }) },
      ...(method === 'GET' ? {} : { body: '{}' }),
    })
    return { status: a.status, body: JSON.parse(a.body) as any }
  }

  beforeAll(async () => {
    server = await startHttpServer(sim, { port: 0, adminToken: token })
    port = (server.address() as AddressInfo).port
  })
  afterAll(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  )

  it('shows the processed usage of a period and the invoice line that billed it', async () => {
    const stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
    const customer = await stripe.customers.create({ email: 'usage@example.com' })
    const pm = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id })
    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } })
    const meter = await stripe.billing.meters.create({
      display_name: 'Calls',
      event_name: 'call',
      default_aggregation: { formula: 'sum' },
    })
    const product = await stripe.products.create({ name: 'API' })
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 3,
      recurring: { interval: 'month', usage_type: 'metered', meter: meter.id },
    })
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    await stripe.billing.meterEvents.create({ event_name: 'call', payload: { stripe_customer_id: customer.id, value: '40' } })
    expect((await admin('/clock/advance', 'POST')).status).toBe(400) // {} is not an advance
    const advanced = await call(port, '/__sim/clock/advance', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ms: Date.UTC(2026, 1, 28, 1) - sim.clock.now }),
    })
    expect(advanced.status).toBe(200)

    const usage = await admin(`/billing/usage?customer=${customer.id}&meter=${meter.id}`)
    expect(usage.status).toBe(200)
    const [row] = usage.body.meters
    expect(row).toMatchObject({ meter: meter.id, eventName: 'call', formula: 'sum' })
    const period = row.periods.find((p: any) => p.start === Date.UTC(2026, 0, 31))
    expect(period).toMatchObject({ end: Date.UTC(2026, 1, 28), value: 40, sum: 40, count: 1, pendingEvents: 0 })
    const [invoice] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data
    expect(invoice).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_paid: 120 })
    expect(period.invoices).toContainEqual(expect.objectContaining({ invoice: invoice?.id, quantity: 40, amount: 120 }))
  })

  it('refuses a missing, empty or repeated customer, an unknown meter or account, a bad mode and a stray parameter in the envelope', async () => {
    const cases: [string, number, string][] = [
      ['/billing/usage', 400, 'parameter_invalid'],
      ['/billing/usage?customer=', 400, 'parameter_invalid'],
      ['/billing/usage?customer=a&customer=b', 400, 'parameter_invalid'],
      ['/billing/usage?customer=cus_1&meter=mtr_nope', 404, 'resource_missing'],
      ['/billing/usage?customer=cus_1&account=acct_nope', 400, 'parameter_invalid'],
      ['/billing/usage?customer=cus_1&mode=sandbox', 400, 'parameter_invalid'],
      ['/billing/usage?customer=cus_1&junk=1', 400, 'parameter_invalid'],
    ]
    for (const [path, status, code] of cases) {
      const a = await admin(path)
      expect([path, a.status, a.body.error?.code, a.body.error?.type]).toEqual([path, status, code, 'invalid_request_error'])
    }
  })

  it('answers another method on it 405 even with a query string (the query was blamed with 400)', async () => {
    const a = await admin('/billing/usage?customer=cus_1', 'POST')
    expect([a.status, a.body.error.code]).toEqual([405, 'method_not_allowed'])
    const b = await admin('/state?x=1', 'POST')
    expect([b.status, b.body.error.code]).toEqual([405, 'method_not_allowed'])
    // A known write route still refuses a query with 400.
    const c = await admin('/settle?x=1', 'POST')
    expect([c.status, c.body.error.code]).toEqual([400, 'parameter_invalid'])
  })

  it('refuses a receiver fault naming an unknown destination id with 404, arming nothing (a typo armed nothing, silently)', async () => {
    const post = (body: unknown) =>
      call(port, '/__sim/faults/inject', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
    const before = JSON.parse((await call(port, '/__sim/faults', { headers: { Authorization: `Bearer ${token}` } })).body)
    const refused = await post({ fault: 'receiver_down', receiver: 'ed_typo' })
    expect([refused.status, JSON.parse(refused.body).error]).toEqual([
      404,
      expect.objectContaining({ type: 'invalid_request_error', code: 'resource_missing', param: 'receiver' }),
    ])
    const after = JSON.parse((await call(port, '/__sim/faults', { headers: { Authorization: `Bearer ${token}` } })).body)
    expect(after.fired).toEqual(before.fired)
    // A URL and "every destination" are still taken as given.
    expect((await post({ fault: 'receiver_down', receiver: 'http://127.0.0.1:9/hook', delay: '1s' })).status).toBe(200)
    expect((await post({ fault: 'receiver_up' })).status).toBe(200)
  })
})
