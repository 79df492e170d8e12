import { describe, expect, it } from 'vitest'
import { destination, setup, v2 } from './helpers.js'

const base = {
  name: 'hooks',
  type: 'webhook_endpoint',
  event_payload: 'snapshot',
  enabled_events: ['customer.created'],
  webhook_endpoint: { url: 'https://hooks.example.test/a' },
}

describe('event destinations', () => {
  it('creates a destination with every field and returns the whsec_ secret only when included', async () => {
    const { stripe } = setup()
    const d = await stripe.v2.core.eventDestinations.create({
      name: 'billing hooks',
      description: 'invoices',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      events_from: ['@self', '@accounts'],
      enabled_events: ['invoice.paid', 'customer.created'],
      metadata: { team: 'billing' },
      snapshot_api_version: '2026-10-28.endive',
      webhook_endpoint: { url: 'https://hooks.example.test/a' },
      include: ['webhook_endpoint.signing_secret', 'webhook_endpoint.url'],
    })
    expect(d).toMatchObject({
      object: 'v2.core.event_destination',
      name: 'billing hooks',
      description: 'invoices',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      events_from: ['@self', '@accounts'],
      enabled_events: ['invoice.paid', 'customer.created'],
      metadata: { team: 'billing' },
      snapshot_api_version: '2026-10-28.endive',
      status: 'enabled',
      livemode: false,
      webhook_endpoint: { url: 'https://hooks.example.test/a' },
    })
    expect(d.id).toMatch(/^ed_/)
    expect(d.webhook_endpoint?.signing_secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/)
    const again = await stripe.v2.core.eventDestinations.retrieve(d.id)
    // Fields the client types declare optional are absent, not null, unless included.
    expect(again.webhook_endpoint).toEqual({})
    for (const field of ['amazon_eventbridge', 'azure_event_grid', 'status_details']) expect(field in again).toBe(false)
    const withUrl = await stripe.v2.core.eventDestinations.retrieve(d.id, { include: ['webhook_endpoint.url'] })
    expect(withUrl.webhook_endpoint?.url).toBe('https://hooks.example.test/a')
  })

  it('gives each destination and each mode its own secret', async () => {
    const { stripe, live } = setup()
    const a = await destination(stripe)
    const b = await destination(stripe)
    const c = await destination(live)
    expect(new Set([a.secret, b.secret, c.secret]).size).toBe(3)
  })

  it('updates enabled_events, disables, enables and deletes', async () => {
    const { stripe } = setup()
    const { id } = await destination(stripe)
    const updated = await stripe.v2.core.eventDestinations.update(id, { enabled_events: ['invoice.paid'], name: 'renamed' })
    expect(updated.enabled_events).toEqual(['invoice.paid'])
    expect(updated.name).toBe('renamed')
    const disabled = await stripe.v2.core.eventDestinations.disable(id)
    expect(disabled.status).toBe('disabled')
    expect(disabled.status_details?.disabled?.reason).toBe('user')
    expect((await stripe.v2.core.eventDestinations.enable(id)).status).toBe('enabled')
    const deleted = await stripe.v2.core.eventDestinations.del(id)
    expect(deleted.id).toBe(id)
    await expect(stripe.v2.core.eventDestinations.retrieve(id)).rejects.toMatchObject({ statusCode: 404 })
  })

  it('lists destinations newest first with v2 pagination', async () => {
    const { stripe } = setup()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await destination(stripe)).id)
    const first = await stripe.v2.core.eventDestinations.list({ limit: 2 })
    expect(first.data.map((d) => d.id)).toEqual([ids[4], ids[3]])
    const all: string[] = []
    for await (const d of stripe.v2.core.eventDestinations.list({ limit: 2 })) all.push(d.id)
    expect(all).toEqual([...ids].reverse())
  })

  it('refuses the 17th webhook endpoint of an account and mode with a clear 400', async () => {
    const { sim, stripe, live } = setup()
    for (let i = 0; i < 16; i++) await destination(stripe)
    const res = await v2(sim, 'POST', '/v2/core/event_destinations', base)
    expect(res.status).toBe(400)
    expect(res.json.error.code).toBe('webhook_endpoint_limit_reached')
    expect(res.json.error.message).toMatch(/maximum of 16/)
    expect((await stripe.v2.core.eventDestinations.list({ limit: 20 })).data).toHaveLength(16)
    await expect(destination(live)).resolves.toBeDefined()
  })

  it('requires HTTPS in live mode and allows HTTP only on loopback in test mode', async () => {
    const { sim } = setup()
    const live = sim.platform.secretKey.live
    const http = (url: string) => ({ ...base, webhook_endpoint: { url } })
    expect((await v2(sim, 'POST', '/v2/core/event_destinations', http('http://localhost:4242/h'), live)).status).toBe(400)
    expect((await v2(sim, 'POST', '/v2/core/event_destinations', http('https://localhost/h'), live)).status).toBe(400)
    expect((await v2(sim, 'POST', '/v2/core/event_destinations', http('https://hooks.example.test/h'), live)).status).toBe(200)
    const bad = await v2(sim, 'POST', '/v2/core/event_destinations', http('http://hooks.example.test/h'))
    expect(bad.status).toBe(400)
    expect(bad.json.error.param).toBe('webhook_endpoint.url')
    for (const url of ['http://localhost:4242/h', 'http://127.0.0.1:9/h', 'http://[::1]:9/h']) {
      expect((await v2(sim, 'POST', '/v2/core/event_destinations', http(url))).status).toBe(200)
    }
    expect((await v2(sim, 'POST', '/v2/core/event_destinations', http('not a url'))).status).toBe(400)
  })

  it('keeps snapshot and thin events on separate destinations', async () => {
    const { sim } = setup()
    const thinOnSnapshot = await v2(sim, 'POST', '/v2/core/event_destinations', {
      ...base,
      enabled_events: ['v1.billing.meter.error_report_triggered'],
    })
    expect(thinOnSnapshot.status).toBe(400)
    expect(thinOnSnapshot.json.error.message).toMatch(/separate destinations/)
    const snapshotOnThin = await v2(sim, 'POST', '/v2/core/event_destinations', { ...base, event_payload: 'thin' })
    expect(snapshotOnThin.status).toBe(400)
    const versionOnThin = await v2(sim, 'POST', '/v2/core/event_destinations', {
      ...base,
      event_payload: 'thin',
      enabled_events: ['v1.billing.meter.no_meter_found'],
      snapshot_api_version: '2026-10-28.endive',
    })
    expect(versionOnThin.json.error.param).toBe('snapshot_api_version')
  })

  it('applies the organisation restrictions', async () => {
    const { sim } = setup()
    const noOrg = await v2(sim, 'POST', '/v2/core/event_destinations', { ...base, events_from: ['@organization_members'] })
    expect(noOrg.status).toBe(400)
    expect(noOrg.json.error.param).toBe('events_from')
    const other = sim.admin.createAccount()
    sim.admin.createOrganisation({ accounts: [sim.platform.id, other.id] })
    const issuing = await v2(sim, 'POST', '/v2/core/event_destinations', {
      ...base,
      events_from: ['@organization_members'],
      enabled_events: ['issuing_authorization.request'],
    })
    expect(issuing.status).toBe(400)
    expect(issuing.json.error.message).toMatch(/Organisation event destinations cannot subscribe/)
    const ok = await v2(sim, 'POST', '/v2/core/event_destinations', {
      ...base,
      events_from: ['@organization_members'],
      enabled_events: ['invoice.created', 'checkout_sessions.completed'],
    })
    expect(ok.status).toBe(200)
  })

  it('refuses bad input with the error envelope and changes nothing', async () => {
    const { sim, stripe } = setup()
    const cases: [unknown, string][] = [
      [{ ...base, colour: 'red' }, 'colour'],
      [{ ...base, name: undefined }, 'name'],
      [{ ...base, type: 'azure_event_grid' }, 'type'],
      [{ ...base, event_payload: 'fat' }, 'event_payload'],
      [{ ...base, enabled_events: [] }, 'enabled_events'],
      [{ ...base, enabled_events: ['Not A Type'] }, 'enabled_events[0]'],
      [{ ...base, events_from: ['@everyone'] }, 'events_from.0'],
      [{ ...base, include: ['secret'] }, 'include'],
      [{ ...base, webhook_endpoint: undefined }, 'webhook_endpoint'],
    ]
    for (const [body, param] of cases) {
      const res = await v2(sim, 'POST', '/v2/core/event_destinations', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.json.error.type).toBe('invalid_request_error')
      expect(res.json.error.param, JSON.stringify(body)).toContain(param.split('.')[0])
    }
    expect((await stripe.v2.core.eventDestinations.list()).data).toHaveLength(0)
    const { id } = await destination(stripe)
    const bad = await v2(sim, 'POST', `/v2/core/event_destinations/${id}`, {
      enabled_events: ['v1.billing.meter.no_meter_found'],
    })
    expect(bad.status).toBe(400)
    expect((await stripe.v2.core.eventDestinations.retrieve(id)).enabled_events).toEqual(['*'])
    expect((await v2(sim, 'POST', `/v2/core/event_destinations/${id}/disable`, { x: 1 })).status).toBe(400)
    expect((await v2(sim, 'POST', '/v2/core/event_destinations/ed_missing/enable', {})).status).toBe(404)
    expect((await v2(sim, 'GET', '/v2/core/event_destinations?limit=500')).status).toBe(400)
    expect((await v2(sim, 'GET', '/v2/core/event_destinations?page=garbage')).status).toBe(400)
    expect((await v2(sim, 'GET', `/v2/core/event_destinations/${id}?include[0]=secret`)).status).toBe(400)
    expect((await v2(sim, 'POST', `/v2/core/event_destinations/${id}`, { type: 'thin' })).json.error.code).toBe(
      'parameter_unknown',
    )
    expect((await v2(sim, 'POST', `/v2/core/event_destinations/${id}`, { webhook_endpoint: { url: 'ftp://x' } })).status).toBe(
      400,
    )
    expect((await v2(sim, 'POST', '/v2/core/event_destinations/ed_missing/ping', {})).status).toBe(404)
    expect((await v2(sim, 'DELETE', '/v2/core/event_destinations/ed_missing')).status).toBe(404)
    expect((await v2(sim, 'POST', '/v2/core/event_destinations/ed_missing/roll_secret', {})).status).toBe(404)
    expect((await v2(sim, 'POST', `/v2/core/event_destinations/${id}/roll_secret`, { expires_in: -1 })).status).toBe(400)
    const after = await stripe.v2.core.eventDestinations.retrieve(id, { include: ['webhook_endpoint.url'] })
    expect(after.webhook_endpoint?.url).toBe('https://hooks.example.test/snapshot')
    expect(after.status).toBe('enabled')
    expect(sim.admin.deliveries()).toHaveLength(0)
  })

  it('hides a destination from other accounts and the other mode', async () => {
    const { sim, stripe } = setup()
    const { id } = await destination(stripe)
    expect((await v2(sim, 'GET', `/v2/core/event_destinations/${id}`, undefined, sim.platform.secretKey.live)).status).toBe(404)
    const other = sim.admin.createAccount()
    const res = await sim.fetch(`https://api.stripe.test/v2/core/event_destinations/${id}`, {
      headers: { Authorization: `Bearer ${sim.platform.secretKey.test}`, 'Stripe-Account': other.id },
    })
    expect(res.status).toBe(404)
  })

  it('answers every destination operation under the catalogue name in the trace', async () => {
    const { sim, stripe } = setup()
    const { id } = await destination(stripe)
    await stripe.v2.core.eventDestinations.retrieve(id)
    await stripe.v2.core.eventDestinations.list()
    await stripe.v2.core.eventDestinations.update(id, { name: 'renamed' })
    await stripe.v2.core.eventDestinations.disable(id)
    await stripe.v2.core.eventDestinations.enable(id)
    await stripe.v2.core.eventDestinations.ping(id)
    await v2(sim, 'POST', `/v2/core/event_destinations/${id}/roll_secret`, {})
    await stripe.v2.core.eventDestinations.del(id)
    const names = sim.trace.filter('http').map((e) => e.data.operation)
    expect(names).toEqual([
      'v2.core.eventDestinations.create',
      'v2.core.eventDestinations.retrieve',
      'v2.core.eventDestinations.list',
      'v2.core.eventDestinations.update',
      'v2.core.eventDestinations.disable',
      'v2.core.eventDestinations.enable',
      'v2.core.eventDestinations.ping',
      'v2.core.eventDestinations.rollSecret',
      'v2.core.eventDestinations.del',
    ])
  })

  it('shows created and updated as ISO 8601 times with milliseconds, updated moving on each change', async () => {
    const { sim, stripe } = setup()
    const { id } = await destination(stripe)
    const made = await stripe.v2.core.eventDestinations.retrieve(id)
    expect(made.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(made.updated).toBe(made.created)
    await sim.clock.tickAsync(1500)
    const renamed = await stripe.v2.core.eventDestinations.update(id, { name: 'renamed' })
    expect(Date.parse(renamed.updated) - Date.parse(made.created)).toBe(1500)
    expect(renamed.created).toBe(made.created)
  })
})
