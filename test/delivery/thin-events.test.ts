import { describe, expect, it } from 'vitest'
import { collect, destination, setup, v2 } from './helpers.js'

const THIN_URL = 'https://hooks.example.test/thin'

describe('thin events', () => {
  it('delivers a notification the official client parses, then fetches the full event and related object', async () => {
    const { sim, stripe } = setup()
    const meter = await stripe.billing.meters.create({
      display_name: 'API calls',
      event_name: 'api_calls',
      default_aggregation: { formula: 'sum' },
    })
    const { secret } = await destination(stripe, {
      url: THIN_URL,
      event_payload: 'thin',
      enabled_events: ['v1.billing.meter.error_report_triggered'],
    })
    const got = collect(sim, THIN_URL)
    const evt = sim.admin.trigger('v1.billing.meter.error_report_triggered', {
      relatedObject: { id: meter.id, type: 'billing.meter', url: `/v1/billing/meters/${meter.id}` },
    })
    await sim.settle()
    expect(got).toHaveLength(1)
    const body = JSON.parse(got[0]!.raw)
    // The platform's own event has no context: the client declares a string or its absence, never null.
    expect(Object.keys(body).sort()).toEqual(['created', 'id', 'livemode', 'object', 'related_object', 'type'])
    expect(body.related_object).toEqual({ id: meter.id, type: 'billing.meter', url: `/v1/billing/meters/${meter.id}` })
    const note = stripe.parseEventNotification(got[0]!.raw, got[0]!.signature, secret, 300, undefined, sim.clock.now)
    expect(note.id).toBe(evt.id)
    expect(note.type).toBe('v1.billing.meter.error_report_triggered')
    const full = (await note.fetchEvent()) as any
    expect(full.id).toBe(evt.id)
    expect(full.data.developer_message_summary).toBe('There is 1 invalid event')
    const related = (await (note as any).fetchRelatedObject()) as any
    expect(related.id).toBe(meter.id)
    expect(related.display_name).toBe('API calls')
  })

  it('sends no related object for no_meter_found and serves the full event by id and in the list', async () => {
    const { sim, stripe } = setup()
    const { secret } = await destination(stripe, {
      url: THIN_URL,
      event_payload: 'thin',
      enabled_events: ['*'],
    })
    const got = collect(sim, THIN_URL)
    const evt = sim.admin.trigger('v1.billing.meter.no_meter_found', { synthetic: true })
    await sim.settle()
    const note = stripe.parseEventNotification(got[0]!.raw, got[0]!.signature, secret, 300, undefined, sim.clock.now)
    expect((note as any).related_object).toBeUndefined()
    expect(await (note as any).fetchRelatedObject()).toBeNull()
    const fetched = await stripe.v2.core.events.retrieve(evt.id)
    expect((fetched as any).data.developer_message_summary).toBe('There is 1 event with no meter')
    const listed = await stripe.v2.core.events.list({ types: ['v1.billing.meter.no_meter_found'] } as any)
    expect(listed.data.map((e) => e.id)).toContain(evt.id)
    expect(fetched).not.toHaveProperty('context')
    expect(listed.data.find((e) => e.id === evt.id)).not.toHaveProperty('context')
    expect(JSON.parse(got[0]!.raw)).not.toHaveProperty('context')
  })

  it('does not send snapshot events to a thin destination or thin events to a snapshot destination', async () => {
    const { sim, stripe } = setup()
    await destination(stripe, { url: THIN_URL, event_payload: 'thin', enabled_events: ['*'] })
    await destination(stripe, { url: 'https://hooks.example.test/snap', enabled_events: ['*'] })
    const thin = collect(sim, THIN_URL)
    const snap = collect(sim, 'https://hooks.example.test/snap')
    sim.admin.trigger('customer.created', { synthetic: true })
    sim.admin.trigger('v1.billing.meter.no_meter_found', { synthetic: true })
    await sim.settle()
    expect(thin.map((x) => JSON.parse(x.raw).type)).toEqual(['v1.billing.meter.no_meter_found'])
    expect(snap.map((x) => JSON.parse(x.raw).type)).toEqual(['customer.created'])
  })

  it('pings a destination with a v2.core.event_destination.ping event', async () => {
    const { sim, stripe } = setup()
    const { id, secret } = await destination(stripe, {
      url: THIN_URL,
      event_payload: 'thin',
      enabled_events: ['v1.billing.meter.no_meter_found'],
    })
    const got = collect(sim, THIN_URL)
    const ping = await stripe.v2.core.eventDestinations.ping(id)
    expect(ping.type).toBe('v2.core.event_destination.ping')
    await sim.settle()
    const note = stripe.parseEventNotification(got[0]!.raw, got[0]!.signature, secret, 300, undefined, sim.clock.now)
    expect(note.id).toBe(ping.id)
    expect((note as any).related_object.id).toBe(id)
  })

  it('answers 404 for an unknown event and 400 for bad list parameters', async () => {
    const { sim } = setup()
    const missing = await v2(sim, 'GET', '/v2/core/events/evt_missing')
    expect(missing.status).toBe(404)
    expect(missing.json.error.code).toBe('resource_missing')
    expect((await v2(sim, 'GET', '/v2/core/events?limit=0')).status).toBe(400)
    expect((await v2(sim, 'GET', '/v2/core/events?colour=red')).json.error.code).toBe('parameter_unknown')
    expect((await v2(sim, 'GET', '/v2/core/events?created[gt]=yesterday')).status).toBe(400)
  })

  it('lists thin events by created bounds in ISO 8601 or unix seconds, refusing an unknown bound', async () => {
    const { sim } = setup()
    const first = sim.admin.trigger('v1.billing.meter.no_meter_found', { synthetic: true })
    await sim.clock.tickAsync(5000)
    const later = sim.admin.trigger('v1.billing.meter.no_meter_found', { synthetic: true })
    const since = new Date(sim.clock.now - 1000).toISOString()
    const iso = await v2(sim, 'GET', `/v2/core/events?created[gte]=${since}`)
    expect(iso.json.data.map((e: { id: string }) => e.id)).toEqual([later.id])
    const before = Math.floor((sim.clock.now - 1000) / 1000)
    const unix = await v2(sim, 'GET', `/v2/core/events?created[lt]=${before}`)
    expect(unix.json.data.map((e: { id: string }) => e.id)).toEqual([first.id])
    const odd = await v2(sim, 'GET', '/v2/core/events?created[after]=1')
    expect([odd.status, odd.json.error.code, odd.json.error.param]).toEqual([400, 'parameter_unknown', 'created.after'])
  })
})
