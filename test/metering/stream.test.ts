import { describe, expect, it } from 'vitest'
import { METER_PROCESSING_DELAY } from '../../src/index.js'
import { api, DAY, errorOf, MINUTE, meteringSim } from './helpers.js'

const event = (i: number, over: Record<string, unknown> = {}) => ({
  identifier: `e-${i}`,
  event_name: 'api_call',
  payload: { service_customer_id: 'cus_1', value: '1' },
  ...over,
})
const events = (n: number, from = 0) => Array.from({ length: n }, (_, i) => event(from + i))

describe('meter event sessions', () => {
  it('creates a session valid for exactly 15 minutes', async () => {
    const a = api()
    const s = await a.session()
    expect(s).toMatchObject({ object: 'v2.billing.meter_event_session', livemode: false })
    expect(typeof s.livemode).toBe('boolean')
    expect(Date.parse(s.expires_at) - Date.parse(s.created)).toBe(15 * MINUTE)
    expect(s.authentication_token).toMatch(/^ek_test_/)
  })

  it('accepts the token until 14:59.999 and refuses it at 15:00 exactly with 401 billing_meter_event_session_expired', async () => {
    const a = api()
    await a.meter()
    const s = await a.session()
    await a.sim.clock.tickAsync(15 * MINUTE - 1)
    expect((await a.stream(s.authentication_token, events(1))).status).toBe(200)
    await a.sim.clock.tickAsync(1)
    const error = await errorOf(await a.stream(s.authentication_token, events(1, 1)))
    expect(error).toMatchObject({ status: 401, type: 'temporary_session_expired', code: 'billing_meter_event_session_expired' })
  })

  it('answers 401 to the README quickstart: an expired token with an empty batch', async () => {
    const a = api()
    const s = await a.session()
    await a.sim.clock.tickAsync(15 * MINUTE)
    expect(await errorOf(await a.stream(s.authentication_token, []))).toMatchObject({
      status: 401,
      code: 'billing_meter_event_session_expired',
    })
  })

  it('refuses a secret key on the stream and a session token elsewhere', async () => {
    const a = api()
    await a.meter()
    const s = await a.session()
    expect((await a.stream(a.key, events(1))).status).toBe(401)
    expect((await a.json('/v2/billing/meter_events', event(0), s.authentication_token)).status).toBe(401)
    expect((await a.json('/v2/billing/meter_event_session', {}, s.authentication_token)).status).toBe(401)
  })
})

describe('the meter event stream (POST /v2/billing/meter_event_stream)', () => {
  it('answers {} at once and counts the events only after processing', async () => {
    const a = api()
    const meter = await a.meter()
    const s = await a.session()
    const res = await a.stream(s.authentication_token, events(100))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({})
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(0)
    expect(a.sim.admin.meterStats().pendingEvents).toBe(100)
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.min - 1)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(0)
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' })).toMatchObject({ value: 100, count: 100 })
    expect(a.sim.admin.meterStats()).toMatchObject({ pendingEvents: 0, processedEvents: 100, identifiers: 100 })
  })

  it('accepts 100 events and refuses 101 with a 400 that names the limit', async () => {
    const a = api()
    await a.meter()
    const s = await a.session()
    expect((await a.stream(s.authentication_token, events(100))).status).toBe(200)
    const error = await errorOf(await a.stream(s.authentication_token, events(101, 100)))
    expect(error).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'events' })
    expect(error.message).toContain('100')
    expect(a.sim.admin.meterStats().pendingEvents).toBe(100)
  })

  it('refuses an empty batch with 400 naming events', async () => {
    const a = api()
    const s = await a.session()
    expect(await errorOf(await a.stream(s.authentication_token, []))).toMatchObject({
      status: 400,
      code: 'parameter_invalid',
      param: 'events',
    })
  })

  it.each([
    [{ events: 'x' }, 'parameter_invalid', 'events'],
    [{}, 'parameter_missing', 'events'],
    [{ events: [event(0)], more: 1 }, 'parameter_unknown', 'more'],
    [{ events: [1] }, 'parameter_invalid', 'events.0'],
    [{ events: [event(0), { payload: {} }] }, 'parameter_missing', 'events.1.event_name'],
    [{ events: [{ event_name: 'api_call' }] }, 'parameter_missing', 'events.0.payload'],
    [{ events: [event(0, { timestamp: 'soon' })] }, 'parameter_invalid', 'events.0.timestamp'],
    [{ events: [event(0, { identifier: 7 })] }, 'parameter_invalid', 'events.0.identifier'],
    [{ events: [event(0, { colour: 'red' })] }, 'parameter_unknown', 'events.0.colour'],
  ])('refuses a malformed body %j with 400 %s and accepts none of it', async (body, code, param) => {
    const a = api()
    const s = await a.session()
    const res = await a.sim.fetch('https://meter-events.service.test/v2/billing/meter_event_stream', {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.authentication_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(await errorOf(res)).toMatchObject({ status: 400, code, param })
    expect(a.sim.admin.meterStats().pendingEvents).toBe(0)
  })

  it('reports invalid events asynchronously as error_report_triggered (with the meter) and no_meter_found', async () => {
    const a = api()
    const meter = await a.meter()
    const s = await a.session()
    const batch = [
      event(0),
      event(1, { payload: { service_customer_id: 'cus_1', value: 'x' } }),
      event(2, { payload: { value: '1' } }),
      event(3, { timestamp: new Date(a.sim.clock.now + 6 * MINUTE).toISOString() }),
      event(4, { timestamp: new Date(a.sim.clock.now - 40 * DAY).toISOString() }),
      event(5, { event_name: 'nope' }),
      event(6, { payload: { service_customer_id: 'cus_1' } }),
    ]
    expect((await a.stream(s.authentication_token, batch)).status).toBe(200)
    expect(a.sim.admin.events({ kind: 'thin' })).toHaveLength(0)
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    const [report] = a.sim.admin.events({ type: 'v1.billing.meter.error_report_triggered' })
    expect(report?.body).toMatchObject({
      object: 'v2.core.event',
      related_object: { id: meter.id, type: 'billing.meter', url: `/v1/billing/meters/${meter.id}` },
      data: { reason: { error_count: 5 } },
    })
    const data = report?.body.data as {
      developer_message_summary: string
      reason: { error_types: { code: string; error_count: number }[] }
    }
    expect(data.developer_message_summary).toContain(meter.id)
    expect(Object.fromEntries(data.reason.error_types.map((t) => [t.code, t.error_count]))).toEqual({
      meter_event_invalid_value: 2,
      meter_event_no_customer_defined: 1,
      timestamp_in_future: 1,
      timestamp_too_far_in_past: 1,
    })
    const missing = a.sim.admin.events({ type: 'v1.billing.meter.no_meter_found' })
    expect(missing).toHaveLength(1)
    expect(missing[0]?.body.related_object).toBeUndefined()
    expect(missing[0]?.body.data).toMatchObject({ developer_message_summary: expect.stringContaining("'nope'") })
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).count).toBe(1)
  })

  it('reports events for an inactive meter as archived_meter', async () => {
    const a = api()
    const meter = await a.meter()
    a.sim.admin.deactivateMeter(meter.id)
    const s = await a.session()
    await a.stream(s.authentication_token, events(2))
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    const [report] = a.sim.admin.events({ type: 'v1.billing.meter.error_report_triggered' })
    expect(report?.body).toMatchObject({ data: { reason: { error_types: [{ code: 'archived_meter', error_count: 2 }] } } })
  })

  it('drops repeated identifiers within 24 hours and counts them again afterwards', async () => {
    const a = api()
    const meter = await a.meter()
    let s = await a.session()
    await a.stream(s.authentication_token, [event(0), event(0)])
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(a.sim.admin.meterStats()).toMatchObject({ processedEvents: 1, duplicateEvents: 1 })
    await a.sim.clock.tickAsync(DAY - METER_PROCESSING_DELAY.max - 2 * METER_PROCESSING_DELAY.max)
    s = await a.session()
    await a.stream(s.authentication_token, [event(0)])
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(a.sim.admin.meterStats().duplicateEvents).toBe(2)
    await a.sim.clock.tickAsync(DAY)
    s = await a.session()
    await a.stream(s.authentication_token, [event(0)])
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).count).toBe(2)
  })

  it('shares the 24-hour identifier space with the synchronous endpoint', async () => {
    const a = api()
    await a.meter()
    const s = await a.session()
    await a.stream(s.authentication_token, [event(0)])
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    const error = await errorOf(await a.json('/v2/billing/meter_events', event(0)))
    expect(error.code).toBe('duplicate_meter_event')
  })

  it('processes with the same delays and trace for the same seed', async () => {
    async function run(seed: number) {
      const a = api(meteringSim({ seed }))
      await a.meter()
      const s = await a.session()
      for (let i = 0; i < 5; i++) await a.stream(s.authentication_token, events(10, i * 10))
      await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
      return { hash: a.sim.trace.hash(), at: a.sim.trace.filter('meter_events').map((e) => e.at) }
    }
    const [x, y, z] = [await run(1), await run(1), await run(2)]
    expect(x).toEqual(y)
    expect(x.at).not.toEqual(z.at)
    expect(new Set(x.at).size).toBeGreaterThan(1)
  })
})

describe('the meter-events host', () => {
  it.each([
    ['GET', '/v1/customers', undefined],
    ['POST', '/v2/billing/meter_events', '{"event_name":"api_call","payload":{"service_customer_id":"cus_1","value":"1"}}'],
    ['POST', '/v2/billing/meter_event_session', '{}'],
  ])('answers %s %s there with 404 url_unrecognized and changes nothing', async (method, path, body) => {
    const a = api()
    await a.meter()
    const before = a.sim.trace.filter('event').length
    const res = await a.sim.fetch(`https://meter-events.service.test${path}`, {
      method,
      headers: { Authorization: `Bearer ${a.sim.platform.secretKey.test}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    })
    expect(await errorOf(res)).toMatchObject({ status: 404, code: 'url_unrecognized' })
    expect(a.sim.trace.filter('event').length).toBe(before)
    expect(a.sim.admin.meterStats().pendingEvents).toBe(0)
  })

  it('serves the stream there', async () => {
    const a = api()
    await a.meter()
    const s = await a.session()
    expect((await a.stream(s.authentication_token, events(2))).status).toBe(200)
    expect(a.sim.admin.meterStats().pendingEvents).toBe(2)
  })
})
