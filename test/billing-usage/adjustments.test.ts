import { describe, expect, it } from 'vitest'
import { METER_PROCESSING_DELAY } from '../../src/index.js'
import { api, DAY, errorOf, officialClient } from '../metering/helpers.js'

const P = METER_PROCESSING_DELAY.max

describe('v1 billing/meter_events (official client)', () => {
  it('creates a billing.meter_event synchronously and it counts after processing', async () => {
    const { sim, stripe } = officialClient()
    const meter = await stripe.billing.meters.create({
      event_name: 'api_call',
      display_name: 'API calls',
      default_aggregation: { formula: 'sum' },
    })
    const ts = Math.floor(sim.clock.now / 1000) - 60
    const event = await stripe.billing.meterEvents.create({
      event_name: 'api_call',
      identifier: 'v1-a',
      payload: { stripe_customer_id: 'cus_1', value: '7' },
      timestamp: ts,
    })
    expect(event).toMatchObject({ object: 'billing.meter_event', identifier: 'v1-a', timestamp: ts, livemode: false })
    expect(typeof event.created).toBe('number')
    expect(sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(0)
    await sim.clock.tickAsync(P)
    expect(sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(7)
  })

  it('answers the same codes as v2 (duplicate, no_meter, invalid value)', async () => {
    const { stripe } = officialClient()
    await stripe.billing.meters.create({ event_name: 'api_call', display_name: 'x', default_aggregation: { formula: 'sum' } })
    await stripe.billing.meterEvents.create({
      event_name: 'api_call',
      identifier: 'd',
      payload: { stripe_customer_id: 'cus_1', value: '1' },
    })
    const codes: unknown[] = []
    for (const params of [
      { event_name: 'api_call', identifier: 'd', payload: { stripe_customer_id: 'cus_2', value: '1' } },
      { event_name: 'nope', payload: { stripe_customer_id: 'cus_1', value: '1' } },
      { event_name: 'api_call', payload: { stripe_customer_id: 'cus_1', value: '0' } },
    ]) {
      try {
        await stripe.billing.meterEvents.create(params)
        codes.push('ok')
      } catch (error) {
        codes.push((error as { code?: string; statusCode?: number }).code)
      }
    }
    expect(codes).toEqual(['duplicate_meter_event', 'no_meter', 'payload_invalid_value'])
  })
})

describe('meter event adjustments (cancel by identifier)', () => {
  it('v1: cancels a processed event: it leaves the aggregates and event summaries', async () => {
    const { sim, stripe } = officialClient()
    const meter = await stripe.billing.meters.create({
      event_name: 'api_call',
      display_name: 'x',
      default_aggregation: { formula: 'sum' },
    })
    for (const [id, v] of [
      ['a', '5'],
      ['b', '3'],
    ] as const) {
      await stripe.billing.meterEvents.create({
        event_name: 'api_call',
        identifier: id,
        payload: { stripe_customer_id: 'cus_1', value: v },
      })
    }
    await sim.clock.tickAsync(P)
    expect(sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(8)
    const adj = await stripe.billing.meterEventAdjustments.create({
      event_name: 'api_call',
      type: 'cancel',
      cancel: { identifier: 'a' },
    })
    expect(adj).toMatchObject({
      object: 'billing.meter_event_adjustment',
      status: 'pending',
      type: 'cancel',
      cancel: { identifier: 'a' },
    })
    await sim.clock.tickAsync(P)
    expect(sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' })).toMatchObject({ value: 3, count: 1 })
    const start = Math.floor(sim.clock.now / 3_600_000) * 3600 - 3600
    const summaries = await stripe.billing.meters.listEventSummaries(meter.id, {
      customer: 'cus_1',
      start_time: start,
      end_time: start + 7200,
    })
    expect(summaries.data[0]?.aggregated_value).toBe(3)
    // The cancelled identifier stays taken: resending it does not count it again.
    await expect(
      stripe.billing.meterEvents.create({
        event_name: 'api_call',
        identifier: 'a',
        payload: { stripe_customer_id: 'cus_1', value: '5' },
      }),
    ).rejects.toMatchObject({ code: 'duplicate_meter_event' })
    expect(sim.admin.meterStats().cancelledEvents).toBe(1)
  })

  it('v2: cancels a stream event before it is processed: it never counts', async () => {
    const { sim, stripe } = officialClient()
    const meter = await stripe.billing.meters.create({
      event_name: 'api_call',
      display_name: 'x',
      default_aggregation: { formula: 'sum' },
    })
    const session = await stripe.v2.billing.meterEventSession.create()
    const stream = new (await import('stripe')).default(session.authentication_token, {
      httpClient: (await import('stripe')).default.createFetchHttpClient(sim.fetch),
      maxNetworkRetries: 0,
    })
    await stream.v2.billing.meterEventStream.create({
      events: [
        { event_name: 'api_call', identifier: 's1', payload: { stripe_customer_id: 'cus_1', value: '4' } },
        { event_name: 'api_call', identifier: 's2', payload: { stripe_customer_id: 'cus_1', value: '6' } },
      ],
    })
    const adj = await stripe.v2.billing.meterEventAdjustments.create({
      event_name: 'api_call',
      type: 'cancel',
      cancel: { identifier: 's2' },
    })
    expect(adj).toMatchObject({ object: 'v2.billing.meter_event_adjustment', status: 'pending', type: 'cancel' })
    expect(adj.id).toMatch(/^mtr_event_adj_/)
    await sim.clock.tickAsync(2 * P)
    expect(sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(4)
    expect(sim.admin.meterStats()).toMatchObject({ cancelledEvents: 1 })
    // A duplicate of the cancelled event is dropped, not counted.
    await stream.v2.billing.meterEventStream.create({
      events: [{ event_name: 'api_call', identifier: 's2', payload: { stripe_customer_id: 'cus_1', value: '6' } }],
    })
    await sim.clock.tickAsync(P)
    expect(sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(4)
  })

  it('refuses unknown identifiers, other meters, events older than 24 hours and a missing cancel', async () => {
    const a = api()
    await a.meter()
    await a.meter({ event_name: 'other', display_name: 'Other' })
    const ok = await a.json('/v2/billing/meter_events', {
      event_name: 'api_call',
      identifier: 'x1',
      payload: { service_customer_id: 'cus_1', value: '1' },
    })
    expect(ok.status).toBe(200)
    const adjust = (body: unknown) => a.json('/v2/billing/meter_event_adjustments', body)
    const unknown = await errorOf(await adjust({ event_name: 'api_call', type: 'cancel', cancel: { identifier: 'nope' } }))
    expect(unknown).toMatchObject({ status: 400, code: 'resource_missing', param: 'cancel.identifier' })
    const otherMeter = await errorOf(await adjust({ event_name: 'other', type: 'cancel', cancel: { identifier: 'x1' } }))
    expect(otherMeter.code).toBe('resource_missing')
    const noMeter = await errorOf(await adjust({ event_name: 'ghost', type: 'cancel', cancel: { identifier: 'x1' } }))
    expect(noMeter.code).toBe('no_meter')
    const missing = await errorOf(await a.form('/v1/billing/meter_event_adjustments', { event_name: 'api_call', type: 'cancel' }))
    expect(missing).toMatchObject({ status: 400, code: 'parameter_missing', param: 'cancel' })
    await a.sim.clock.tickAsync(DAY - 1)
    expect((await adjust({ event_name: 'api_call', type: 'cancel', cancel: { identifier: 'x1' } })).status).toBe(200)
    await a.sim.clock.tickAsync(1)
    const late = await errorOf(await adjust({ event_name: 'api_call', type: 'cancel', cancel: { identifier: 'x1' } }))
    expect(late.code).toBe('resource_missing')
  })

  it('a sync event without identifier is cancelled by the identifier it was given', async () => {
    const a = api()
    const meter = await a.meter()
    const res = await a.json('/v2/billing/meter_events', {
      event_name: 'api_call',
      payload: { service_customer_id: 'cus_1', value: '9' },
    })
    const { identifier } = (await res.json()) as { identifier: string }
    const adj = await a.json('/v2/billing/meter_event_adjustments', {
      event_name: 'api_call',
      type: 'cancel',
      cancel: { identifier },
    })
    expect(adj.status).toBe(200)
    await a.sim.clock.tickAsync(2 * P)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).count).toBe(0)
  })

  it('a last meter falls back to the latest remaining event of the minute', async () => {
    const a = api()
    const meter = await a.meter({ 'default_aggregation[formula]': 'last' })
    const at = a.sim.clock.now
    for (const [id, v, dt] of [
      ['l1', '2', 0],
      ['l2', '8', 1000],
    ] as const) {
      const r = await a.json('/v2/billing/meter_events', {
        event_name: 'api_call',
        identifier: id,
        timestamp: new Date(at - 60_000 + dt).toISOString(),
        payload: { service_customer_id: 'cus_1', value: v },
      })
      expect(r.status).toBe(200)
    }
    await a.sim.clock.tickAsync(P)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(8)
    await a.json('/v2/billing/meter_event_adjustments', { event_name: 'api_call', type: 'cancel', cancel: { identifier: 'l2' } })
    await a.sim.clock.tickAsync(P)
    expect(a.sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' })).toMatchObject({ value: 2, last: 2, count: 1 })
  })
})
