import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServedCli, startServeCli } from '../cli/serve-cli.js'
import { type OneSecretApp, startOneSecretApp } from './one-secret-app.js'

/** Polls `check` every 25 ms for at most `ms` real milliseconds. */
async function within(ms: number, check: () => boolean): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((r) => setTimeout(r, 25))
  }
  return check()
}

const client = (served: ServedCli) =>
  new Stripe(served.key, { host: '127.0.0.1', port: served.port, protocol: 'http', maxNetworkRetries: 0 })

/** Over HTTP, `serve` started with no flags works with the official client as it comes. */
describe('serve as started with no flags', () => {
  let served: ServedCli
  let stripe: Stripe
  let app: OneSecretApp
  beforeAll(async () => {
    // --port 0 only so that parallel test files do not fight over 12111.
    served = await startServeCli([])
    stripe = client(served)
    app = await startOneSecretApp({ path: '/webhook' })
  })
  afterAll(async () => {
    await served.stop()
    await app.close()
  })

  it("says in its banner that it speaks the official clients' header names", () => {
    expect(served.out()).toMatch(/header prefix Stripe \(the official clients' names\): webhooks signed with Stripe-Signature/)
    expect(served.out()).toContain('--header-prefix Service')
  })

  it("acts for the connected account the official client's stripeAccount names", async () => {
    const account = await stripe.accounts.create({ type: 'custom', country: 'US', email: 'shop@example.com' })
    const made = await stripe.customers.create({ email: 'theirs@example.com' }, { stripeAccount: account.id })
    const theirs = await stripe.customers.list({}, { stripeAccount: account.id })
    const platform = await stripe.customers.list()
    expect(theirs.data.map((c) => c.id)).toEqual([made.id])
    expect(platform.data.map((c) => c.id)).not.toContain(made.id)
  })

  it('signs the webhooks it sends so that Stripe.webhooks.constructEvent verifies them', async () => {
    const endpoint = await stripe.webhookEndpoints.create({ url: app.url, enabled_events: ['customer.created'] })
    app.useSecret(endpoint.secret ?? '')
    const customer = await stripe.customers.create({ email: 'signed@example.com' })
    expect(await within(10_000, () => app.verified.length >= 1)).toBe(true)
    expect(app.refused).toEqual([])
    expect(app.verified[0]?.type).toBe('customer.created')
    const event = await stripe.events.retrieve(app.verified[0]?.id ?? '')
    expect((event.data.object as { id: string }).id).toBe(customer.id)
  })
})

/** `--header-prefix Service` keeps the seed's names: its webhooks carry `Service-Signature` only. */
describe('serve --header-prefix Service', () => {
  let served: ServedCli
  const seen: IncomingHttpHeaders[] = []
  const receiver = createServer((req, res) => {
    seen.push(req.headers)
    req.resume()
    req.on('end', () => res.writeHead(200).end('{}'))
  })
  beforeAll(async () => {
    await new Promise<void>((ready) => receiver.listen(0, '127.0.0.1', ready))
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
    served = await startServeCli(['--header-prefix', 'Service', '--forward-to', url, '--events', 'customer.created'])
  })
  afterAll(async () => {
    await served.stop()
    await new Promise<void>((done) => receiver.close(() => done()))
  })

  it('says so in its banner, signs with Service-Signature, and still honours the official client', async () => {
    expect(served.out()).toMatch(/header prefix Service \(the seed's names\): webhooks signed with Service-Signature/)
    const stripe = client(served)
    const account = await stripe.accounts.create({ type: 'custom', country: 'US' })
    const made = await stripe.customers.create({ email: 'seed@example.com' }, { stripeAccount: account.id })
    expect((await stripe.customers.list({}, { stripeAccount: account.id })).data.map((c) => c.id)).toEqual([made.id])
    await stripe.customers.create({ email: 'platform@example.com' })
    expect(await within(10_000, () => seen.length >= 1)).toBe(true)
    expect(seen[0]?.['service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}/)
    expect(seen[0]?.['stripe-signature']).toBeUndefined()
  })
})
