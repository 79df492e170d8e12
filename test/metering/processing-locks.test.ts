import { describe, expect, it } from 'vitest'
import { createSimulator, METER_PROCESSING_DELAY } from '../../src/index.js'
import { api, MINUTE } from './helpers.js'

describe('meter event processing and object locks', () => {
  it('waits while an internal holder keeps the meter locked, then counts the usage', async () => {
    const a = api(createSimulator({ seed: 5 }))
    const meter = await a.meter()
    a.sim.admin.holdLock(meter.id, 10 * MINUTE)
    const res = await a.json('/v2/billing/meter_events', {
      event_name: 'api_call',
      payload: { service_customer_id: 'cus_1', value: '4' },
    })
    expect(res.status).toBe(200)
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(0)
    expect(a.sim.trace.filter('meter_events.waiting').length).toBeGreaterThan(0)
    await a.sim.clock.tickAsync(10 * MINUTE)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(4)
  })

  it('holds stream batches for a locked meter too, and processes them once it is free', async () => {
    const a = api(createSimulator({ seed: 6 }))
    const meter = await a.meter()
    const session = await (await a.json('/v2/billing/meter_event_session', {})).json()
    a.sim.admin.holdLock(meter.id, 5 * MINUTE)
    const events = [1, 2, 3].map((i) => ({
      identifier: `s-${i}`,
      event_name: 'api_call',
      payload: { service_customer_id: 'cus_2', value: '2' },
    }))
    const res = await a.sim.fetch('https://meter-events.service.test/v2/billing/meter_event_stream', {
      method: 'POST',
      headers: { Authorization: `Bearer ${session.authentication_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ events }),
    })
    expect(res.status).toBe(200)
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_2' }).value).toBe(0)
    await a.sim.clock.tickAsync(5 * MINUTE)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_2' }).value).toBe(6)
  })
})
