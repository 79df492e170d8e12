import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'

async function run(seed: number) {
  const sim = createSimulator({ seed })
  const auth = { Authorization: `Bearer ${sim.platform.secretKey.test}`, 'Content-Type': 'application/x-www-form-urlencoded' }
  const ids: string[] = []
  for (let i = 0; i < 5; i++) {
    const res = await sim.fetch('https://api.service.test/v1/accounts', {
      method: 'POST',
      headers: auth,
      body: `email=u${i}%40x.test`,
    })
    ids.push((await res.json()).id)
    await sim.clock.tickAsync(1000)
  }
  await Promise.all([
    sim.fetch('https://api.service.test/v1/account', { headers: auth }),
    sim.fetch('https://api.service.test/v2/billing/meter_event_session', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{}',
    }),
  ])
  return { ids, hash: sim.trace.hash(), jsonl: sim.trace.toJsonl() }
}

describe('determinism', () => {
  it('gives two simulators with the same seed and requests the same trace, byte for byte', async () => {
    const a = await run(42)
    const b = await run(42)
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(b.hash).toBe(a.hash)
    expect(b.jsonl).toBe(a.jsonl)
    expect(b.ids).toEqual(a.ids)
  })

  it('gives another seed other ids and another hash', async () => {
    const a = await run(42)
    const c = await run(43)
    expect(c.ids).not.toEqual(a.ids)
    expect(c.hash).not.toBe(a.hash)
  })

  it('records every request and response in the trace with its virtual time', async () => {
    const sim = createSimulator({ seed: 1, start: '2026-05-01T00:00:00.000Z' })
    await sim.clock.tickAsync(5000)
    await sim.fetch('https://api.service.test/v1/account', {
      headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` },
    })
    const http = sim.trace.filter('http')
    expect(http).toHaveLength(1)
    expect(http[0]).toMatchObject({ at: Date.parse('2026-05-01T00:00:05.000Z'), kind: 'http' })
    expect(http[0]?.data).toMatchObject({
      method: 'GET',
      path: '/v1/account',
      status: 200,
      operation: 'accounts.retrieveCurrent',
    })
  })

  it('validates its options with a message that names createSimulator', () => {
    expect(() => createSimulator({ start: 'not a date' })).toThrow(/createSimulator/)
    expect(() => createSimulator({ headerPrefix: 'Bad Prefix' })).toThrow(/createSimulator: option 'headerPrefix'/)
    expect(() => createSimulator({ serviceTime: -1 })).toThrow(/createSimulator: option 'serviceTime'/)
  })
})
