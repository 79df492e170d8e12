import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, describe, expect, it } from 'vitest'
import { startServeCli } from '../cli/serve-cli.js'
import { startOneSecretApp } from './one-secret-app.js'

const running: { stop: () => Promise<unknown> }[] = []
afterAll(async () => {
  for (const r of running.reverse()) await r.stop()
})

async function within(ms: number, check: () => Promise<boolean> | boolean): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 25))
  }
  return check()
}

const bodyOf = (req: IncomingMessage): Promise<Record<string, string>> =>
  new Promise((done) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => done(chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString('utf8'))))
  })

/**
 * The server half of the provider's usage-based subscriptions sample, shaped as it is written:
 * one route per step, each a call of the official client, answering JSON to its browser page.
 */
async function startUsageApp(stripe: Stripe, publishableKey: string) {
  const routes: Record<string, (b: Record<string, string>) => Promise<unknown>> = {
    '/config': async () => ({ publishableKey }),
    '/create-customer': async (b) => ({ customer: await stripe.customers.create({ name: b.name, email: b.email }) }),
    '/create-meter': async (b) => ({
      meter: await stripe.billing.meters.create({
        display_name: b.displayName as string,
        event_name: b.eventName as string,
        default_aggregation: { formula: 'sum' },
      }),
    }),
    '/create-price': async (b) => ({
      price: await stripe.prices.create({
        currency: 'usd',
        unit_amount: Number(b.amount),
        recurring: { interval: 'month', meter: b.meterId as string, usage_type: 'metered' },
        product_data: { name: b.productName as string },
      }),
    }),
    '/create-subscription': async (b) => {
      const subscription = await stripe.subscriptions.create({
        customer: b.customerId as string,
        items: [{ price: b.priceId as string }],
        expand: ['pending_setup_intent'],
      })
      const si = subscription.pending_setup_intent as Stripe.SetupIntent | null
      return { subscriptionId: subscription.id, clientSecret: si?.client_secret ?? null }
    },
    '/create-meter-event': async (b) => ({
      meterEvent: await stripe.billing.meterEvents.create({
        event_name: b.eventName as string,
        payload: { value: b.value as string, stripe_customer_id: b.customerId as string },
      }),
    }),
  }
  const server: Server = createServer((req, res) => {
    void bodyOf(req).then(async (b) => {
      const route = routes[req.url ?? '']
      if (route === undefined) return void res.writeHead(404).end()
      try {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(await route(b)))
      } catch (error) {
        res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: (error as Error).message }))
      }
    })
  })
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  running.push({ stop: () => new Promise<void>((done) => server.close(() => done())) })
  return async (path: string, body: Record<string, unknown> = {}): Promise<any> => {
    const r = await fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body) })
    const answer = await r.json()
    if (r.status !== 200) throw new Error(`${path}: ${JSON.stringify(answer)}`)
    return answer
  }
}

describe("the provider's usage-based subscriptions sample, shaped as our own app, against serve", () => {
  it('the browser confirms the pending setup intent, usage is metered, and the cycle invoice is paid with that card', async () => {
    const invoices: { type: string; id: string; billing_reason: string; amount_paid: number }[] = []
    const webhooks = await startOneSecretApp({
      beforeAnswer: async (event) => {
        const object = event.object as { object?: string; id: string; billing_reason: string; amount_paid: number }
        if (object?.object === 'invoice') invoices.push({ type: event.type, ...object })
      },
    })
    running.push({ stop: () => webhooks.close() })
    const served = await startServeCli(['--header-prefix', 'Stripe', '--admin-token', 'none', '--forward-to', webhooks.url])
    running.push(served)
    webhooks.useSecret(/webhook signing secret (whsec_\S+)/.exec(served.out())?.[1] as string)
    const serve = `http://127.0.0.1:${served.port}`
    const stripe = new Stripe(served.key, { host: '127.0.0.1', port: served.port, protocol: 'http', maxNetworkRetries: 0 })
    const app = await startUsageApp(stripe, /publishable key (\S+)/.exec(served.out())?.[1] as string)

    const { publishableKey } = await app('/config')
    const { customer } = await app('/create-customer', { name: 'Jenny Rosen', email: 'jenny@example.com' })
    const { meter } = await app('/create-meter', { displayName: 'API calls', eventName: 'api_calls' })
    const { price } = await app('/create-price', { meterId: meter.id, amount: 5, productName: 'API' })
    const { subscriptionId, clientSecret } = await app('/create-subscription', { customerId: customer.id, priceId: price.id })
    expect(clientSecret).toMatch(/^seti_.+_secret_/)

    // The browser library confirms the setup intent with the publishable key and its client secret.
    const confirm = await fetch(`${serve}/v1/setup_intents/${String(clientSecret).split('_secret_')[0]}/confirm`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_secret: clientSecret, payment_method: 'pm_card_visa' }).toString(),
    })
    expect(confirm.status).toBe(200)
    const sub = await stripe.subscriptions.retrieve(subscriptionId)
    expect(sub).toMatchObject({ status: 'active', pending_setup_intent: null })
    expect(typeof sub.default_payment_method).toBe('string')

    for (const value of ['12', '30']) await app('/create-meter-event', { eventName: 'api_calls', customerId: customer.id, value })
    const jump = await fetch(`${serve}/__sim/clock/advance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ duration: '31d' }),
    })
    expect(jump.status).toBe(200)
    const paidCycle = () => invoices.find((i) => i.type === 'invoice.paid' && i.billing_reason === 'subscription_cycle')
    expect(await within(10_000, () => paidCycle() !== undefined), JSON.stringify(invoices)).toBe(true)
    expect(paidCycle()?.amount_paid).toBe(42 * 5)
    expect(invoices.filter((i) => i.type === 'invoice.payment_failed')).toEqual([])
    expect(webhooks.refused).toEqual([])
  })
})
