import { describe, expect, it } from 'vitest'
import { triggerTypes } from '../../src/simulator/trigger-recipes.js'
import { collect, destination, setup } from './helpers.js'

const COLLECTIONS: Record<string, string> = {
  payment_intent: 'payment_intents',
  charge: 'charges',
  customer: 'customers',
  subscription: 'subscriptions',
  invoice: 'invoices',
  product: 'products',
  price: 'prices',
  'checkout.session': 'checkout/sessions',
}

/** The state each event says its object is in, read back through the API. */
const EXPECTED: Record<string, Record<string, unknown>> = {
  'payment_intent.created': { status: 'requires_confirmation' },
  'payment_intent.succeeded': { status: 'succeeded', amount_received: 2000 },
  'payment_intent.payment_failed': { status: 'requires_payment_method' },
  'payment_intent.canceled': { status: 'canceled' },
  'charge.succeeded': { status: 'succeeded', paid: true },
  'charge.failed': { status: 'failed' },
  'charge.refunded': { refunded: true },
  'invoice.created': { status: 'draft' },
  'invoice.finalized': { status: 'open' },
  'invoice.paid': { status: 'paid', amount_paid: 2000 },
  'invoice.payment_succeeded': { status: 'paid' },
  'customer.subscription.created': { status: 'active' },
  'customer.subscription.updated': { status: 'active', metadata: { foo: 'bar' } },
  'customer.subscription.deleted': { status: 'canceled' },
  'customer.updated': { metadata: { foo: 'bar' } },
  'customer.deleted': { deleted: true },
  'checkout.session.completed': { status: 'complete', payment_status: 'paid', mode: 'payment' },
  'checkout.session.async_payment_succeeded': { status: 'complete', payment_status: 'paid' },
  'checkout.session.async_payment_failed': { status: 'complete', payment_status: 'unpaid' },
  'checkout.session.expired': { status: 'expired' },
}

const retrieve = async (sim: ReturnType<typeof setup>['sim'], object: { id: string; object: string }) => {
  const res = await sim.fetch(`https://api.stripe.com/v1/${COLLECTIONS[object.object]}/${object.id}`, {
    headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` },
  })
  return { status: res.status, json: (await res.json()) as Record<string, unknown> }
}

describe('sim.admin.trigger in process makes real objects', () => {
  it.each(triggerTypes())('%s: the event names a stored object in the state it says', async (type) => {
    const { sim } = setup()
    const event = await sim.admin.trigger(type)
    expect(event.type).toBe(type)
    expect(event.requests.length).toBeGreaterThan(0)
    const object = (event.body as { data: { object: { id: string; object: string } } }).data.object
    expect(COLLECTIONS[object.object], object.object).toBeDefined()
    const stored = await retrieve(sim, object)
    expect(stored.status).toBe(200)
    expect(stored.json).toMatchObject({ id: object.id, ...EXPECTED[type] })
  })

  it('delivers the caused event, verified by the official client, once', async () => {
    const { sim, stripe } = setup()
    const { secret } = await destination(stripe, { enabled_events: ['payment_intent.succeeded'] })
    const got = collect(sim, 'https://hooks.example.test/snapshot')
    const evt = await sim.admin.trigger('payment_intent.succeeded')
    await sim.settle()
    expect(got).toHaveLength(1)
    const event = stripe.webhooks.constructEvent(got[0]!.raw, got[0]!.signature, secret, 300, undefined, sim.clock.now)
    expect(event.id).toBe(evt.id)
    const intent = await stripe.paymentIntents.retrieve((event.data.object as { id: string }).id)
    expect(intent.status).toBe('succeeded')
  })

  it('runs the calls on a connected account when asked', async () => {
    const { sim } = setup()
    const connected = sim.admin.createAccount()
    const evt = await sim.admin.trigger('customer.created', { account: connected.id })
    expect(evt.account).toBe(connected.id)
    expect(sim.admin.events({ account: sim.platform.id, type: 'customer.created' })).toEqual([])
  })

  it('gives a generated event at once with synthetic: true or a body, naming no stored object', async () => {
    const { sim } = setup()
    const generated = sim.admin.trigger('payment_intent.succeeded', { synthetic: true })
    expect(generated.type).toBe('payment_intent.succeeded')
    const withBody = sim.admin.trigger('customer.created', { object: { email: 'x@example.com' } })
    expect(withBody.body).toMatchObject({ data: { object: { email: 'x@example.com' } } })
    const stored = await retrieve(sim, (generated.body as { data: { object: { id: string; object: string } } }).data.object)
    expect(stored.status).toBe(404)
  })

  it('gives a generated event for a type no API call causes yet', async () => {
    const { sim } = setup()
    const evt = await sim.admin.trigger('v1.billing.meter.no_meter_found')
    expect(evt).toMatchObject({ type: 'v1.billing.meter.no_meter_found', kind: 'thin', requests: [] })
  })

  it('rejects an unknown account with a TypeError, making nothing', async () => {
    const { sim } = setup()
    await expect(sim.admin.trigger('customer.created', { account: 'acct_nobody' })).rejects.toThrow(TypeError)
    expect(sim.admin.events()).toEqual([])
  })

  it('same seed, same trace', async () => {
    const hashes = await Promise.all(
      [1, 2].map(async () => {
        const { sim } = setup()
        await sim.admin.trigger('invoice.paid')
        return sim.trace.hash()
      }),
    )
    expect(hashes[0]).toBe(hashes[1])
  })
})
