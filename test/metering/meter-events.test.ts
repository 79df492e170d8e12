import { describe, expect, it } from 'vitest'
import { METER_PROCESSING_DELAY } from '../../src/index.js'
import { api, DAY, errorOf, MINUTE, meteringSim } from './helpers.js'

const payload = (customer = 'cus_1', value: unknown = '5') => ({ service_customer_id: customer, value })

describe('synchronous meter events (POST /v2/billing/meter_events)', () => {
  it('answers a MeterEvent with every field of the spec', async () => {
    const a = api()
    await a.meter()
    const res = await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload(), identifier: 'evt-1' })
    expect(res.status).toBe(200)
    const now = new Date(a.sim.clock.now).toISOString()
    expect(await res.json()).toEqual({
      object: 'v2.billing.meter_event',
      created: now,
      event_name: 'api_call',
      identifier: 'evt-1',
      livemode: false,
      payload: { service_customer_id: 'cus_1', value: '5' },
      timestamp: now,
    })
  })

  it('generates an identifier when omitted and keeps a given timestamp', async () => {
    const a = api()
    await a.meter()
    const timestamp = new Date(a.sim.clock.now - 3_600_000).toISOString()
    const body = await (
      await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload(), timestamp })
    ).json()
    expect(body.identifier).toMatch(/^mev_/)
    expect(body.timestamp).toBe(timestamp)
  })

  it('counts an event only once it is processed', async () => {
    const a = api()
    const meter = await a.meter()
    await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload('cus_1', '7') })
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(0)
    expect(a.sim.admin.meterStats().pendingEvents).toBe(1)
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' })).toMatchObject({ value: 7, count: 1 })
  })

  it.each([
    ['no_meter', { event_name: 'unknown', payload: payload() }, 'event_name'],
    ['payload_no_customer_defined', { event_name: 'api_call', payload: { value: '5' } }, 'payload.service_customer_id'],
    ['payload_no_value_defined', { event_name: 'api_call', payload: { service_customer_id: 'cus_1' } }, 'payload.value'],
    ['payload_invalid_value', { event_name: 'api_call', payload: payload('cus_1', '0') }, 'payload.value'],
    ['payload_invalid_value', { event_name: 'api_call', payload: payload('cus_1', '-3') }, 'payload.value'],
    ['payload_invalid_value', { event_name: 'api_call', payload: payload('cus_1', '2.5') }, 'payload.value'],
    ['payload_invalid_value', { event_name: 'api_call', payload: payload('cus_1', 'ten') }, 'payload.value'],
  ])('refuses with 400 %s (%j) and changes nothing', async (code, body, param) => {
    const a = api()
    const meter = await a.meter()
    const error = await errorOf(await a.json('/v2/billing/meter_events', body))
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', code, param })
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(a.sim.admin.meterStats()).toMatchObject({ pendingEvents: 0, processedEvents: 0, identifiers: 0 })
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).count).toBe(0)
  })

  it.each([
    ['a JSON number value', payload('cus_1', 4), 'payload.value', 'Invalid string: 4'],
    ['a boolean value', payload('cus_1', true), 'payload.value', 'Invalid string: true'],
    ['a numeric customer', { service_customer_id: 7, value: '5' }, 'payload.service_customer_id', 'Invalid string: 7'],
    ['a null extra key', { ...payload(), region: null }, 'payload.region', 'Invalid string: null'],
  ])(
    'refuses a payload holding %s with 400 parameter_invalid (payload is a map of strings) and records nothing',
    async (_, body, param, message) => {
      const a = api()
      await a.meter()
      const error = await errorOf(await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: body }))
      expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'parameter_invalid', param, message })
      await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
      expect(a.sim.admin.meterStats()).toMatchObject({ pendingEvents: 0, processedEvents: 0, identifiers: 0 })
    },
  )

  it('refuses events for an inactive meter with archived_meter, and accepts them after reactivation', async () => {
    const a = api()
    const meter = await a.meter()
    await a.form(`/v1/billing/meters/${meter.id}/deactivate`, {})
    const error = await errorOf(await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload() }))
    expect(error).toMatchObject({ status: 400, code: 'archived_meter' })
    await a.form(`/v1/billing/meters/${meter.id}/reactivate`, {})
    expect((await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload() })).status).toBe(200)
  })

  it('uses the meter’s own payload keys', async () => {
    const a = api()
    await a.meter({
      'customer_mapping[event_payload_key]': 'cust',
      'customer_mapping[type]': 'by_id',
      'value_settings[event_payload_key]': 'n',
    })
    const ok = await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: { cust: 'cus_1', n: '3' } })
    expect(ok.status).toBe(200)
    const error = await errorOf(await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload() }))
    expect(error).toMatchObject({ code: 'payload_no_customer_defined', param: 'payload.cust' })
  })

  it('lets a count meter take events without a value', async () => {
    const a = api()
    const meter = await a.meter({ 'default_aggregation[formula]': 'count' })
    expect(
      (await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: { service_customer_id: 'cus_1' } })).status,
    ).toBe(200)
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(1)
  })

  it.each([
    [{ payload: payload() }, 'parameter_missing', 'event_name'],
    [{ event_name: 'api_call' }, 'parameter_missing', 'payload'],
    [{ event_name: 'api_call', payload: payload(), extra: 1 }, 'parameter_unknown', 'extra'],
    [{ event_name: 'api_call', payload: payload(), timestamp: 'yesterday' }, 'parameter_invalid', 'timestamp'],
    [{ event_name: 'api_call', payload: payload(), identifier: '' }, 'parameter_invalid_empty', 'identifier'],
  ])('refuses a malformed body %j with 400 %s', async (body, code, param) => {
    const a = api()
    await a.meter()
    expect(await errorOf(await a.json('/v2/billing/meter_events', body))).toMatchObject({ status: 400, code, param })
  })

  it('accepts timestamps back to midnight UTC 35 calendar days ago and refuses a millisecond earlier', async () => {
    const a = api(meteringSim({ start: '2026-03-10T12:00:00.000Z' }))
    await a.meter()
    const send = (timestamp: string, identifier: string) =>
      a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload(), timestamp, identifier })
    expect((await send('2026-02-03T00:00:00.000Z', 'oldest')).status).toBe(200)
    const error = await errorOf(await send('2026-02-02T23:59:59.999Z', 'too-old'))
    expect(error).toMatchObject({ status: 400, code: 'timestamp_too_far_in_past', param: 'timestamp' })
  })

  it('accepts timestamps up to 5 minutes ahead and refuses a millisecond more', async () => {
    const a = api()
    await a.meter()
    const at = (ms: number) => new Date(a.sim.clock.now + ms).toISOString()
    expect(
      (await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload(), timestamp: at(5 * MINUTE) }))
        .status,
    ).toBe(200)
    const error = await errorOf(
      await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload(), timestamp: at(5 * MINUTE + 1) }),
    )
    expect(error).toMatchObject({ status: 400, code: 'timestamp_in_future', param: 'timestamp' })
  })

  it('refuses a repeated identifier for 24 hours of virtual time, then accepts it again', async () => {
    const a = api()
    await a.meter()
    const send = () => a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload(), identifier: 'once' })
    expect((await send()).status).toBe(200)
    expect(await errorOf(await send())).toMatchObject({ status: 400, code: 'duplicate_meter_event', param: 'identifier' })
    await a.sim.clock.tickAsync(DAY - 1)
    expect((await errorOf(await send())).code).toBe('duplicate_meter_event')
    await a.sim.clock.tickAsync(1)
    expect((await send()).status).toBe(200)
  })

  it('forgets identifiers after 24 hours so the index stays bounded', async () => {
    const a = api()
    await a.meter()
    for (let i = 0; i < 5; i++) {
      await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload(), identifier: `id-${i}` })
    }
    expect(a.sim.admin.meterStats().identifiers).toBe(5)
    await a.sim.clock.tickAsync(DAY)
    expect(a.sim.admin.meterStats().identifiers).toBe(0)
  })

  it('keeps identifiers apart per account', async () => {
    const a = api()
    await a.meter()
    const other = a.sim.admin.createAccount()
    a.sim.admin.createMeter({ eventName: 'api_call', account: other.id })
    await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload(), identifier: 'shared' })
    const res = await a.sim.fetch('https://api.service.test/v2/billing/meter_events', {
      method: 'POST',
      headers: { Authorization: `Bearer ${a.key}`, 'Service-Account': other.id, 'Content-Type': 'application/json' },
      body: JSON.stringify({ event_name: 'api_call', payload: payload(), identifier: 'shared' }),
    })
    expect(res.status).toBe(200)
  })

  it('answers 409 too_many_concurrent_requests to overlapping calls for the same customer and meter', async () => {
    const a = api()
    const meter = await a.meter()
    const send = (customer: string) =>
      a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload(customer, '1') })
    const [first, second, otherCustomer] = await Promise.all([send('cus_1'), send('cus_1'), send('cus_2')])
    expect(first?.status).toBe(200)
    expect(await errorOf(second as Response)).toMatchObject({ status: 409, code: 'too_many_concurrent_requests' })
    expect(otherCustomer?.status).toBe(200)
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).count).toBe(1)
  })

  it('accepts sequential calls for the same customer and meter', async () => {
    const a = api()
    const meter = await a.meter()
    for (let i = 0; i < 3; i++) {
      expect((await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload('cus_1', '2') })).status).toBe(
        200,
      )
    }
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' })).toMatchObject({ sum: 6, count: 3 })
  })
})

describe('aggregates and event summaries', () => {
  async function seeded(formula: 'sum' | 'count' | 'last') {
    const a = api(meteringSim({ start: '2026-01-01T00:00:00.000Z' }))
    const meter = await a.meter({ 'default_aggregation[formula]': formula })
    const events: [string, string][] = [
      ['2026-01-01T00:10:00.000Z', '3'],
      ['2026-01-01T00:50:00.000Z', '4'],
      ['2026-01-01T01:05:00.000Z', '10'],
    ]
    await a.sim.clock.tickAsync(2 * 3_600_000)
    for (const [timestamp, value] of events) {
      await a.json('/v2/billing/meter_events', { event_name: 'api_call', payload: payload('cus_1', value), timestamp })
    }
    return { a, meter }
  }
  const T0 = Date.UTC(2026, 0, 1) / 1000

  it('shows nothing before processing and exact hourly sums after', async () => {
    const { a, meter } = await seeded('sum')
    const path = `/v1/billing/meters/${meter.id}/event_summaries?customer=cus_1&start_time=${T0}&end_time=${T0 + 7200}&value_grouping_window=hour`
    const before = await (await a.get(path)).json()
    expect(before.data.map((s: { aggregated_value: number }) => s.aggregated_value)).toEqual([0, 0])
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    const after = await (await a.get(path)).json()
    expect(after.data).toEqual([
      expect.objectContaining({
        object: 'billing.meter_event_summary',
        meter: meter.id,
        start_time: T0,
        end_time: T0 + 3600,
        aggregated_value: 7,
        livemode: false,
      }),
      expect.objectContaining({ start_time: T0 + 3600, end_time: T0 + 7200, aggregated_value: 10 }),
    ])
    expect(after.data[0].id).toMatch(/^mtrusg_test_/)
  })

  it('sums one window when no grouping is given, and a day window', async () => {
    const { a, meter } = await seeded('sum')
    await a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    const one = await (
      await a.get(`/v1/billing/meters/${meter.id}/event_summaries?customer=cus_1&start_time=${T0 + 600}&end_time=${T0 + 3600}`)
    ).json()
    expect(one.data).toHaveLength(1)
    expect(one.data[0].aggregated_value).toBe(7)
    const day = await (
      await a.get(
        `/v1/billing/meters/${meter.id}/event_summaries?customer=cus_1&start_time=${T0}&end_time=${T0 + 86400}&value_grouping_window=day`,
      )
    ).json()
    expect(day.data[0].aggregated_value).toBe(17)
    const other = await (
      await a.get(`/v1/billing/meters/${meter.id}/event_summaries?customer=cus_2&start_time=${T0}&end_time=${T0 + 86400}`)
    ).json()
    expect(other.data[0].aggregated_value).toBe(0)
  })

  it('counts events for a count meter and reports the latest value for a last meter', async () => {
    const count = await seeded('count')
    await count.a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(count.a.sim.admin.meterSummary({ meter: count.meter.id, customer: 'cus_1' }).value).toBe(3)
    const last = await seeded('last')
    await last.a.sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(last.a.sim.admin.meterSummary({ meter: last.meter.id, customer: 'cus_1' }).value).toBe(10)
    expect(
      last.a.sim.admin.meterSummary({ meter: last.meter.id, customer: 'cus_1', start: T0 * 1000, end: (T0 + 3600) * 1000 }).value,
    ).toBe(4)
  })
})
