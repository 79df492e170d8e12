import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { METER_PROCESSING_DELAY } from '../../src/index.js'
import { DAY, MINUTE, officialClient } from './helpers.js'

async function caught(p: Promise<unknown>): Promise<any> {
  try {
    await p
  } catch (error) {
    return error
  }
  throw new Error('expected the call to fail')
}

async function setup(options = {}) {
  const c = officialClient(options)
  const meter = await c.stripe.billing.meters.create({
    display_name: 'API calls',
    event_name: 'api_call',
    default_aggregation: { formula: 'sum' },
  })
  return { ...c, meter }
}

describe('metering through the official client (prefix Stripe)', () => {
  it('creates a meter whose default customer key is stripe_customer_id', async () => {
    const { meter } = await setup()
    expect(meter.customer_mapping).toEqual({ event_payload_key: 'stripe_customer_id', type: 'by_id' })
    expect(meter.value_settings.event_payload_key).toBe('value')
  })

  it('retrieves, lists, updates, deactivates and reactivates meters', async () => {
    const { stripe, meter } = await setup()
    expect((await stripe.billing.meters.retrieve(meter.id)).id).toBe(meter.id)
    const second = await stripe.billing.meters.create({
      display_name: 'B',
      event_name: 'b',
      default_aggregation: { formula: 'count' },
    })
    const listed = await stripe.billing.meters.list({ limit: 1 }).autoPagingToArray({ limit: 10 })
    expect(listed.map((m) => m.id).sort()).toEqual([meter.id, second.id].sort())
    expect((await stripe.billing.meters.update(meter.id, { display_name: 'Calls' })).display_name).toBe('Calls')
    expect((await stripe.billing.meters.deactivate(meter.id)).status).toBe('inactive')
    expect((await stripe.billing.meters.list({ status: 'inactive' })).data.map((m) => m.id)).toEqual([meter.id])
    expect((await stripe.billing.meters.reactivate(meter.id)).status).toBe('active')
    const missing = await caught(stripe.billing.meters.retrieve('mtr_test_nope'))
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect(missing.statusCode).toBe(404)
  })

  it('creates a meter event and sees it in listEventSummaries only once processed', async () => {
    const { sim, stripe, meter } = await setup({ start: '2026-01-01T00:00:00.000Z' })
    const created = await stripe.v2.billing.meterEvents.create({
      event_name: 'api_call',
      payload: { stripe_customer_id: 'cus_1', value: '25' },
      identifier: 'first',
    })
    expect(created).toMatchObject({ object: 'v2.billing.meter_event', identifier: 'first', livemode: false })
    const t0 = Date.UTC(2026, 0, 1) / 1000
    const summaries = () =>
      stripe.billing.meters.listEventSummaries(meter.id, {
        customer: 'cus_1',
        start_time: t0,
        end_time: t0 + 3600,
        value_grouping_window: 'hour',
      })
    expect((await summaries()).data[0]?.aggregated_value).toBe(0)
    await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect((await summaries()).data[0]?.aggregated_value).toBe(25)
  })

  it.each([
    ['no_meter', { event_name: 'nope', payload: { stripe_customer_id: 'cus_1', value: '1' } }],
    ['payload_no_customer_defined', { event_name: 'api_call', payload: { value: '1' } }],
    ['payload_no_value_defined', { event_name: 'api_call', payload: { stripe_customer_id: 'cus_1' } }],
    ['payload_invalid_value', { event_name: 'api_call', payload: { stripe_customer_id: 'cus_1', value: '1.5' } }],
  ])('raises StripeInvalidRequestError with code %s', async (code, params) => {
    const { stripe } = await setup()
    const error = await caught(stripe.v2.billing.meterEvents.create(params))
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect(error).toMatchObject({ statusCode: 400, code })
  })

  it('raises archived_meter, duplicate_meter_event and the timestamp codes', async () => {
    const { sim, stripe, meter } = await setup()
    const payload = { stripe_customer_id: 'cus_1', value: '1' }
    await stripe.v2.billing.meterEvents.create({ event_name: 'api_call', payload, identifier: 'dup' })
    expect(
      await caught(stripe.v2.billing.meterEvents.create({ event_name: 'api_call', payload, identifier: 'dup' })),
    ).toMatchObject({
      code: 'duplicate_meter_event',
    })
    const future = new Date(sim.clock.now + 5 * MINUTE + 1).toISOString()
    expect(
      await caught(stripe.v2.billing.meterEvents.create({ event_name: 'api_call', payload, timestamp: future })),
    ).toMatchObject({
      code: 'timestamp_in_future',
    })
    const past = new Date(sim.clock.now - 36 * DAY).toISOString()
    expect(
      await caught(stripe.v2.billing.meterEvents.create({ event_name: 'api_call', payload, timestamp: past })),
    ).toMatchObject({
      code: 'timestamp_too_far_in_past',
    })
    await stripe.billing.meters.deactivate(meter.id)
    expect(await caught(stripe.v2.billing.meterEvents.create({ event_name: 'api_call', payload }))).toMatchObject({
      code: 'archived_meter',
    })
  })

  it('raises a 409 too_many_concurrent_requests for concurrent calls for one customer and meter', async () => {
    const { stripe } = await setup()
    const send = () =>
      stripe.v2.billing.meterEvents.create({ event_name: 'api_call', payload: { stripe_customer_id: 'cus_1', value: '1' } })
    const results = await Promise.allSettled([send(), send()])
    expect(results[0]?.status).toBe('fulfilled')
    const rejected = results[1] as PromiseRejectedResult
    expect(rejected.reason).toMatchObject({ statusCode: 409, code: 'too_many_concurrent_requests' })
    await send()
  })

  it('streams events with a session token on the meter-events host', async () => {
    const { sim, stripe, meter, urls, httpClient } = await setup()
    const session = await stripe.v2.billing.meterEventSession.create()
    const streamer = new Stripe(session.authentication_token, { httpClient, maxNetworkRetries: 0 })
    const events = Array.from({ length: 100 }, (_, i) => ({
      event_name: 'api_call',
      identifier: `s-${i}`,
      payload: { stripe_customer_id: 'cus_1', value: '2' },
    }))
    await streamer.v2.billing.meterEventStream.create({ events })
    expect(urls.at(-1)).toBe('https://meter-events.stripe.com/v2/billing/meter_event_stream')
    expect(sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(0)
    await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value).toBe(200)
    const tooMany = await caught(
      streamer.v2.billing.meterEventStream.create({ events: [...events, events[0] as (typeof events)[number]] }),
    )
    expect(tooMany).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect(tooMany.message).toContain('100')
  })

  it('raises TemporarySessionExpiredError at 15:00 exactly, and refuses the secret key on the stream', async () => {
    const { sim, stripe, httpClient } = await setup()
    const session = await stripe.v2.billing.meterEventSession.create()
    const streamer = new Stripe(session.authentication_token, { httpClient, maxNetworkRetries: 0 })
    const events = [{ event_name: 'api_call', payload: { stripe_customer_id: 'cus_1', value: '1' } }]
    await sim.clock.tickAsync(15 * MINUTE - 1)
    await streamer.v2.billing.meterEventStream.create({ events })
    await sim.clock.tickAsync(1)
    const expired = await caught(streamer.v2.billing.meterEventStream.create({ events }))
    expect(expired).toBeInstanceOf(Stripe.errors.TemporarySessionExpiredError)
    expect(expired).toMatchObject({ statusCode: 401, code: 'billing_meter_event_session_expired' })
    const wrongKey = await caught(stripe.v2.billing.meterEventStream.create({ events }))
    expect(wrongKey).toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
    const tokenElsewhere = await caught(streamer.billing.meters.list())
    expect(tokenElsewhere).toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
  })
})
