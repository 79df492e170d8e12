import { describe, expect, it } from 'vitest'
import { api, errorOf, meteringSim } from './helpers.js'

describe('billing meters through sim.fetch', () => {
  it('creates a meter with the default payload keys of the prefix', async () => {
    const a = api()
    const meter = await a.meter()
    expect(meter).toMatchObject({
      object: 'billing.meter',
      event_name: 'api_call',
      display_name: 'API calls',
      customer_mapping: { event_payload_key: 'service_customer_id', type: 'by_id' },
      value_settings: { event_payload_key: 'value' },
      default_aggregation: { formula: 'sum' },
      status: 'active',
      status_transitions: { deactivated_at: null },
      event_time_window: null,
      livemode: false,
    })
    expect(meter.id).toMatch(/^mtr_test_/)
    expect(meter.created).toBe(Math.floor(a.sim.clock.now / 1000))
  })

  it('creates a meter with custom payload keys', async () => {
    const a = api()
    const meter = await a.meter({
      'customer_mapping[event_payload_key]': 'cust',
      'customer_mapping[type]': 'by_id',
      'value_settings[event_payload_key]': 'tokens',
      'default_aggregation[formula]': 'last',
    })
    expect(meter.customer_mapping.event_payload_key).toBe('cust')
    expect(meter.value_settings.event_payload_key).toBe('tokens')
    expect(meter.default_aggregation.formula).toBe('last')
  })

  it.each([
    [{ display_name: '' }, 'display_name', 'parameter_invalid_empty'],
    [{ 'default_aggregation[formula]': 'avg' }, 'default_aggregation[formula]', 'parameter_invalid'],
    [{ colour: 'red' }, 'colour', 'parameter_unknown'],
    [
      { 'customer_mapping[event_payload_key]': 'c', 'customer_mapping[type]': 'by_name' },
      'customer_mapping[type]',
      'parameter_invalid',
    ],
  ])('refuses an invalid create (%j) with 400 naming the param', async (fields, param, code) => {
    const a = api()
    const res = await a.form('/v1/billing/meters', {
      event_name: 'api_call',
      display_name: 'API calls',
      'default_aggregation[formula]': 'sum',
      ...fields,
    })
    const error = await errorOf(res)
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', code, param })
    expect(a.sim.admin.meters()).toHaveLength(0)
  })

  it('refuses a create without event_name with parameter_missing', async () => {
    const a = api()
    const res = await a.form('/v1/billing/meters', { display_name: 'x', 'default_aggregation[formula]': 'sum' })
    expect(await errorOf(res)).toMatchObject({ status: 400, code: 'parameter_missing', param: 'event_name' })
  })

  it('refuses a second meter with the same event name', async () => {
    const a = api()
    await a.meter()
    const res = await a.form('/v1/billing/meters', {
      event_name: 'api_call',
      display_name: 'again',
      'default_aggregation[formula]': 'count',
    })
    expect(await errorOf(res)).toMatchObject({ status: 400, code: 'resource_already_exists', param: 'event_name' })
    expect(a.sim.admin.meters()).toHaveLength(1)
  })

  it('retrieves a meter, and answers 404 for an unknown one or one of another account', async () => {
    const a = api()
    const meter = await a.meter()
    const res = await a.get(`/v1/billing/meters/${meter.id}`)
    expect(await res.json()).toEqual(meter)
    expect(await errorOf(await a.get('/v1/billing/meters/mtr_test_nope'))).toMatchObject({
      status: 404,
      code: 'resource_missing',
    })
    const other = a.sim.admin.createAccount()
    const theirs = a.sim.admin.createMeter({ eventName: 'theirs', account: other.id })
    expect((await a.get(`/v1/billing/meters/${theirs.id}`)).status).toBe(404)
  })

  it('lists meters newest first, filtered by status and paginated', async () => {
    const a = api()
    const m1 = await a.meter({ event_name: 'e1' })
    await a.sim.clock.tickAsync(1000)
    const m2 = await a.meter({ event_name: 'e2' })
    await a.sim.clock.tickAsync(1000)
    const m3 = await a.meter({ event_name: 'e3' })
    await a.form(`/v1/billing/meters/${m2.id}/deactivate`, {})
    const all = await (await a.get('/v1/billing/meters')).json()
    expect(all.object).toBe('list')
    expect(all.data.map((m: { id: string }) => m.id)).toEqual([m3.id, m2.id, m1.id])
    const active = await (await a.get('/v1/billing/meters?status=active')).json()
    expect(active.data.map((m: { id: string }) => m.id)).toEqual([m3.id, m1.id])
    const first = await (await a.get('/v1/billing/meters?limit=1')).json()
    expect(first).toMatchObject({ has_more: true, data: [{ id: m3.id }] })
    const next = await (await a.get(`/v1/billing/meters?limit=1&starting_after=${m3.id}`)).json()
    expect(next.data[0].id).toBe(m2.id)
    expect(await errorOf(await a.get('/v1/billing/meters?limit=101'))).toMatchObject({ status: 400, param: 'limit' })
    expect(await errorOf(await a.get('/v1/billing/meters?status=archived'))).toMatchObject({ status: 400, param: 'status' })
  })

  it('updates the display name and refuses unknown update params', async () => {
    const a = api()
    const meter = await a.meter()
    await a.sim.clock.tickAsync(5000)
    const updated = await (await a.form(`/v1/billing/meters/${meter.id}`, { display_name: 'Calls' })).json()
    expect(updated.display_name).toBe('Calls')
    expect(updated.updated).toBe(meter.updated + 5)
    const res = await a.form(`/v1/billing/meters/${meter.id}`, { event_name: 'other' })
    expect(await errorOf(res)).toMatchObject({ status: 400, code: 'parameter_unknown', param: 'event_name' })
  })

  it('deactivates and reactivates a meter', async () => {
    const a = api()
    const meter = await a.meter()
    await a.sim.clock.tickAsync(2000)
    const off = await (await a.form(`/v1/billing/meters/${meter.id}/deactivate`, {})).json()
    expect(off).toMatchObject({ status: 'inactive', status_transitions: { deactivated_at: meter.created + 2 } })
    const on = await (await a.form(`/v1/billing/meters/${meter.id}/reactivate`, {})).json()
    expect(on).toMatchObject({ status: 'active', status_transitions: { deactivated_at: null } })
    expect((await a.form('/v1/billing/meters/mtr_test_nope/deactivate', {})).status).toBe(404)
  })

  it('refuses event summary queries that are not minute-aligned or not ordered', async () => {
    const a = api(meteringSim())
    const meter = await a.meter()
    const t = Math.floor(a.sim.clock.now / 1000)
    const q = (s: string) => a.get(`/v1/billing/meters/${meter.id}/event_summaries?${s}`)
    expect(await errorOf(await q(`customer=cus_1&start_time=${t + 1}&end_time=${t + 60}`))).toMatchObject({
      status: 400,
      param: 'start_time',
    })
    expect(await errorOf(await q(`customer=cus_1&start_time=${t}&end_time=${t + 61}`))).toMatchObject({
      status: 400,
      param: 'end_time',
    })
    expect(await errorOf(await q(`customer=cus_1&start_time=${t}&end_time=${t}`))).toMatchObject({
      status: 400,
      param: 'end_time',
    })
    expect(
      await errorOf(await q(`customer=cus_1&start_time=${t + 60}&end_time=${t + 3600}&value_grouping_window=hour`)),
    ).toMatchObject({
      status: 400,
      param: 'start_time',
    })
    expect(
      await errorOf(await q(`customer=cus_1&start_time=${t}&end_time=${t + 3600}&value_grouping_window=week`)),
    ).toMatchObject({
      status: 400,
      param: 'value_grouping_window',
    })
    expect(await errorOf(await q(`start_time=${t}&end_time=${t + 60}`))).toMatchObject({
      status: 400,
      code: 'parameter_missing',
      param: 'customer',
    })
    expect((await q(`customer=cus_1&start_time=${t}&end_time=${t + 60}`)).status).toBe(200)
  })
})
