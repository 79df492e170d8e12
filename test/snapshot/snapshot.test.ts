import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { form, HOOK_URL, json, receiver, run, type Step, setUp, stepArb } from './helpers.js'

/** A snapshot taken now, written as JSON and read back: what a file would carry. */
function throughJson(sim: Simulator): Simulator {
  const loaded = createSimulator({ from: JSON.parse(JSON.stringify(sim.snapshot())) })
  loaded.receivers.mount(HOOK_URL, receiver)
  return loaded
}

async function runAll(sim: Simulator, steps: readonly Step[]): Promise<string[]> {
  const out: string[] = []
  for (const s of steps) out.push(await run(sim, s))
  out.push(String(sim.service.kernel.scheduler.pending))
  return out
}

describe('snapshot, load and fork continue a simulation exactly', () => {
  it('gives the same responses and trace hash after the snapshot point, through JSON and by fork (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(stepArb, { minLength: 1, maxLength: 12 }),
        fc.array(stepArb, { minLength: 1, maxLength: 12 }),
        async (seed, before, after) => {
          const original = await setUp(seed)
          await runAll(original, before)
          const loaded = throughJson(original)
          const forked = original.fork()
          expect(loaded.trace.hash()).toBe(original.trace.hash())
          expect(forked.trace.hash()).toBe(original.trace.hash())
          const a = await runAll(original, after)
          const b = await runAll(loaded, after)
          const c = await runAll(forked, after)
          expect(b).toEqual(a)
          expect(c).toEqual(a)
          expect(loaded.trace.hash()).toBe(original.trace.hash())
          expect(forked.trace.hash()).toBe(original.trace.hash())
          expect(loaded.trace.length).toBe(original.trace.length)
          // And the continued runs snapshot again to the same data.
          expect(JSON.stringify(loaded.snapshot())).toBe(JSON.stringify(original.snapshot()))
        },
      ),
      { numRuns: 40, seed: 17 },
    )
  }, 120_000)

  it('carries pending work: a delivery retry due in about 1 h, a meter event not yet processed, a session about to expire', async () => {
    const sim = await setUp(5)
    await form(sim, '/v1/customers', { name: 'flaky one' })
    await sim.settle() // first attempt fails: a retry is scheduled
    const record = sim.admin.deliveries()[0]
    expect(record?.status).toBe('Pending')
    expect(record?.nextAttemptAt).toBeGreaterThan(sim.clock.now)
    const customer = sim.service.customers.list({ account: sim.platform.id, mode: 'test' })[0]
    await json(sim, '/v2/billing/meter_events', {
      event_name: 'api_call',
      payload: { service_customer_id: String(customer?.id), value: '7' },
    })
    const session = (await (await json(sim, '/v2/billing/meter_event_session', {})).json()) as { authentication_token: string }
    await sim.service.kernel.scheduler.advance(sim.clock.now + 14 * 60_000)
    // Not processed yet? Send another one now, whose processing is pending at the snapshot.
    const later = await json(sim, '/v2/billing/meter_events', {
      event_name: 'api_call',
      payload: { service_customer_id: String(customer?.id), value: '5' },
    })
    expect(later.status, await later.text()).toBe(200)
    expect(sim.service.meterEvents.stats().pendingEvents).toBe(1)
    const snapshot = JSON.parse(JSON.stringify(sim.snapshot()))
    expect(snapshot.tasks.map((t: { kind: string }) => t.kind)).toEqual(
      expect.arrayContaining(['delivery.retry', 'delivery.horizon', 'meter_event.process', 'session.forget']),
    )
    const loaded = createSimulator({ from: snapshot })
    loaded.receivers.mount(HOOK_URL, receiver)
    const stream = (s: Simulator) =>
      json(s, '/v2/billing/meter_event_stream', { events: [] }, session.authentication_token, 'meter-events').then(
        (r) => r.status,
      )
    for (const s of [sim, loaded]) {
      await s.service.kernel.scheduler.advance(s.clock.now + 2 * 60_000)
      expect(s.service.meterEvents.stats().pendingEvents).toBe(0)
      expect(await stream(s)).toBe(401) // expired after 15 minutes
      await s.service.kernel.scheduler.advance(s.clock.now + 2 * 3_600_000)
      expect(s.admin.deliveries()[0]?.attempts.length).toBeGreaterThan(1)
    }
    expect(loaded.trace.hash()).toBe(sim.trace.hash())
    expect(loaded.admin.deliveries()).toEqual(sim.admin.deliveries())
  })

  it('keeps the original and the fork independent', async () => {
    const sim = await setUp(9)
    await form(sim, '/v1/customers', { name: 'ann' })
    await sim.settle()
    const fork = sim.fork()
    const id = String(sim.service.customers.list({ account: sim.platform.id, mode: 'test' })[0]?.id)
    await form(fork, `/v1/customers/${id}`, { name: 'changed in the fork' })
    await form(fork, '/v1/customers', { name: 'only in the fork' })
    fork.admin.createAccount()
    await fork.settle()
    const names = (s: Simulator) => s.service.customers.list({ account: s.platform.id, mode: 'test' }).map((c) => c.name)
    expect(names(sim)).toEqual(['ann'])
    expect(names(fork)).toEqual(['only in the fork', 'changed in the fork'])
    expect(sim.admin.accounts()).toHaveLength(1)
    expect(sim.admin.deliveries()).toHaveLength(1)
    expect(fork.admin.deliveries()).toHaveLength(3)
    expect(sim.trace.hash()).not.toBe(fork.trace.hash())
    // A snapshot is detached too: the simulator changing afterwards does not change it.
    const snap = sim.snapshot()
    const text = JSON.stringify(snap)
    await form(sim, `/v1/customers/${id}`, { name: 'later' })
    await sim.service.kernel.scheduler.advance(sim.clock.now + 3_600_000)
    expect(JSON.stringify(snap)).toBe(text)
  })

  it("keeps a fork's accounts and rate-limit windows its own", async () => {
    const sim = createSimulator({ seed: 12 })
    const connected = sim.admin.createAccount({ email: 'c@example.com' })
    await form(sim, '/v1/customers', { name: 'before' })
    const fork = sim.fork()
    fork.admin.setApiVersion(connected.id, '2024-06-20')
    fork.admin.createOrganisation({ accounts: [fork.platform.id, connected.id] })
    expect(sim.admin.account(connected.id)?.apiVersion).toBe(connected.apiVersion)
    expect(sim.admin.account(connected.id)?.organisation).toBeUndefined()
    expect(sim.admin.account(sim.platform.id)?.organisation).toBeUndefined()
    // The fork spends the second's write allowance; the original's window is untouched.
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) statuses.push((await form(fork, '/v1/customers', { name: `f${i}` })).status)
    expect(statuses).toContain(429)
    expect((await form(sim, '/v1/customers', { name: 'after' })).status).toBe(200)
  })

  it('continues the trace hash of a trace with a limit (entries dropped before the snapshot)', async () => {
    const sim = createSimulator({ seed: 1, traceLimit: 10 })
    for (let i = 0; i < 40; i++) await form(sim, '/v1/customers', { name: `c${i}` })
    const loaded = createSimulator({ from: JSON.parse(JSON.stringify(sim.snapshot())) })
    expect(loaded.trace.hash()).toBe(sim.trace.hash())
    expect(loaded.trace.entries()).toHaveLength(10)
    for (const s of [sim, loaded]) await form(s, '/v1/customers', { name: 'next' })
    expect(loaded.trace.hash()).toBe(sim.trace.hash())
    expect(sim.fork().trace.hash()).toBe(sim.trace.hash())
  })

  it('carries the trace hash across a JSON snapshot when hundreds of kilobytes were trimmed', async () => {
    const sim = createSimulator({ seed: 1, traceLimit: 5 })
    // Large bodies: the trimmed records span several folded batches of the digest chain.
    for (let i = 0; i < 60; i++) await form(sim, '/v1/customers', { name: `c${i}`, description: 'x'.repeat(5000) })
    const loaded = createSimulator({ from: JSON.parse(JSON.stringify(sim.snapshot())) })
    const forked = sim.fork()
    for (const s of [sim, loaded, forked]) await form(s, '/v1/customers', { name: 'next' })
    expect(loaded.trace.hash()).toBe(sim.trace.hash())
    expect(forked.trace.hash()).toBe(sim.trace.hash())
  })

  it('refuses clearly: a request in flight, a pending closure task, options beside from, not a snapshot', async () => {
    const sim = createSimulator({ seed: 2, serviceTime: 1000 })
    const pending = sim.fetch('https://api.service.test/v1/customers', {
      method: 'POST',
      headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` },
    })
    await Promise.resolve()
    expect(() => sim.snapshot()).toThrow(/in flight/)
    expect(() => sim.fork()).toThrow(/in flight/)
    await pending
    await sim.settle()
    sim.snapshot()
    sim.service.kernel.scheduler.after(1000, 'my.closure', () => {})
    expect(() => sim.snapshot()).toThrow(/'my\.closure'/)
    expect(() => createSimulator({ from: { nope: true } as never })).toThrow(/not a snapshot/)
    const ok = createSimulator({ seed: 3 }).snapshot()
    expect(() => createSimulator({ from: ok, seed: 4 })).toThrow(/'seed' cannot be given with 'from'/)
    const bad = { ...ok, state: { ...ok.state, 'billing.unknown': {} } }
    expect(() => createSimulator({ from: bad })).toThrow(/'billing\.unknown' are not known/)
  })

  it('keeps the options and the virtual time; receivers are not carried by a snapshot but are by fork', async () => {
    const sim = createSimulator({ seed: 'x', headerPrefix: 'Stripe', start: '2026-05-01T00:00:00Z' })
    sim.receivers.mount(HOOK_URL, receiver)
    await sim.service.kernel.scheduler.advance(sim.clock.now + 12_345)
    const snap = sim.snapshot()
    expect(snap.receivers).toEqual([HOOK_URL])
    const loaded = createSimulator({ from: snap })
    expect(loaded.clock.now).toBe(sim.clock.now)
    expect(loaded.seed).toBe('x')
    expect(loaded.platform.id).toBe(sim.platform.id)
    expect(loaded.receivers.urls()).toEqual([])
    expect(sim.fork().receivers.urls()).toEqual([HOOK_URL])
  })
})
