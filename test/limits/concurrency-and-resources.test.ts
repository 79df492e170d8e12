import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { call, sequential } from './helpers.js'

const REASON = 'service-rate-limited-reason'

describe('global concurrency', () => {
  it.each([
    ['live', []],
    ['test', [{ id: 'global-concurrency.test', scope: 'account', kind: 'concurrency', mode: 'test', max: 50 } as const]],
  ] as const)(
    'admits 50 requests in flight at once in %s mode and refuses the 51st with global-concurrency',
    async (mode, rows) => {
      // Sandbox has no default concurrency limit (the spec states live only), so the test adds one.
      const sim = createSimulator({ seed: 6, limits: { rows: [...rows, { id: 'global-rate.test', max: 100 }] } })
      const paths = ['/v1/account', '/v1/balance', '/v1/customers']
      const responses = await Promise.all(Array.from({ length: 51 }, (_, i) => call(sim, mode, 'GET', paths[i % 3] as string)))
      expect(responses.slice(0, 50).map((r) => r.status)).toEqual(Array(50).fill(200))
      const last = responses[50] as Response
      expect(last.status).toBe(429)
      expect(last.headers.get(REASON)).toBe('global-concurrency')
      // Once they have left, the slots are free again (same virtual second, within the rate limits).
      expect((await call(sim, mode, 'GET', '/v1/products')).status).toBe(200)
    },
  )

  it('does not count requests answered one after another as concurrent', async () => {
    const sim = createSimulator({ seed: 6, limits: { rows: [{ id: 'global-concurrency.live', max: 1 }] } })
    expect(await sequential(5, () => call(sim, 'live', 'GET', '/v1/account'))).toEqual(Array(5).fill(200))
  })
})

describe('endpoint concurrency', () => {
  it.each(['test', 'live'] as const)('refuses a third in-flight call to an endpoint limited to 2 in %s mode', async (mode) => {
    const sim = createSimulator({
      seed: 7,
      limits: {
        rows: [{ id: 'account-self', scope: 'endpoint', kind: 'concurrency', max: 2, operations: ['accounts.retrieveCurrent'] }],
      },
    })
    const responses = await Promise.all([
      call(sim, mode, 'GET', '/v1/account'),
      call(sim, mode, 'GET', '/v1/balance'),
      call(sim, mode, 'GET', '/v1/account'),
      call(sim, mode, 'GET', '/v1/account'),
    ])
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429])
    expect(responses[3]?.headers.get(REASON)).toBe('endpoint-concurrency')
    expect((await call(sim, mode, 'GET', '/v1/account')).status).toBe(200)
  })

  it('keeps a request in flight for its service time', async () => {
    const sim = createSimulator({
      seed: 7,
      serviceTime: 500,
      limits: {
        rows: [{ id: 'account-self', scope: 'endpoint', kind: 'concurrency', max: 1, operations: ['accounts.retrieveCurrent'] }],
      },
    })
    const first = call(sim, 'test', 'GET', '/v1/account')
    const second = await call(sim, 'test', 'GET', '/v1/account')
    expect(second.status).toBe(429)
    expect(second.headers.get(REASON)).toBe('endpoint-concurrency')
    expect((await first).status).toBe(200)
    expect((await call(sim, 'test', 'GET', '/v1/account')).status).toBe(200)
  })
})

describe('resource-specific limits', () => {
  async function paymentIntent(sim: ReturnType<typeof createSimulator>, mode: 'test' | 'live'): Promise<string> {
    const res = await call(sim, mode, 'POST', '/v1/payment_intents', { body: { amount: '1000', currency: 'usd' } })
    expect(res.status).toBe(200)
    return (await res.json()).id
  }

  it.each(['test', 'live'] as const)('limits updates per payment intent per hour in %s mode', async (mode) => {
    // The default row (1,000 per hour) with a smaller maximum, so the boundary is quick to reach.
    const sim = createSimulator({ seed: 8, limits: { rows: [{ id: 'payment_intent.updates', max: 3 }] } })
    const pi = await paymentIntent(sim, mode)
    const other = await paymentIntent(sim, mode)
    const update = (id: string, description: string) =>
      call(sim, mode, 'POST', `/v1/payment_intents/${id}`, { body: { description } })
    expect(await sequential(3, () => update(pi, 'ok'))).toEqual([200, 200, 200])
    const refused = await update(pi, 'refused')
    expect(refused.status).toBe(429)
    expect(refused.headers.get(REASON)).toBe('resource-specific')
    // Nothing was processed.
    const current = await call(sim, mode, 'GET', `/v1/payment_intents/${pi}`)
    expect((await current.json()).description).toBe('ok')
    // Another object has its own count; reads of the object do not count.
    expect((await update(other, 'ok')).status).toBe(200)
    await sim.clock.tickAsync(60 * 60_000)
    expect((await update(pi, 'later')).status).toBe(200)
  })

  it('counts every endpoint of a resource together', async () => {
    const sim = createSimulator({
      seed: 8,
      limits: { rows: [{ id: 'customers.all', scope: 'resource', kind: 'rate', max: 3, operations: ['customers.*'] }] },
    })
    const created = await call(sim, 'test', 'POST', '/v1/customers', { body: { email: 'a@example.com' } })
    const id = (await created.json()).id
    expect((await call(sim, 'test', 'GET', `/v1/customers/${id}`)).status).toBe(200)
    expect((await call(sim, 'test', 'GET', '/v1/customers')).status).toBe(200)
    const refused = await call(sim, 'test', 'POST', `/v1/customers/${id}`, { body: { email: 'b@example.com' } })
    expect(refused.status).toBe(429)
    expect(refused.headers.get(REASON)).toBe('resource-specific')
    expect((await call(sim, 'test', 'GET', '/v1/account')).status).toBe(200)
  })
})

describe('meter events in live mode', () => {
  it('do not count against the global rate', async () => {
    const sim = createSimulator({ seed: 9, limits: { rows: [{ id: 'global-rate.live', max: 2 }] } })
    const session = () => call(sim, 'live', 'POST', '/v2/billing/meter_event_session')
    expect(await sequential(2, session)).toEqual([200, 200])
    expect((await session()).headers.get(REASON)).toBe('global-rate')
    // Synchronous meter events have their own live limit: refused for an unknown meter (400), not 429.
    const events = await sequential(5, () =>
      call(sim, 'live', 'POST', '/v2/billing/meter_events', {
        body: { event_name: 'nope', payload: { service_customer_id: 'cus_1', value: '1' } },
      }),
    )
    expect(events).toEqual(Array(5).fill(400))
  })
})
