import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { call } from './helpers.js'

async function customer(sim: ReturnType<typeof createSimulator>): Promise<string> {
  const res = await call(sim, 'test', 'POST', '/v1/customers', { body: { email: 'old@example.com' } })
  return (await res.json()).id
}

describe('object locks', () => {
  it('refuses a mutation of an object an internal process holds past the wait with 429 lock_timeout, no request id and Should-Retry', async () => {
    const sim = createSimulator({ seed: 10 })
    const id = await customer(sim)
    sim.admin.holdLock(id, 5_000)
    const res = await call(sim, 'test', 'POST', `/v1/customers/${id}`, { body: { email: 'new@example.com' } })
    expect(res.status).toBe(429)
    expect(res.headers.get('request-id')).toBeNull()
    expect(res.headers.get('service-should-retry')).toBe('true')
    expect(res.headers.get('service-rate-limited-reason')).toBeNull()
    expect((await res.json()).error).toMatchObject({ type: 'invalid_request_error', code: 'lock_timeout' })
    // Nothing was processed; reads do not take the lock.
    const read = await call(sim, 'test', 'GET', `/v1/customers/${id}`)
    expect((await read.json()).email).toBe('old@example.com')
  })

  it('admits the mutation once the remaining hold fits in the lock wait (2 s by default)', async () => {
    const sim = createSimulator({ seed: 10 })
    const id = await customer(sim)
    sim.admin.holdLock(id, 5_000)
    await sim.clock.tickAsync(2_999)
    expect((await call(sim, 'test', 'POST', `/v1/customers/${id}`, { body: { email: 'a@example.com' } })).status).toBe(429)
    await sim.clock.tickAsync(1)
    expect((await call(sim, 'test', 'POST', `/v1/customers/${id}`, { body: { email: 'b@example.com' } })).status).toBe(200)
  })

  it('locks only the object held: other objects and creations pass', async () => {
    const sim = createSimulator({ seed: 10 })
    const held = await customer(sim)
    const free = await customer(sim)
    sim.admin.holdLock(held, 60_000)
    expect((await call(sim, 'test', 'POST', `/v1/customers/${free}`, { body: { email: 'x@example.com' } })).status).toBe(200)
    expect((await call(sim, 'test', 'DELETE', `/v1/customers/${held}`)).status).toBe(429)
    expect((await call(sim, 'test', 'POST', '/v1/customers', { body: { email: 'y@example.com' } })).status).toBe(200)
  })

  it('serialises concurrent mutations of one object without timing out when requests take no time', async () => {
    const sim = createSimulator({ seed: 11 })
    const id = await customer(sim)
    const responses = await Promise.all(
      ['a', 'b', 'c'].map((n) => call(sim, 'test', 'POST', `/v1/customers/${id}`, { body: { email: `${n}@example.com` } })),
    )
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200])
  })

  it('times out a mutation queued behind others for longer than the lock wait', async () => {
    // Each update holds the lock for its 1 s service time: the 4th would wait 3 s > 2 s.
    const sim = createSimulator({ seed: 11, serviceTime: 1_000 })
    const id = await customer(sim)
    const responses = await Promise.all(
      ['a', 'b', 'c', 'd'].map((n) => call(sim, 'test', 'POST', `/v1/customers/${id}`, { body: { email: `${n}@example.com` } })),
    )
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429])
    expect((await (responses[3] as Response).json()).error.code).toBe('lock_timeout')
  })

  it('lets internal processes queue for a lock and release it early', () => {
    const sim = createSimulator({ seed: 12 })
    const locks = sim.service.locks
    if (locks === undefined) throw new Error('locks are on by default')
    const now = sim.clock.now
    const first = locks.acquire('mtr_1', 'meter.process', 3_000)
    const second = locks.acquire('mtr_1', 'delivery.bookkeeping', 1_000)
    expect([first.start, first.end, second.start, second.end]).toEqual([now, now + 3_000, now + 3_000, now + 4_000])
    expect(locks.heldUntil('mtr_1')).toBe(now + 4_000)
    second.release()
    expect(locks.heldUntil('mtr_1')).toBeUndefined()
  })

  it('has no locks with limits: false', async () => {
    const sim = createSimulator({ seed: 12, limits: false })
    expect(sim.service.locks).toBeUndefined()
    expect(() => sim.admin.holdLock('cus_1', 1_000)).toThrow(/admin.holdLock/)
  })
})
