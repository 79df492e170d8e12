import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { call, sequential } from './helpers.js'

const REASON = 'service-rate-limited-reason'

describe.each(['test', 'live'] as const)('rate limits in %s mode', (mode) => {
  it('passes the 25th request to one endpoint in a second, refuses the 26th with endpoint-rate, passes again a second later', async () => {
    const sim = createSimulator({ seed: 1 })
    const send = () => call(sim, mode, 'GET', '/v1/account')
    expect(await sequential(25, send)).toEqual(Array(25).fill(200))
    const refused = await send()
    expect(refused.status).toBe(429)
    expect(refused.headers.get(REASON)).toBe('endpoint-rate')
    expect(refused.headers.get('request-id')).toMatch(/^req_/)
    const body = await refused.json()
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'rate_limit' })
    await sim.clock.tickAsync(999)
    expect((await send()).status).toBe(429)
    await sim.clock.tickAsync(1)
    expect((await send()).status).toBe(200)
  })

  it('counts each operation as one endpoint whatever the id in its path', async () => {
    const sim = createSimulator({
      seed: 1,
      limits: {
        rows: [
          { id: 'global-rate.live', max: 1000 },
          { id: 'global-rate.test', max: 1000 },
        ],
      },
    })
    const ids = ['cus_a', 'cus_b', 'cus_c']
    let i = 0
    const statuses = await sequential(26, async () => call(sim, mode, 'GET', `/v1/customers/${ids[i++ % 3]}`))
    // Unknown ids answer 404, but each still counts against customers.retrieve.
    expect(statuses.slice(0, 25).every((s) => s === 404)).toBe(true)
    expect(statuses[25]).toBe(429)
  })
})

describe('global rate', () => {
  it('refuses the 26th request of a second across endpoints in sandbox with global-rate', async () => {
    const sim = createSimulator({ seed: 2 })
    const a = () => call(sim, 'test', 'GET', '/v1/account')
    const b = () => call(sim, 'test', 'GET', `/v1/accounts/${sim.platform.id}`)
    expect(await sequential(13, a)).toEqual(Array(13).fill(200))
    expect(await sequential(12, b)).toEqual(Array(12).fill(200))
    const refused = await a()
    expect(refused.status).toBe(429)
    expect(refused.headers.get(REASON)).toBe('global-rate')
    await sim.clock.tickAsync(1000)
    expect((await b()).status).toBe(200)
  })

  it('refuses the 101st request of a second in live mode with global-rate', async () => {
    const sim = createSimulator({ seed: 2 })
    const paths = ['/v1/account', `/v1/accounts/${sim.platform.id}`, '/v1/balance', '/v1/customers']
    for (const path of paths) {
      expect(await sequential(25, () => call(sim, 'live', 'GET', path))).toEqual(Array(25).fill(200))
    }
    const refused = await call(sim, 'live', 'GET', '/v1/products')
    expect(refused.status).toBe(429)
    expect(refused.headers.get(REASON)).toBe('global-rate')
    await sim.clock.tickAsync(1000)
    expect((await call(sim, 'live', 'GET', '/v1/products')).status).toBe(200)
  })

  it('keeps live and sandbox counts apart', async () => {
    const sim = createSimulator({ seed: 2 })
    await sequential(25, () => call(sim, 'test', 'GET', '/v1/account'))
    expect((await call(sim, 'test', 'GET', '/v1/account')).status).toBe(429)
    expect((await call(sim, 'live', 'GET', '/v1/account')).status).toBe(200)
  })
})

describe('account creation', () => {
  it.each([
    ['live', 30],
    ['test', 5],
  ] as const)('allows %s-mode account creation up to its own limit of %i per second', async (mode, max) => {
    const sim = createSimulator({ seed: 3 })
    const send = () => call(sim, mode, 'POST', '/v1/accounts', { body: { email: 'a@example.com' } })
    expect(await sequential(max, send)).toEqual(Array(max).fill(200))
    const before = sim.admin.accounts().length
    const refused = await send()
    expect(refused.status).toBe(429)
    expect(refused.headers.get(REASON)).toBe('endpoint-rate')
    // A refused request changes no state.
    expect(sim.admin.accounts().length).toBe(before)
    await sim.clock.tickAsync(1000)
    expect((await send()).status).toBe(200)
  })

  it('does not record an idempotency key for a refused request, so its retry runs for real', async () => {
    const sim = createSimulator({ seed: 3 })
    const send = (key?: string) =>
      call(sim, 'test', 'POST', '/v1/accounts', {
        body: { email: 'a@example.com' },
        headers: key ? { 'Idempotency-Key': key } : {},
      })
    await sequential(5, () => send())
    const refused = await send('k1')
    expect(refused.status).toBe(429)
    await sim.clock.tickAsync(1000)
    const retried = await send('k1')
    expect(retried.status).toBe(200)
    expect(retried.headers.get('idempotent-replayed')).toBeNull()
  })
})

describe('v2 endpoints', () => {
  it('answers a rate-limited v2 request with type rate_limit', async () => {
    const sim = createSimulator({ seed: 4 })
    const send = () => call(sim, 'test', 'POST', '/v2/billing/meter_event_session')
    expect(await sequential(25, send)).toEqual(Array(25).fill(200))
    const refused = await send()
    expect(refused.status).toBe(429)
    expect(refused.headers.get(REASON)).toBe('endpoint-rate')
    expect((await refused.json()).error).toMatchObject({ type: 'rate_limit', code: 'rate_limit' })
  })
})

describe('the limits option', () => {
  it('switches every limit off with limits: false', async () => {
    const sim = createSimulator({ seed: 5, limits: false })
    expect(await sequential(60, () => call(sim, 'test', 'GET', '/v1/account'))).toEqual(Array(60).fill(200))
    expect(sim.admin.limitRows()).toEqual([])
  })

  it('changes a default row by id and adds new rows', async () => {
    const sim = createSimulator({
      seed: 5,
      limits: {
        rows: [
          { id: 'endpoint-rate', max: 3 },
          { id: 'balance', scope: 'endpoint', kind: 'rate', max: 1, operations: ['balance.retrieve'] },
        ],
      },
    })
    expect(await sequential(4, () => call(sim, 'test', 'GET', '/v1/account'))).toEqual([200, 200, 200, 429])
    expect(await sequential(2, () => call(sim, 'test', 'GET', '/v1/balance'))).toEqual([200, 429])
  })

  it('drops a default row with off: true', async () => {
    const sim = createSimulator({
      seed: 5,
      limits: {
        rows: [
          { id: 'endpoint-rate', off: true },
          { id: 'global-rate.test', off: true },
        ],
      },
    })
    expect(await sequential(40, () => call(sim, 'test', 'GET', '/v1/account'))).toEqual(Array(40).fill(200))
  })

  it('rejects an invalid limits option with a TypeError naming createSimulator', () => {
    expect(() => createSimulator({ limits: { rows: [{ id: 'endpoint-rate', max: -1 }] } })).toThrow(
      /createSimulator: option 'limits\.rows\.0\.max'/,
    )
    expect(() => createSimulator({ limits: { rows: [{ id: 'brand-new', max: 3 }] } })).toThrow(
      /createSimulator: option 'limits\.rows' row 'brand-new' is new and needs scope, kind and max/,
    )
    expect(() => createSimulator({ limits: true as never })).toThrow(/createSimulator: option 'limits'/)
  })
})

describe('memory over long runs', () => {
  it('forgets the windows of idle keys once they are behind the longest window', async () => {
    const sim = createSimulator({ seed: 30 })
    const limits = sim.service.limits
    if (limits === undefined) throw new Error('limits are on by default')
    for (let i = 0; i < 20; i++) {
      const res = await call(sim, 'test', 'POST', '/v1/payment_intents', { body: { amount: '100', currency: 'usd' } })
      const id = (await res.json()).id
      await call(sim, 'test', 'POST', `/v1/payment_intents/${id}`, { body: { description: 'x' } })
      await sim.clock.tickAsync(1000)
    }
    // 20 payment intents each have a per-object window, plus endpoint and global keys.
    expect(limits.usage().rateKeys).toBeGreaterThanOrEqual(20)
    await sim.clock.tickAsync(2 * 86_400_000)
    await call(sim, 'test', 'GET', '/v1/account')
    expect(limits.usage().rateKeys).toBeLessThanOrEqual(2)
  })
})
