import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { keepForForks } from '../../src/simulator/create-simulator.js'
import { call } from './helpers.js'

// Forks, forks of forks, kept captures and the original stay apart in both directions, whether or
// not a resource was made in a fork before the other side changed it.

async function prepared(keep: boolean) {
  const sim = createSimulator({ seed: 11 })
  const c = (await call(sim, 'POST', '/v1/customers', 'name=ann')).json
  await call(sim, 'POST', '/v1/products', 'name=plan')
  await sim.settle()
  if (keep) keepForForks(sim)
  return { sim, id: String(c.id) }
}

const nameOf = async (sim: Simulator, id: string) => (await call(sim, 'GET', `/v1/customers/${id}`)).json.name ?? 'gone'
const eventCount = async (sim: Simulator) => ((await call(sim, 'GET', '/v1/events?limit=100')).json.data as unknown[]).length
const customerCount = async (sim: Simulator) =>
  ((await call(sim, 'GET', '/v1/customers?limit=100')).json.data as unknown[]).length

describe.each([false, true])('fork isolation (kept capture: %s)', (keep) => {
  it('a fork that changes, deletes and adds leaves its siblings, its original and a later fork as they were', async () => {
    const { sim, id } = await prepared(keep)
    const before = JSON.stringify(sim.snapshot())
    const events = await eventCount(sim.fork())
    const a = sim.fork({ seed: 1 })
    const b = sim.fork({ seed: 2 })
    await call(a, 'POST', `/v1/customers/${id}`, 'name=changed')
    await call(a, 'POST', '/v1/customers', 'name=extra')
    await call(b, 'DELETE', `/v1/customers/${id}`)
    const c = sim.fork({ seed: 3 })
    expect(await nameOf(a, id)).toBe('changed')
    expect(await nameOf(b, id)).toBe('gone')
    expect(await nameOf(c, id)).toBe('ann')
    expect(await customerCount(c)).toBe(1)
    expect(await eventCount(c)).toBe(events)
    expect(JSON.stringify(sim.snapshot())).toBe(before)
  })

  it('forks of forks stay apart from their parent and grandparent, both ways', async () => {
    const { sim, id } = await prepared(keep)
    const a = sim.fork({ seed: 1 })
    const aa = a.fork({ seed: 4 })
    await call(aa, 'POST', `/v1/customers/${id}`, 'name=grandchild')
    await call(a, 'POST', `/v1/customers/${id}`, 'name=child')
    const ab = a.fork()
    await call(sim, 'POST', `/v1/customers/${id}`, 'name=root')
    expect(await nameOf(sim, id)).toBe('root')
    expect(await nameOf(a, id)).toBe('child')
    expect(await nameOf(aa, id)).toBe('grandchild')
    expect(await nameOf(ab, id)).toBe('child')
    expect(await nameOf(sim.fork(), id)).toBe('root')
  })

  it('a fork saved and loaded continues exactly like the fork', async () => {
    const { sim, id } = await prepared(keep)
    const a = sim.fork({ seed: 1 })
    const loaded = createSimulator({ from: JSON.parse(JSON.stringify(a.snapshot())) })
    for (const s of [a, loaded]) {
      await call(s, 'POST', `/v1/customers/${id}`, 'name=next')
      await call(s, 'POST', '/v1/customers', 'name=more')
      await s.settle()
    }
    expect(loaded.trace.hash()).toBe(a.trace.hash())
    expect(JSON.stringify(loaded.snapshot())).toBe(JSON.stringify(a.snapshot()))
  })
})

describe('keepForForks: what a fork takes besides requests', () => {
  it('gives a fork the receivers mounted on the kept simulator since its last fork, as a usual fork has them', async () => {
    const { sim } = await prepared(true)
    sim.fork()
    const url = 'https://hooks.example.test/late'
    sim.receivers.mount(url, () => new Response('{}'))
    expect(sim.fork().receivers.get(url)).toBeDefined()
  })

  it('gives a fork a fault armed on the kept simulator since its last fork, as a usual fork has it', async () => {
    const usual = (await prepared(false)).sim
    const kept = (await prepared(true)).sim
    kept.fork()
    for (const sim of [usual, kept]) sim.admin.injectFault({ fault: 'rate_limit' })
    const status = async (sim: Simulator) => (await call(sim.fork(), 'GET', '/v1/customers')).status
    expect(await status(kept)).toBe(await status(usual))
  })

  it('gives a fork the delivery fault knobs set on the kept simulator since its last fork, as a usual fork has them', async () => {
    const usual = (await prepared(false)).sim
    const kept = (await prepared(true)).sim
    kept.fork()
    const admin = kept.admin
    kept.fork()
    for (const a of [usual.admin, admin]) a.deliveryFaults.duplicateRate = 0.5
    expect(kept.fork().admin.deliveryFaults).toEqual(usual.fork().admin.deliveryFaults)
    expect(kept.fork().admin.deliveryFaults.duplicateRate).toBe(0.5)
  })
})
