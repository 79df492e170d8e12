import { describe, expect, it } from 'vitest'
import { collect, ENDPOINT_KINDS, setup } from './helpers.js'

describe.each(ENDPOINT_KINDS)('snapshot delivery to a $name', (kind) => {
  it('delivers a triggered event signed so that the official client verifies it', async () => {
    const { sim, stripe } = setup()
    const { id, secret } = await kind.make(stripe)
    const got = collect(sim, 'https://hooks.example.test/snapshot')
    const evt = sim.admin.trigger('payment_intent.succeeded', { synthetic: true })
    await sim.settle()
    expect(got).toHaveLength(1)
    const event = stripe.webhooks.constructEvent(got[0]!.raw, got[0]!.signature, secret, 300, undefined, sim.clock.now)
    expect(event.id).toBe(evt.id)
    expect(event.type).toBe('payment_intent.succeeded')
    expect((event.data.object as { object: string }).object).toBe('payment_intent')
    expect(got[0]!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v0=[0-9a-f]{64}$/)
    const [record] = sim.admin.deliveries({ event: evt.id, destination: id })
    expect(record?.status).toBe('Delivered')
    expect(record?.attempts).toEqual([
      { at: sim.clock.now, trigger: 'automatic', outcome: 'delivered', status: 200, durationMs: 0 },
    ])
    expect(record?.nextAttemptAt).toBeNull()
    expect(sim.trace.filter('delivery.attempt')).toHaveLength(1)
  })
})
