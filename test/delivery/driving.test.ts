import { describe, expect, it } from 'vitest'
import { collect, destination, setup } from './helpers.js'

const URL_A = 'https://hooks.example.test/a'

describe('driving deliveries on the virtual clock', () => {
  it('runs the same live schedule whether driven by tickAsync, runToLastAsync or scheduler.advance', async () => {
    const run = async (drive: (sim: ReturnType<typeof setup>['sim']) => Promise<void>) => {
      const { sim, live } = setup(11)
      await destination(live, { url: URL_A })
      sim.receivers.mount(URL_A, () => new Response(null, { status: 500 }))
      for (let i = 0; i < 5; i++) sim.admin.trigger('invoice.paid', { synthetic: true, mode: 'live' })
      await drive(sim)
      return sim.admin.deliveries().map((r) => [r.status, r.attempts.map((a) => a.at)])
    }
    const byTick = await run((sim) => sim.clock.tickAsync(4 * 86_400_000).then(() => undefined))
    const byLast = await run((sim) => sim.clock.runToLastAsync().then(() => undefined))
    const byAdvance = await run((sim) => sim.service.kernel.scheduler.advance(Number.POSITIVE_INFINITY))
    expect(byTick).toEqual(byAdvance)
    expect(byLast).toEqual(byAdvance)
    expect(byAdvance.every(([status]) => status === 'Failed')).toBe(true)
  })

  it('advance fires client timers due on the way, so a sleeping receiver still times out', async () => {
    const { sim, stripe } = setup()
    await destination(stripe, { url: URL_A })
    sim.receivers.mount(URL_A, async (req) => {
      await req.text()
      await new Promise((r) => sim.clock.setTimeout(r, 60_000))
      return new Response('late')
    })
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.service.kernel.scheduler.advance(sim.clock.now + 30_000)
    const r = sim.admin.deliveries({ event: evt.id })[0]
    expect(r?.attempts[0]).toMatchObject({ outcome: 'timeout', durationMs: 10_000 })
  })

  it('settle() delivers everything due now without moving the clock', async () => {
    const { sim, stripe } = setup()
    await destination(stripe, { url: URL_A })
    const got = collect(sim, URL_A)
    const before = sim.clock.now
    sim.admin.trigger('customer.created', { synthetic: true })
    sim.admin.trigger('invoice.paid', { synthetic: true })
    await sim.settle()
    expect(got).toHaveLength(2)
    expect(sim.clock.now).toBe(before)
  })
})
