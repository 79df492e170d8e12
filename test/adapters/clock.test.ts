import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator, runOnClock } from '../../src/index.js'

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

describe('one clock for the client and the service', () => {
  it("puts the client's Date and timers on the simulator's clock with clock: 'global'", async () => {
    const realDate = Date
    const sim = createSimulator({ seed: 1, clock: 'global', start: '2026-05-01T00:00:00Z' })
    try {
      expect(Date.now()).toBe(sim.clock.now)
      expect(new Date().toISOString()).toBe('2026-05-01T00:00:00.000Z')
      const woke = await runOnClock(sim, async () => {
        await sleep(3 * 24 * 3600_000)
        return new Date().toISOString()
      })
      expect(woke).toBe('2026-05-04T00:00:00.000Z')
    } finally {
      sim.clock.uninstall()
    }
    expect(Date).toBe(realDate)
  })

  it("runs the official client's retry backoff on the virtual clock, after the service's 409", async () => {
    const sim = createSimulator({ seed: 2, clock: 'global', headerPrefix: 'Stripe' })
    try {
      const start = sim.clock.now
      const stripe = new Stripe(sim.platform.secretKey.test, {
        httpClient: Stripe.createFetchHttpClient(sim.fetch),
        maxNetworkRetries: 2,
      })
      const create = () => stripe.v2.billing.meterEventSession.create({}, { idempotencyKey: 'same-key' })
      // Two requests with one key in flight together: the second is refused with 409 and the
      // client retries it after its own (faked) backoff sleep, then gets the saved result.
      const [a, b] = await runOnClock(sim, () => Promise.all([create(), create()]))
      expect(b.id).toBe(a.id)
      const http = sim.trace.filter('http').filter((e) => e.kind === 'http')
      expect(http.map((e) => e.data.status)).toEqual([200, 409, 200])
      const retryAt = http[2]!.at
      // stripe-node sleeps at least its initial delay (500 ms) before the first retry.
      expect(retryAt - start).toBeGreaterThanOrEqual(500)
      expect(retryAt - start).toBeLessThanOrEqual(1000)
      expect(Date.now()).toBe(sim.clock.now)
    } finally {
      sim.clock.uninstall()
    }
  })

  it("interleaves the client's sleeps and the service's scheduled work in virtual time order", async () => {
    const sim = createSimulator({ seed: 3, clock: 'global' })
    try {
      const t0 = sim.clock.now
      const log: string[] = []
      const at = () => `${(sim.clock.now - t0) / 60_000}m`
      const { scheduler } = sim.service.kernel
      scheduler.after(5 * 60_000, 'test.service-retry', () => {
        log.push(`service ${at()}`)
      })
      scheduler.after(25 * 60_000, 'test.service-retry', () => {
        log.push(`service ${at()}`)
      })
      await runOnClock(sim, async () => {
        for (let i = 0; i < 3; i++) {
          await sleep(10 * 60_000)
          log.push(`client ${at()}`)
        }
      })
      expect(log).toEqual(['service 5m', 'client 10m', 'client 20m', 'service 25m', 'client 30m'])
    } finally {
      sim.clock.uninstall()
    }
  })

  it('stops a runaway retry loop at the bound given by until', async () => {
    const sim = createSimulator({ seed: 4, clock: 'global' })
    try {
      const forever = async () => {
        for (;;) await sleep(60_000)
      }
      await expect(runOnClock(sim, forever, { until: sim.clock.now + 3600_000 })).rejects.toThrow(/still running/)
    } finally {
      sim.clock.uninstall()
    }
  })

  it('fails instead of hanging when the work waits on something the clock cannot reach', async () => {
    const sim = createSimulator({ seed: 5 })
    const never = new Promise<void>(() => {})
    await expect(runOnClock(sim, never, { idleLimit: 50 })).rejects.toThrow(/something other than the virtual clock/)
  })
})
