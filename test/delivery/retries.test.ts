import { describe, expect, it } from 'vitest'
import { LIVE_RETRY_WINDOW_MS } from '../../src/domain/events/delivery/retry-policy.js'
import { collect, ENDPOINT_KINDS, setup } from './helpers.js'

const HOUR = 3_600_000
const URL_A = 'https://hooks.example.test/a'

describe.each(ENDPOINT_KINDS)('delivery outcomes and retries of a $name', (kind) => {
  it('counts 3xx, 4xx and 5xx answers as failures and schedules a retry', async () => {
    for (const status of [301, 302, 400, 401, 403, 404, 405, 500, 503]) {
      const { sim, stripe } = setup()
      await kind.make(stripe, { url: URL_A })
      collect(sim, URL_A, status)
      const evt = sim.admin.trigger('customer.created', { synthetic: true })
      await sim.settle()
      const [r] = sim.admin.deliveries({ event: evt.id })
      expect(r?.attempts[0]).toMatchObject({ outcome: 'http_error', status })
      expect(r?.status).toBe('Pending')
      expect(r?.nextAttemptAt).toBeGreaterThan(sim.clock.now)
    }
  })

  it('counts an unreachable URL as a connection failure', async () => {
    const { sim, stripe } = setup()
    await kind.make(stripe, { url: 'https://nobody.example.test/h' })
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    expect(sim.admin.deliveries({ event: evt.id })[0]?.attempts[0]).toMatchObject({ outcome: 'connect_error', status: null })
  })

  it('counts a destination with a bad certificate as a TLS failure', async () => {
    const { sim, stripe } = setup()
    const { id } = await kind.make(stripe, { url: URL_A })
    const got = collect(sim, URL_A)
    sim.admin.setBadCertificate(id)
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    expect(got).toHaveLength(0)
    expect(sim.admin.deliveries({ event: evt.id })[0]?.attempts[0]).toMatchObject({ outcome: 'tls_error', status: null })
  })

  it('times out a receiver that spends more virtual time than the delivery time-out', async () => {
    const { sim, stripe } = setup()
    await kind.make(stripe, { url: URL_A })
    let calls = 0
    sim.receivers.mount(URL_A, async () => {
      calls++
      // The first answer takes 30 virtual seconds, later ones 2 seconds.
      const wait = calls === 1 ? 30_000 : 2_000
      await new Promise((r) => sim.clock.setTimeout(r, wait))
      return new Response('ok')
    })
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle() // does not hang on the sleeping receiver
    await sim.clock.tickAsync(10_000)
    const r = sim.admin.deliveries({ event: evt.id })[0]
    expect(r?.attempts[0]).toMatchObject({ outcome: 'timeout', status: null, durationMs: 10_000 })
    await sim.clock.tickAsync(HOUR)
    expect(r?.attempts[1]).toMatchObject({ outcome: 'delivered', status: 200, durationMs: 2_000, trigger: 'retry' })
    expect(r?.status).toBe('Delivered')
  })

  it('makes exactly 3 retries in test mode within a few hours, then marks the delivery Failed', async () => {
    const { sim, stripe } = setup()
    await kind.make(stripe, { url: URL_A })
    const got = collect(sim, URL_A, 500)
    const start = sim.clock.now
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.clock.runToLastAsync()
    const r = sim.admin.deliveries({ event: evt.id })[0]
    expect(got).toHaveLength(4)
    expect(r?.attempts.map((a) => a.trigger)).toEqual(['automatic', 'retry', 'retry', 'retry'])
    expect(r?.status).toBe('Failed')
    expect(r?.nextAttemptAt).toBeNull()
    const last = r?.attempts[3]?.at ?? 0
    expect(last - start).toBeGreaterThan(2 * HOUR)
    expect(last - start).toBeLessThan(4 * HOUR)
  })

  it('retries live deliveries with growing waits for up to 3 days, then marks them Failed', async () => {
    const { sim, live } = setup()
    await kind.make(live, { url: URL_A })
    const got = collect(sim, URL_A, 503)
    const start = sim.clock.now
    const evt = sim.admin.trigger('customer.created', { synthetic: true, mode: 'live' })
    await sim.clock.runToLastAsync()
    const r = sim.admin.deliveries({ event: evt.id })[0]
    const times = r?.attempts.map((a) => a.at - start) ?? []
    expect(got.length).toBe(times.length)
    expect(times.length).toBeGreaterThanOrEqual(8)
    for (let i = 2; i < times.length - 1; i++) {
      expect(times[i + 1]! - times[i]!).toBeGreaterThanOrEqual(times[i]! - times[i - 1]!)
    }
    expect(times[times.length - 1]).toBeLessThanOrEqual(LIVE_RETRY_WINDOW_MS)
    expect(times[times.length - 1]).toBeGreaterThan(48 * HOUR)
    expect(r?.status).toBe('Failed')
    expect(sim.trace.filter('delivery.exhausted')).toHaveLength(1)
  })

  it('stops retrying once a retry succeeds', async () => {
    const { sim, stripe } = setup()
    await kind.make(stripe, { url: URL_A })
    const got = collect(sim, URL_A, (i) => (i < 2 ? 500 : 200))
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.clock.runToLastAsync()
    expect(got).toHaveLength(3)
    expect(sim.admin.deliveries({ event: evt.id })[0]?.status).toBe('Delivered')
  })

  it('cancels a retry that falls due while the destination is disabled or deleted', async () => {
    for (const action of ['disable', 'del'] as const) {
      const { sim, stripe } = setup()
      const { id } = await kind.make(stripe, { url: URL_A })
      const got = collect(sim, URL_A, 500)
      const evt = sim.admin.trigger('customer.created', { synthetic: true })
      await sim.settle()
      await (action === 'del' ? kind.del(stripe, id) : kind.setDisabled(stripe, id, true))
      await sim.clock.runToLastAsync()
      expect(got).toHaveLength(1)
      const r = sim.admin.deliveries({ event: evt.id })[0]
      expect(r?.status).toBe('Failed')
      expect(r?.cancelled).toBe(action === 'del' ? 'destination_deleted' : 'destination_disabled')
    }
  })

  it('still retries when the destination is disabled and re-enabled before the retry falls due', async () => {
    const { sim, stripe } = setup()
    const { id } = await kind.make(stripe, { url: URL_A })
    const got = collect(sim, URL_A, (i) => (i === 0 ? 500 : 200))
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    await kind.setDisabled(stripe, id, true)
    await sim.clock.tickAsync(60_000)
    await kind.setDisabled(stripe, id, false)
    await sim.clock.runToLastAsync()
    expect(got).toHaveLength(2)
    expect(sim.admin.deliveries({ event: evt.id })[0]?.status).toBe('Delivered')
  })

  it('shows the next attempt time while a delivery is pending', async () => {
    const { sim, stripe } = setup()
    await kind.make(stripe, { url: URL_A })
    collect(sim, URL_A, 500)
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    const r = sim.admin.deliveries({ event: evt.id })[0]
    const next = r?.nextAttemptAt ?? 0
    expect(sim.trace.filter('delivery.attempt')[0]?.data).toMatchObject({
      event: evt.id,
      outcome: 'http_error',
      status: 500,
      delivery: 'Pending',
      next,
    })
    await sim.clock.tickAsync(next - sim.clock.now)
    expect(r?.attempts[1]?.at).toBe(next)
  })

  it('replays the same retry schedule for the same seed', async () => {
    const run = async () => {
      const { sim, live } = setup(99)
      await kind.make(live, { url: URL_A })
      collect(sim, URL_A, 500)
      sim.admin.trigger('customer.created', { synthetic: true, mode: 'live' })
      await sim.clock.runToLastAsync()
      return { times: sim.admin.deliveries()[0]?.attempts.map((a) => a.at), hash: sim.trace.hash() }
    }
    expect(await run()).toEqual(await run())
  })
})
