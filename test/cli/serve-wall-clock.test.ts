import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { clockOption } from '../../src/cli/serve-command.js'
import { forwardOptions } from '../../src/cli/serve-forwarding.js'
import { UsageError } from '../../src/cli/usage-error.js'
import { createWallDriver } from '../../src/cli/wall-driver.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'

const stop = (server: SimServer) =>
  new Promise<void>((done) => {
    server.closeAllConnections()
    server.close(() => done())
  })

/** Polls `check` every 20 ms for at most `ms` real milliseconds. */
async function within(ms: number, check: () => Promise<boolean> | boolean): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 20))
  }
  return check()
}

describe('serve --clock wall', () => {
  it('at --speed 300 a session token expires after 15 virtual minutes (3 real seconds) with no admin call', async () => {
    const sim = createSimulator({ seed: 3, start: Date.now() })
    const server = await startHttpServer(sim, { port: 0, adminToken: null, clock: { mode: 'wall', speed: 300 }, tickMs: 20 })
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const key = { Authorization: `Bearer ${sim.platform.secretKey.test}`, 'Content-Type': 'application/json' }
      const session = (await (
        await fetch(`${base}/v2/billing/meter_event_session`, { method: 'POST', headers: key, body: '{}' })
      ).json()) as {
        authentication_token: string
        expires_at: string
      }
      const stream = () =>
        fetch(`${base}/v2/billing/meter_event_stream`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${session.authentication_token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ events: [{ event_name: 'api_call', payload: { service_customer_id: 'cus_1', value: '1' } }] }),
        })
      const first = await stream()
      expect(first.status).not.toBe(401)
      const expired = await within(15_000, async () => (await stream()).status === 401)
      expect(expired).toBe(true)
      const now = Date.parse(((await (await fetch(`${base}/__sim/state`)).json()) as { now: string }).now)
      expect(now).toBeGreaterThanOrEqual(Date.parse(session.expires_at))
    } finally {
      await stop(server)
    }
  })

  it('delivers a webhook by itself, and time travel stays ahead of the wall clock', async () => {
    const sim = createSimulator({ seed: 4, start: Date.now() })
    const url = 'http://127.0.0.1:9/hook'
    sim.service.destinations.create(
      { account: sim.platform.id, mode: 'test' },
      { name: 'h', type: 'webhook_endpoint', event_payload: 'snapshot', enabled_events: ['*'], webhook_endpoint: { url } },
    )
    let got = 0
    sim.receivers.mount(url, () => {
      got++
      return new Response(null, { status: 200 })
    })
    const server = await startHttpServer(sim, { port: 0, adminToken: null, clock: { mode: 'wall', speed: 1 }, tickMs: 20 })
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const post = (path: string, body: unknown) =>
        fetch(`${base}/__sim${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        })
      expect((await post('/events/trigger', { type: 'invoice.paid', synthetic: true })).status).toBe(200)
      expect(await within(3_000, () => got === 1)).toBe(true)
      const before = Date.now()
      const moved = (await (await post('/clock/advance', { duration: '1h' })).json()) as { now: string }
      expect(Date.parse(moved.now)).toBeGreaterThanOrEqual(before + 3_600_000 - 1_000)
      await new Promise((r) => setTimeout(r, 100))
      const later = Date.parse(((await (await fetch(`${base}/__sim/state`)).json()) as { now: string }).now)
      // Still an hour ahead, and moving on from there.
      expect(later - Date.now()).toBeGreaterThan(3_600_000 - 1_000)
      expect(later).toBeGreaterThan(Date.parse(moved.now))
      const arrivals = sim.trace.filter('serve.request')
      expect(arrivals.map((e) => e.data.path)).toContain('/__sim/clock/advance')
    } finally {
      await stop(server)
    }
  })

  it('the driver follows a fake real-time source at its speed and keeps a jump ahead', async () => {
    let real = 1_000_000
    const sim = createSimulator({ seed: 1, start: 0 })
    const driver = createWallDriver(sim, { speed: 60, realNow: () => real })
    real += 1_000
    await driver.sync()
    expect(sim.clock.now).toBe(60_000)
    await driver.jump(() => sim.clock.tickAsync(10_000))
    real += 1_000
    await driver.sync()
    expect(sim.clock.now).toBe(130_000)
  })

  it('parses --clock, --speed, --forward-to and --events, refusing mistakes', () => {
    expect(clockOption(undefined, undefined)).toEqual({ mode: 'wall', speed: 1 })
    expect(clockOption('wall', '3600')).toEqual({ mode: 'wall', speed: 3600 })
    expect(clockOption('manual', undefined)).toEqual({ mode: 'manual' })
    for (const [mode, speed] of [
      ['sundial', undefined],
      ['manual', '2'],
      ['wall', '0'],
      ['wall', '-1'],
      ['wall', 'fast'],
      ['wall', '1e9'],
    ] as const)
      expect(() => clockOption(mode, speed), `${mode} ${speed}`).toThrow(UsageError)
    expect(forwardOptions({ 'forward-to': 'http://localhost:3000/webhooks', events: 'customer.created, invoice.paid' })).toEqual({
      url: 'http://localhost:3000/webhooks',
      events: ['customer.created', 'invoice.paid'],
    })
    expect(forwardOptions({})).toBeUndefined()
    const refused = [
      { 'forward-to': 'https://example.com/hook' },
      { 'forward-to': 'not a url' },
      { events: 'customer.created' },
      { 'forward-to': 'http://127.0.0.1:1/h', events: 'Bad Type' },
      // Thin events have their own option and URL, so an app's one secret verifies every delivery.
      { 'forward-to': 'http://127.0.0.1:1/h', events: 'v1.billing.meter.no_meter_found' },
      { 'forward-thin-to': 'http://127.0.0.1:1/t', 'thin-events': 'customer.created' },
      { 'thin-events': 'v1.billing.meter.no_meter_found' },
    ]
    for (const values of refused) expect(() => forwardOptions(values), JSON.stringify(values)).toThrow(UsageError)
    expect(() => forwardOptions({ 'forward-to': 'https://example.com/hook' })).toThrow(/this machine/)
    expect(() => forwardOptions({ 'forward-to': 'http://127.0.0.1:1/h', events: 'v1.billing.meter.no_meter_found' })).toThrow(
      /--forward-thin-to/,
    )
  })
})
