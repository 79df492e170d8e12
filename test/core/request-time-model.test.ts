import { describe, expect, it } from 'vitest'
import { setup } from './helpers.js'

/** Records how many requests were in flight when each request was admitted. */
function watchConcurrency(sim: ReturnType<typeof setup>['sim']) {
  const seen: number[] = []
  sim.service.gates.push((admission) => {
    seen.push(sim.service.timeline.active.size)
    expect(admission.inflight.operation).toBe(admission.operation)
  })
  return seen
}

describe('request time model', () => {
  it('overlaps requests started together and not sequential ones', async () => {
    const { sim, get } = setup()
    const seen = watchConcurrency(sim)
    await get('/v1/account')
    await get('/v1/account')
    expect(seen).toEqual([1, 1])
    seen.length = 0
    await Promise.all([get('/v1/account'), get('/v1/account'), get('/v1/account')])
    expect(seen).toEqual([3, 3, 3])
    expect(sim.service.timeline.active.size).toBe(0)
  })

  it('never moves the clock by default', async () => {
    const { sim, get } = setup()
    const t0 = sim.clock.now
    await Promise.all([get('/v1/account'), get('/v1/account')])
    expect(sim.clock.now).toBe(t0)
  })

  it('with a service time, answers when the virtual clock reaches it, advancing it while the client is idle', async () => {
    const { sim, get } = setup({ serviceTime: 250 })
    const t0 = sim.clock.now
    const res = await get('/v1/account')
    expect(res.status).toBe(200)
    expect(sim.clock.now).toBe(t0 + 250)
  })

  it('draws seeded service times from a range', async () => {
    const times = async (seed: number) => {
      const { sim, get } = setup({ seed, serviceTime: { min: 10, max: 500 } })
      const out: number[] = []
      for (let i = 0; i < 4; i++) {
        const t = sim.clock.now
        await get('/v1/account')
        out.push(sim.clock.now - t)
      }
      return out
    }
    const a = await times(3)
    expect(await times(3)).toEqual(a)
    for (const t of a) expect(t).toBeGreaterThanOrEqual(10)
    for (const t of a) expect(t).toBeLessThanOrEqual(500)
  })

  it('processes requests in arrival order even when bodies arrive out of order', async () => {
    const { sim, auth } = setup()
    const order: string[] = []
    sim.service.gates.push((a) => {
      order.push(String((a.body as { email?: string }).email))
    })
    const slow = new Request('https://api.service.test/v1/accounts', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new Blob([`email=first%40x.test&metadata[pad]=${'x'.repeat(400)}`]).stream(),
      duplex: 'half',
    } as RequestInit)
    await Promise.all([
      sim.fetch(slow),
      sim.fetch('https://api.service.test/v1/accounts', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'email=second%40x.test',
      }),
    ])
    expect(order).toEqual(['first@x.test', 'second@x.test'])
  })
})

describe('request time model with a service time and pending service work', () => {
  it('answers a request whose change schedules a webhook delivery', async () => {
    const { sim, json, form } = setup({ serviceTime: 10 })
    const dest = await json('/v2/core/event_destinations', {
      name: 'hooks',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['customer.created'],
      webhook_endpoint: { url: 'https://shop.example/hook' },
    })
    expect(dest.status).toBe(200)
    const t0 = sim.clock.now
    const res = await form('/v1/customers', 'email=a%40b.test')
    expect(res.status).toBe(200)
    expect(sim.clock.now).toBe(t0 + 10)
  })
})
