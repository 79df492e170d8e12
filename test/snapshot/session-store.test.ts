import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { json } from './helpers.js'

interface Session {
  id: string
  authentication_token: string
  expires_at: string
}

async function openSession(sim: Simulator): Promise<Session> {
  return (await (await json(sim, '/v2/billing/meter_event_session', {})).json()) as Session
}

const oneEvent = { events: [{ event_name: 'api_call', payload: { service_customer_id: 'cus_1', value: '1' } }] }

function stream(sim: Simulator, token: string): Promise<number> {
  return json(sim, '/v2/billing/meter_event_stream', oneEvent, token, 'meter-events').then((r) => r.status)
}

function reload(sim: Simulator): Simulator {
  return createSimulator({ from: JSON.parse(JSON.stringify(sim.snapshot())) })
}

describe('meter event sessions in a snapshot', () => {
  it('carries each session once, as the API shows it, and its token still opens the stream after a load', async () => {
    const sim = createSimulator({ seed: 3 })
    const session = await openSession(sim)
    const state = (sim.snapshot() as unknown as { state: Record<string, unknown> }).state
    const holding = Object.keys(state).filter((part) => JSON.stringify(state[part]).includes(session.authentication_token))
    expect(holding).toEqual(['engine.v2.billing.meter_event_session'])
    expect(JSON.stringify(state)).toContain(JSON.stringify(session))
    const loaded = reload(sim)
    expect(await stream(loaded, session.authentication_token)).toBe(200)
    const again = await openSession(loaded)
    expect(await stream(loaded, again.authentication_token)).toBe(200)
    expect(await stream(loaded, 'ek_test_unknown')).toBe(401)
  })

  it('keeps a session ended early by the expiry fault ended after a load, with expires_at brought forward', async () => {
    const sim = createSimulator({ seed: 4 })
    const session = await openSession(sim)
    await sim.service.kernel.scheduler.advance(sim.clock.now + 60_000)
    sim.admin.expireSession(session.id)
    const saved = JSON.stringify((sim.snapshot() as unknown as { state: unknown }).state)
    expect(saved).toContain(`"expires_at":"${new Date(sim.clock.now).toISOString()}"`)
    const loaded = reload(sim)
    const refused = await json(
      loaded,
      '/v2/billing/meter_event_stream',
      { events: [] },
      session.authentication_token,
      'meter-events',
    )
    expect(refused.status).toBe(401)
    expect(JSON.stringify(await refused.json())).toContain('billing_meter_event_session_expired')
  })

  it('forgets a session a day after it expired, in a loaded simulator too: the token then answers as unknown', async () => {
    const sim = createSimulator({ seed: 5 })
    const session = await openSession(sim)
    const loaded = reload(sim)
    await loaded.service.kernel.scheduler.advance(loaded.clock.now + 15 * 60_000 + 86_400_000 + 1)
    const refused = await json(
      loaded,
      '/v2/billing/meter_event_stream',
      { events: [] },
      session.authentication_token,
      'meter-events',
    )
    expect(refused.status).toBe(401)
    expect(JSON.stringify(await refused.json())).not.toContain('billing_meter_event_session_expired')
    const state = (loaded.snapshot() as unknown as { state: unknown }).state
    expect(JSON.stringify(state)).not.toContain(session.authentication_token)
  })

  it('lets the early-expiry fault end the sessions a loaded simulator holds, oldest first, the ones already expired left out', async () => {
    const sim = createSimulator({ seed: 6 })
    const old = await openSession(sim)
    await sim.service.kernel.scheduler.advance(sim.clock.now + 16 * 60_000)
    const first = await openSession(sim)
    const second = await openSession(sim)
    const state = (sim.snapshot() as unknown as { state: Record<string, unknown> }).state
    // The fault engine keeps no copy of the sessions: they are in the engine's store only.
    expect(JSON.stringify(state.faults)).not.toContain(first.id)
    const loaded = reload(sim)
    loaded.faults.inject({ fault: 'session_expiry' })
    expect(loaded.trace.filter('fault').at(-1)?.data.sessions).toEqual([first.id, second.id])
    expect(loaded.trace.filter('session.expired').map((e) => e.data.id)).toEqual([first.id, second.id])
    for (const s of [old, first, second]) {
      const refused = await json(loaded, '/v2/billing/meter_event_stream', { events: [] }, s.authentication_token, 'meter-events')
      expect(refused.status).toBe(401)
      expect(JSON.stringify(await refused.json())).toContain('billing_meter_event_session_expired')
    }
  })
})
