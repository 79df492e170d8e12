import { describe, expect, it } from 'vitest'
import { faultLog } from '../../src/harness/index.js'
import { createSimulator } from '../../src/index.js'

const key = (sim: ReturnType<typeof createSimulator>) => ({ Authorization: `Bearer ${sim.platform.secretKey.test}` })
const openSession = (sim: ReturnType<typeof createSimulator>) =>
  sim.fetch('https://api.service.test/v2/billing/meter_event_session', { method: 'POST', headers: key(sim), body: '{}' })

describe('the faults option', () => {
  it('refuses an unknown fault kind with a message naming createSimulator', () => {
    expect(() => createSimulator({ faults: { schedule: [{ step: 1, fault: 'meteor' as never }] } })).toThrow(
      /^createSimulator: option 'faults\.schedule\.0\.fault'/,
    )
    expect(() => createSimulator({ faults: { policy: { rates: { rate_limit: 2 } } } })).toThrow(
      /createSimulator: option 'faults\.policy/,
    )
  })

  it('refuses a bad preset or an unknown key beside a preset, on creation and when a fork goes on', () => {
    expect(() => createSimulator({ faults: { preset: 'wild' as never, schedule: [] } })).toThrow(
      /^createSimulator: option 'faults\.preset'/,
    )
    expect(() => createSimulator({ faults: { preset: 'realistic', rates: {} } as never })).toThrow(
      /^createSimulator: option 'faults'/,
    )
    const sim = createSimulator({ seed: 1 })
    expect(() => sim.fork({ seed: 2, faults: { swarm: 'yes' as never } })).toThrow(/^fork: option 'faults\.swarm'/)
    // The preset alone and the preset through the full schema (an empty policy) draw alike.
    const plain = sim.fork({ seed: 2, faults: { preset: 'realistic', schedule: [] } })
    const parsed = sim.fork({ seed: 2, faults: { preset: 'realistic', policy: { rates: {} } } })
    for (const s of [plain, parsed]) for (let step = 1; step <= 40; step++) s.faults.step(step)
    expect(plain.trace.hash()).toBe(parsed.trace.hash())
  })

  it('refuses a bad schedule entry beside entries accepted before, and forks on a repeated schedule alike', () => {
    const schedule = [
      { step: 1, fault: 'rate_limit' as const, reason: 'endpoint-concurrency' as const },
      { step: 2, fault: 'receiver_down' as const, receiver: 'shop' },
    ]
    const sim = createSimulator({ seed: 1 })
    const first = sim.fork({ seed: 2, faults: { schedule } })
    const again = sim.fork({ seed: 2, faults: { schedule: schedule.map((e) => ({ ...e })) } })
    for (const s of [first, again]) for (let step = 1; step <= 3; step++) s.faults.step(step)
    expect(again.trace.hash()).toBe(first.trace.hash())
    expect(() => sim.fork({ seed: 2, faults: { schedule: [...schedule, { step: 0, fault: 'rate_limit' }] } })).toThrow(
      /^fork: option 'faults\.schedule\.2\.step'/,
    )
    expect(() => sim.fork({ seed: 2, faults: { schedule: [{ step: '1' as never, fault: 'rate_limit' }] } })).toThrow(
      /^fork: option 'faults\.schedule\.0\.step'/,
    )
  })

  it('answers a forced 429 with the scheduled rate-limit reason in the prefixed header, and records it in the trace', async () => {
    const sim = createSimulator({
      seed: 1,
      faults: { schedule: [{ step: 1, fault: 'rate_limit', reason: 'endpoint-concurrency' }] },
    })
    sim.faults.step(1)
    const res = await openSession(sim)
    expect(res.status).toBe(429)
    expect(res.headers.get('Service-Rate-Limited-Reason')).toBe('endpoint-concurrency')
    expect((await res.json()).error.code).toBe('rate_limit')
    const fault = sim.trace.filter('fault')[0]
    expect(fault?.data).toMatchObject({ label: 'rate_limit:endpoint-concurrency', source: 'schedule', step: 1 })
    expect((await openSession(sim)).status).toBe(200)
  })

  it('answers a lock timeout with 429 lock_timeout, no request id, no reason and Should-Retry', async () => {
    const sim = createSimulator({ headerPrefix: 'Stripe' })
    sim.faults.inject({ fault: 'lock_timeout' })
    const res = await openSession(sim)
    expect(res.status).toBe(429)
    expect(res.headers.get('Request-Id')).toBeNull()
    expect(res.headers.get('Stripe-Rate-Limited-Reason')).toBeNull()
    expect(res.headers.get('Stripe-Should-Retry')).toBe('true')
    expect((await res.json()).error.code).toBe('lock_timeout')
  })

  it('commits an indeterminate request but rejects the fetch with a TypeError, like a network failure', async () => {
    const sim = createSimulator({ faults: { schedule: [{ step: 1, fault: 'indeterminate' }] } })
    sim.faults.step(1)
    await expect(openSession(sim)).rejects.toThrow(TypeError)
    expect(sim.trace.filter('session.created')).toHaveLength(1)
    expect(sim.trace.filter('fault')[0]?.data.label).toBe('indeterminate')
  })

  it('expires open sessions early, so the next stream request gets 401 billing_meter_event_session_expired', async () => {
    const sim = createSimulator()
    const session = (await (await openSession(sim)).json()) as { authentication_token: string }
    sim.faults.inject({ fault: 'session_expiry' })
    const res = await sim.fetch('https://api.service.test/v2/billing/meter_event_stream', {
      method: 'POST',
      headers: { Authorization: `Bearer ${session.authentication_token}` },
      body: JSON.stringify({ events: [] }),
    })
    expect(res.status).toBe(401)
    expect((await res.json()).error.code).toBe('billing_meter_event_session_expired')
  })

  it('refuses with 409 and 500 without changing state', async () => {
    const sim = createSimulator()
    sim.faults.inject({ fault: 'concurrent_conflict' })
    sim.faults.inject({ fault: 'server_error' })
    expect((await openSession(sim)).status).toBe(409)
    expect((await openSession(sim)).status).toBe(500)
    expect(sim.trace.filter('session.created')).toHaveLength(0)
  })

  it('applies a fault injected through sim.admin.injectFault, the hook scenario runners use', async () => {
    const sim = createSimulator()
    sim.admin.injectFault({ fault: 'server_error' })
    expect((await openSession(sim)).status).toBe(500)
    expect(sim.faults.fired()).toEqual({ server_error: 1 })
    expect(faultLog(sim.trace.entries()).map((f) => [f.step, f.label, f.source])).toEqual([[0, 'server_error', 'inject']])
  })

  it('sets the delivery area knobs from duplicate and reorder rates', () => {
    const sim = createSimulator({ faults: { policy: { rates: { duplicate_delivery: 0.25, reorder_delivery: 0.1 } } } })
    expect(sim.service.delivery.faults).toMatchObject({ duplicateRate: 0.25, reorderWindowMs: 5_000 })
  })

  it('draws realistic faults from the faults stream only, so ids are the same with and without faults', async () => {
    const ids = async (faults: object | undefined) => {
      const sim = createSimulator({ seed: 9, ...(faults ? { faults } : {}) })
      const out: string[] = []
      for (let i = 0; i < 30; i++) {
        const res = await openSession(sim).catch(() => undefined)
        if (res?.ok) out.push(((await res.json()) as { id: string }).id)
      }
      return { out, sim }
    }
    const plain = await ids(undefined)
    const faulty = await ids({ policy: { rates: { server_error: 0.3 } } })
    expect(faulty.sim.trace.filter('fault').length).toBeGreaterThan(0)
    expect(plain.out.slice(0, 3)).toEqual(faulty.out.slice(0, 3))
  })

  it('replays the same fault decisions for the same seed (same trace hash), and swarm mode differs per seed', async () => {
    const run = async (seed: number) => {
      const sim = createSimulator({ seed, faults: { swarm: true } })
      for (let i = 0; i < 40; i++) await openSession(sim).catch(() => undefined)
      return { hash: sim.trace.hash(), rates: JSON.stringify(sim.faults.policy.rates) }
    }
    expect((await run(3)).hash).toBe((await run(3)).hash)
    const rates = new Set([await run(1), await run(2), await run(3), await run(4)].map((r) => r.rates))
    expect(rates.size).toBeGreaterThan(1)
  })
})
