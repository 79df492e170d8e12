import { describe, expect, it } from 'vitest'
import { withAdminApi } from '../../src/cli/admin-api.js'
import { METER_PROCESSING_DELAY } from '../../src/index.js'
import { api, DAY } from '../metering/helpers.js'

const P = METER_PROCESSING_DELAY.max

describe('sim.admin.billedUsage', () => {
  it('reports usage per meter and month: processed, pending and cancelled', async () => {
    const a = api()
    const meter = await a.meter()
    const send = (identifier: string, value: string, at?: number) =>
      a.json('/v2/billing/meter_events', {
        event_name: 'api_call',
        identifier,
        payload: { service_customer_id: 'cus_1', value },
        ...(at === undefined ? {} : { timestamp: new Date(at).toISOString() }),
      })
    // 2026-01-01: two events, one of them cancelled later; then a month on, one more pending.
    expect((await send('e1', '5')).status).toBe(200)
    expect((await send('e2', '7')).status).toBe(200)
    await a.sim.clock.tickAsync(P)
    await a.json('/v2/billing/meter_event_adjustments', { event_name: 'api_call', type: 'cancel', cancel: { identifier: 'e2' } })
    await a.sim.clock.tickAsync(P)
    await a.sim.clock.tickAsync(31 * DAY)
    expect((await send('e3', '4')).status).toBe(200)
    const usage = a.sim.admin.billedUsage({ customer: 'cus_1' })
    expect(usage.customer).toBe('cus_1')
    expect(usage.meters).toHaveLength(1)
    const [m] = usage.meters
    expect(m?.meter).toBe(meter.id)
    expect(
      m?.periods.map((p) => [new Date(p.start).toISOString().slice(0, 10), p.value, p.count, p.pendingEvents, p.cancelledEvents]),
    ).toEqual([
      ['2026-01-01', 5, 1, 0, 1],
      ['2026-02-01', 0, 0, 1, 0],
    ])
    expect(m?.periods[0]?.cancelledValue).toBe(7)
    expect(m?.periods[1]?.pendingValue).toBe(4)
    await a.sim.clock.tickAsync(P)
    const after = a.sim.admin.billedUsage({ customer: 'cus_1', periods: [{ start: 0, end: a.sim.clock.now + 1 }] })
    expect(after.meters[0]?.periods[0]).toMatchObject({ value: 9, count: 2, pendingEvents: 0, cancelledEvents: 1, invoices: [] })
  })

  it('counts pending stream events that will count (not duplicates, not invalid)', async () => {
    const a = api()
    await a.meter()
    const session = await a.session()
    const res = await a.stream(session.authentication_token, [
      { event_name: 'api_call', identifier: 's1', payload: { service_customer_id: 'cus_1', value: '2' } },
      { event_name: 'api_call', identifier: 's1', payload: { service_customer_id: 'cus_1', value: '2' } },
      { event_name: 'api_call', identifier: 's2', payload: { service_customer_id: 'cus_1', value: '0' } },
      { event_name: 'api_call', identifier: 's3', payload: { service_customer_id: 'cus_2', value: '9' } },
    ])
    expect(res.status).toBe(200)
    const period = a.sim.admin.billedUsage({ customer: 'cus_1' }).meters[0]?.periods[0]
    expect(period).toMatchObject({ value: 0, pendingEvents: 1, pendingValue: 2 })
    await a.sim.clock.tickAsync(P)
    expect(a.sim.admin.billedUsage({ customer: 'cus_1' }).meters[0]?.periods[0]).toMatchObject({ value: 2, pendingEvents: 0 })
  })

  it('is served as GET /__sim/billing/usage', async () => {
    const a = api()
    await a.meter()
    await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: { service_customer_id: 'cus_1', value: '3' } })
    await a.sim.clock.tickAsync(P)
    const handler = withAdminApi(a.sim)
    const res = await handler(new Request('http://127.0.0.1/__sim/billing/usage?customer=cus_1'))
    expect(res.status).toBe(200)
    const body = (await res.json()) as { meters: { periods: { value: number }[] }[] }
    expect(body.meters[0]?.periods[0]?.value).toBe(3)
    const bad = await handler(new Request('http://127.0.0.1/__sim/billing/usage'))
    expect(bad.status).toBe(400)
    const missing = await handler(new Request('http://127.0.0.1/__sim/billing/usage?customer=cus_1&meter=mtr_nope'))
    expect(missing.status).toBe(404)
  })
})
