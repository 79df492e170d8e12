import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServedCli, startServeCli } from '../cli/serve-cli.js'
import { type OneSecretApp, startOneSecretApp } from './one-secret-app.js'

// An app shaped like the provider's fixed-price subscription sample: its client pinned to
// 2022-08-01, a `default_incomplete` subscription whose first invoice's intent the browser confirms
// with the client secret and the publishable key, and a webhook handler that makes the card that
// paid the first invoice the subscription's default; a month later the renewal charges that card.
const SEED = fileURLToPath(new URL('./fixtures/fixed-price-seed.json', import.meta.url))
const VERSION = '2022-08-01'
const EVENTS = [
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'invoice.finalized',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
  'payment_method.attached',
]

/** The fields of a 2022-08-01 answer the sample reads that today's client types no longer name. */
type OldInvoice = Stripe.Invoice & { payment_intent: string | Stripe.PaymentIntent | null; subscription: string | null }

let served: ServedCli
let app: OneSecretApp
let stripe: Stripe
let base: string
let publishableKey: string
const handlerErrors: string[] = []
const defaultsSet: string[] = []
const envFile = join(mkdtempSync(join(tmpdir(), 'fixed-price-app-')), '.env')

/** The sample's handler: on the first invoice paid, the card that paid it becomes the subscription's default. */
async function onEvent(event: { type: string; object?: unknown }): Promise<void> {
  if (event.type !== 'invoice.payment_succeeded') return
  const invoice = event.object as OldInvoice
  if (invoice.billing_reason !== 'subscription_create') return
  try {
    const intent = await stripe.paymentIntents.retrieve(invoice.payment_intent as string)
    await stripe.subscriptions.update(invoice.subscription as string, {
      default_payment_method: intent.payment_method as string,
    })
    defaultsSet.push(intent.payment_method as string)
  } catch (error) {
    handlerErrors.push((error as Error).message)
  }
}

beforeAll(async () => {
  // Node 20 reads an --env-file argument itself and stops when the file is missing (docs/serve.md).
  writeFileSync(envFile, '')
  app = await startOneSecretApp({ beforeAnswer: onEvent })
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
  publishableKey = env.STRIPE_PUBLISHABLE_KEY as string
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

/** What the browser's script sends: the intent confirmed with its client secret and the publishable key. */
async function confirmInBrowser(clientSecret: string, paymentMethod: string) {
  const id = clientSecret.slice(0, clientSecret.indexOf('_secret_'))
  const r = await fetch(`${base}/v1/payment_intents/${id}/confirm`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_secret: clientSecret, payment_method: paymentMethod }).toString(),
  })
  return { status: r.status, body: (await r.json()) as Record<string, unknown> }
}

const admin = async (path: string, body?: unknown) => {
  const r = await fetch(`${base}/__sim${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return (await r.json()) as { data: any[] }
}

/** Waits until the app has answered every delivery recorded so far. */
async function allAnswered(): Promise<any[]> {
  await admin('/settle', {})
  const end = Date.now() + 10_000
  let deliveries = (await admin('/deliveries')).data
  while (Date.now() < end && deliveries.some((d) => d.status !== 'Delivered')) {
    await new Promise((r) => setTimeout(r, 25))
    deliveries = (await admin('/deliveries')).data
  }
  return deliveries
}

describe('a fixed-price subscription app over serve (the sample shape, pinned to 2022-08-01)', () => {
  it('subscribes, pays the first invoice in the browser, saves the card as default from the webhook, upgrades, and renews on that card', async () => {
    const prices = await stripe.prices.list({ lookup_keys: ['starter', 'plus'] })
    const starter = prices.data.find((p) => p.lookup_key === 'starter') as Stripe.Price
    const plus = prices.data.find((p) => p.lookup_key === 'plus') as Stripe.Price
    const customer = await stripe.customers.create({ email: 'jenny@example.com' })

    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: starter.id }],
      payment_behavior: 'default_incomplete',
      expand: ['latest_invoice.payment_intent'],
    })
    expect(subscription.status).toBe('incomplete')
    const first = subscription.latest_invoice as OldInvoice
    const intent = first.payment_intent as Stripe.PaymentIntent
    expect(intent).toMatchObject({ status: 'requires_payment_method', amount: 600, setup_future_usage: 'off_session' })

    const confirmed = await confirmInBrowser(intent.client_secret as string, 'pm_card_visa')
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
    expect(confirmed.body.status).toBe('succeeded')
    const card = confirmed.body.payment_method as string
    expect((await stripe.paymentMethods.retrieve(card)).customer).toBe(customer.id)

    await allAnswered()
    expect(handlerErrors).toEqual([])
    expect(defaultsSet).toEqual([card])
    const active = await stripe.subscriptions.retrieve(subscription.id)
    expect(active).toMatchObject({ status: 'active', default_payment_method: card })
    expect(await stripe.invoices.retrieve(first.id)).toMatchObject({ status: 'paid', paid: true })

    const upgraded = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: active.items.data[0]?.id as string, price: plus.id }],
    })
    expect(upgraded.items.data[0]?.price.id).toBe(plus.id)

    const jump = await fetch(`${base}/__sim/clock/advance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ duration: '31d' }),
    })
    expect(jump.status).toBe(200)
    const invoices = (await stripe.invoices.list({ subscription: subscription.id })).data as OldInvoice[]
    const renewal = invoices.find((i) => i.billing_reason === 'subscription_cycle') as OldInvoice
    expect(renewal).toMatchObject({ status: 'paid', paid: true })
    expect(renewal.amount_paid).toBeGreaterThanOrEqual(1800)
    const renewalIntent = await stripe.paymentIntents.retrieve(renewal.payment_intent as string)
    expect(renewalIntent).toMatchObject({ status: 'succeeded', payment_method: card })

    const deliveries = await allAnswered()
    expect(app.refused).toEqual([])
    expect(handlerErrors).toEqual([])
    expect(deliveries.flatMap((d) => d.attempts).filter((a: { outcome: string }) => a.outcome === 'timeout')).toEqual([])
    expect(deliveries.map((d) => [d.status, d.attempts.length])).toEqual(deliveries.map(() => ['Delivered', 1]))
    expect(new Set(app.verified.map((e) => e.id)).size).toBe(app.verified.length)
    expect(app.verified.filter((e) => e.type === 'invoice.payment_succeeded')).toHaveLength(2)
    expect(app.verified.filter((e) => e.type === 'payment_method.attached')).toHaveLength(1)
  })
})
