import { describe, expect, it } from 'vitest'
import { triggerTypes } from '../../src/simulator/trigger-recipes.js'
import { collect, destination, setup } from './helpers.js'
import { COLLECTIONS, EXPECTED } from './trigger-expectations.js'

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
