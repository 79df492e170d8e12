import { test } from 'service-sim/vitest'
import Stripe from 'stripe'
import { expect } from 'vitest'
import { createWebhookHandler } from './webhook-handler.js'

const URL = 'https://shop.example.test/webhooks'

test.override({ simOptions: { headerPrefix: 'Stripe' } })

async function subscribe(stripe: Stripe) {
  const dest = await stripe.v2.core.eventDestinations.create({
    name: 'shop',
    type: 'webhook_endpoint',
    event_payload: 'snapshot',
    enabled_events: ['customer.created'],
    webhook_endpoint: { url: URL },
    include: ['webhook_endpoint.signing_secret'],
  })
  return { id: dest.id, secret: dest.webhook_endpoint!.signing_secret! }
}

function memoryStore() {
  const events = new Map<string, Stripe.Event>()
  return { events, has: (id: string) => events.has(id), record: (e: Stripe.Event) => void events.set(e.id, e) }
}

test('records each event once even when it is delivered twice', async ({ sim }) => {
  const stripe = new Stripe(sim.platform.secretKey.test, { httpClient: Stripe.createFetchHttpClient(sim.fetch) })
  const { id, secret } = await subscribe(stripe)
  const store = memoryStore()
  const handler = createWebhookHandler({ secret, store, now: () => sim.clock.now })
  let calls = 0
  sim.receivers.mount(URL, (req) => {
    calls++
    return handler(req)
  })
  const customer = await stripe.customers.create({ email: 'a@example.com' })
  await sim.settle()
  const [event] = sim.admin.events({ type: 'customer.created' })
  await sim.admin.resend(event!.id, id)
  await sim.settle()
  expect(calls).toBe(2)
  expect([...store.events.values()].map((e) => (e.data.object as Stripe.Customer).id)).toEqual([customer.id])
})

test('refuses a delivery signed with another secret, which the service then retries', async ({ sim }) => {
  const stripe = new Stripe(sim.platform.secretKey.test, { httpClient: Stripe.createFetchHttpClient(sim.fetch) })
  await subscribe(stripe)
  const store = memoryStore()
  sim.receivers.mount(URL, createWebhookHandler({ secret: 'whsec_wrong', store, now: () => sim.clock.now }))
  await stripe.customers.create({ email: 'b@example.com' })
  await sim.settle()
  expect(store.events.size).toBe(0)
  const [delivery] = sim.admin.deliveries()
  expect(delivery?.status).not.toBe('delivered')
})

test('rejects a signature older than the 5-minute tolerance', async ({ sim }) => {
  const stripe = new Stripe(sim.platform.secretKey.test, { httpClient: Stripe.createFetchHttpClient(sim.fetch) })
  const { secret } = await subscribe(stripe)
  const store = memoryStore()
  let lateBy = 0
  const handler = createWebhookHandler({ secret, store, now: () => sim.clock.now + lateBy })
  const statuses: number[] = []
  sim.receivers.mount(URL, async (req) => {
    const res = await handler(req)
    statuses.push(res.status)
    return res
  })
  lateBy = 6 * 60_000
  await stripe.customers.create({ email: 'c@example.com' })
  await sim.settle()
  expect(statuses).toEqual([400])
  expect(store.events.size).toBe(0)
})
