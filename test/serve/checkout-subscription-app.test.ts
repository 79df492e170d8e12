import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServedCli, startServeCli } from '../cli/serve-cli.js'
import { type OneSecretApp, startOneSecretApp } from './one-secret-app.js'

// An app shaped like the provider's hosted-checkout subscription sample: its client pinned to an
// old version, its prices found by lookup key from a seed, a session paid on the hosted page, then
// the billing portal; its one webhook secret read from the `.env` serve writes.
const SEED = fileURLToPath(new URL('./fixtures/checkout-subscription-seed.json', import.meta.url))
const VERSION = '2020-08-27'
const EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'invoice.paid',
  'invoice.payment_succeeded',
]

let served: ServedCli
let app: OneSecretApp
let stripe: Stripe
let base: string
const envFile = join(mkdtempSync(join(tmpdir(), 'checkout-app-')), '.env')

beforeAll(async () => {
  // Node 20 reads an --env-file argument itself and stops when the file is missing (docs/serve.md).
  writeFileSync(envFile, '')
  app = await startOneSecretApp()
  served = await startServeCli([
    '--header-prefix',
    'Stripe',
    '--admin-token',
    'none',
    '--api-version',
    VERSION,
    '--fixtures',
    SEED,
    '--env-file',
    envFile,
    '--forward-to',
    app.url,
    '--events',
    EVENTS.join(','),
  ])
  const env = Object.fromEntries(
    readFileSync(envFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  )
  app.useSecret(env.STRIPE_WEBHOOK_SECRET as string)
  stripe = new Stripe(env.STRIPE_SECRET_KEY as string, {
    apiVersion: VERSION as Stripe.LatestApiVersion,
    host: '127.0.0.1',
    port: served.port,
    protocol: 'http',
    maxNetworkRetries: 0,
  })
  base = `http://127.0.0.1:${served.port}`
})
afterAll(async () => {
  await served.stop()
  await app.close()
})

/** What the page's script posts when the customer clicks a button. */
const pageAction = async (path: string, body: unknown) => {
  const r = await fetch(`${base}/__customer/actions/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: r.status, body: (await r.json()) as Record<string, unknown> }
}

const admin = async (path: string) => ((await (await fetch(`${base}/__sim${path}`)).json()) as { data: any[] }).data

describe('a hosted-checkout subscription app over serve (the sample shape, one secret, an old pinned version)', () => {
  it('subscribes on the hosted page, manages the subscription in the portal, and receives every chosen event verified, once', async () => {
    const prices = await stripe.prices.list({ lookup_keys: ['basic', 'pro'], expand: ['data.product'] })
    expect(prices.data.map((p) => [p.lookup_key, p.unit_amount, (p.product as Stripe.Product).name]).sort()).toEqual([
      ['basic', 1000, 'Basic'],
      ['pro', 2500, 'Pro'],
    ])
    const pro = prices.data.find((p) => p.lookup_key === 'pro') as Stripe.Price
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: pro.id, quantity: 1 }],
      success_url: 'http://localhost:4242/success.html?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:4242/canceled.html',
    })
    // The app redirects the browser to session.url: serve's checkout page, which names the success page.
    const page = await fetch(session.url as string)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(`success.html?session_id=${session.id}`)
    const declined = await pageAction(`checkout/${session.id}/complete`, { payment_method: 'pm_card_chargeDeclined' })
    expect(declined.status).toBe(402)
    const paid = await pageAction(`checkout/${session.id}/complete`, {
      payment_method: 'pm_card_visa',
      email: 'jenny@example.com',
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)

    // The success page's server retrieves the session; the portal button opens a portal session.
    const done = await stripe.checkout.sessions.retrieve(session.id)
    expect(done).toMatchObject({ payment_status: 'paid', amount_total: 2500 })
    const subscription = await stripe.subscriptions.retrieve(done.subscription as string)
    expect(subscription.status).toBe('active')
    const portal = await stripe.billingPortal.sessions.create({
      customer: done.customer as string,
      return_url: 'http://localhost:4242',
    })
    expect((await fetch(portal.url)).status).toBe(200)
    const canceled = await pageAction('portal/cancel_subscription', { session: portal.id, subscription: subscription.id })
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200)
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(true)

    await fetch(`${base}/__sim/settle`, { method: 'POST' })
    const deliveries = await admin('/deliveries')
    const end = Date.now() + 10_000
    while (Date.now() < end && app.verified.length < deliveries.length) await new Promise((r) => setTimeout(r, 25))
    expect(app.refused).toEqual([])
    expect(new Set(app.verified.map((e) => e.type))).toEqual(new Set(EVENTS))
    expect(new Set(app.verified.map((e) => e.id)).size).toBe(app.verified.length)
    expect(deliveries.map((d) => [d.status, d.attempts.length])).toEqual(deliveries.map(() => ['Delivered', 1]))
  })
})
