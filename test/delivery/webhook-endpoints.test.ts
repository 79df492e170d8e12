import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { collect, destination, setup, v2 } from './helpers.js'

const URL_A = 'https://hooks.example.test/a'

/** A form-encoded v1 call with the test key through `sim.fetch`. */
async function v1(sim: Simulator, method: string, path: string, body?: string, key = sim.platform.secretKey.test) {
  const res = await sim.fetch(`https://api.stripe.test${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    ...(body === undefined ? {} : { body }),
  })
  return { status: res.status, json: (await res.json()) as any }
}

/** Everything a refused endpoint call must leave as it was. */
function endpointState(sim: Simulator): string {
  const changes = [...sim.trace.filter('destination'), ...sim.trace.filter('webhook_endpoint')]
  return JSON.stringify([sim.admin.destinations(), sim.service.events.all().length, changes])
}

describe('v1 webhook endpoints', () => {
  it('draws a random whsec_ secret per endpoint, shown only in the create answer', async () => {
    const { sim, stripe } = setup()
    const a = await stripe.webhookEndpoints.create({ url: URL_A, enabled_events: ['*'] })
    const b = await stripe.webhookEndpoints.create({ url: URL_A, enabled_events: ['customer.created'] })
    expect(a.secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/)
    expect(a.secret).not.toBe(b.secret)
    expect(a.secret).not.toContain(a.id.slice(3))
    expect(sim.admin.signingSecrets(a.id)).toEqual([a.secret])
    expect((await stripe.webhookEndpoints.retrieve(a.id)).secret).toBeUndefined()
    expect((await stripe.webhookEndpoints.update(a.id, { description: 'shop' })).secret).toBeUndefined()
    expect((await stripe.webhookEndpoints.list()).data.map((e) => [e.id, e.secret])).toEqual([
      [b.id, undefined],
      [a.id, undefined],
    ])
    expect(a).toMatchObject({
      object: 'webhook_endpoint',
      status: 'enabled',
      api_version: null,
      enabled_events: ['*'],
      url: URL_A,
    })
    const again = setup()
    expect((await again.stripe.webhookEndpoints.create({ url: URL_A, enabled_events: ['*'] })).secret).toBe(a.secret)
  })

  it('shows disabled: true as status disabled, and enables again with disabled: false', async () => {
    const { stripe } = setup()
    const { id } = await stripe.webhookEndpoints.create({ url: URL_A, enabled_events: ['*'] })
    expect((await stripe.webhookEndpoints.update(id, { disabled: true })).status).toBe('disabled')
    expect((await stripe.webhookEndpoints.retrieve(id)).status).toBe('disabled')
    expect((await stripe.webhookEndpoints.update(id, { disabled: false })).status).toBe('enabled')
  })

  it('counts v1 endpoints and v2 destinations against one cap of 16 per account and mode', async () => {
    const { sim, stripe, live } = setup()
    for (let i = 0; i < 8; i++) await destination(stripe)
    const v1Ids: string[] = []
    for (let i = 0; i < 8; i++) v1Ids.push((await stripe.webhookEndpoints.create({ url: URL_A, enabled_events: ['*'] })).id)
    const before = endpointState(sim)
    const refusedV1 = await v1(sim, 'POST', '/v1/webhook_endpoints', `url=${encodeURIComponent(URL_A)}&enabled_events[0]=*`)
    expect(refusedV1.status).toBe(400)
    expect(refusedV1.json.error).toMatchObject({ type: 'invalid_request_error', code: 'webhook_endpoint_limit_reached' })
    expect(refusedV1.json.error.message).toMatch(/maximum of 16/)
    const refusedV2 = await v2(sim, 'POST', '/v2/core/event_destinations', {
      name: 'h',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['*'],
      webhook_endpoint: { url: URL_A },
    })
    expect(refusedV2.status).toBe(400)
    expect(refusedV2.json.error.code).toBe('webhook_endpoint_limit_reached')
    expect(endpointState(sim)).toBe(before)
    expect((await stripe.webhookEndpoints.list({ limit: 20 })).data).toHaveLength(8)
    await expect(live.webhookEndpoints.create({ url: URL_A, enabled_events: ['*'] })).resolves.toBeDefined()
    await stripe.webhookEndpoints.del(v1Ids[0]!)
    await expect(destination(stripe)).resolves.toBeDefined()
  })

  it('refuses bad input with the provider error envelope and changes nothing', async () => {
    const { sim, live } = setup()
    const made = await v1(sim, 'POST', '/v1/webhook_endpoints', `url=${encodeURIComponent(URL_A)}&enabled_events[0]=*`)
    const id = made.json.id as string
    const liveKey = sim.platform.secretKey.live
    const cases: [string, string, string, number, string, string | undefined][] = [
      [
        'POST',
        '/v1/webhook_endpoints',
        `url=${encodeURIComponent(URL_A)}&enabled_events[0]=customer.made_up`,
        400,
        'parameter_invalid',
        'enabled_events[0]',
      ],
      ['POST', '/v1/webhook_endpoints', `url=${encodeURIComponent(URL_A)}`, 400, 'parameter_missing', 'enabled_events'],
      ['POST', '/v1/webhook_endpoints', 'enabled_events[0]=*', 400, 'parameter_missing', 'url'],
      ['POST', '/v1/webhook_endpoints', 'url=not-a-url&enabled_events[0]=*', 400, 'url_invalid', 'url'],
      [
        'POST',
        '/v1/webhook_endpoints',
        `url=${encodeURIComponent('http://shop.example.test/h')}&enabled_events[0]=*`,
        400,
        'url_invalid',
        'url',
      ],
      [
        'POST',
        '/v1/webhook_endpoints',
        `url=${encodeURIComponent(URL_A)}&enabled_events[0]=*&api_version=1999-01-01`,
        400,
        'parameter_invalid',
        'api_version',
      ],
      ['POST', `/v1/webhook_endpoints/${id}`, 'enabled_events[0]=nope.nope', 400, 'parameter_invalid', 'enabled_events[0]'],
      [
        'POST',
        `/v1/webhook_endpoints/${id}`,
        `url=${encodeURIComponent('ftp://shop.example.test/h')}`,
        400,
        'url_invalid',
        'url',
      ],
      ['POST', '/v1/webhook_endpoints/we_missing', 'disabled=true', 404, 'resource_missing', 'id'],
      ['DELETE', '/v1/webhook_endpoints/we_missing', undefined as unknown as string, 404, 'resource_missing', 'id'],
    ]
    const before = endpointState(sim)
    for (const [method, path, body, status, code, param] of cases) {
      const res = await v1(sim, method, path, body)
      expect(res.status, `${method} ${path} ${body}`).toBe(status)
      expect(res.json.error).toMatchObject({ code, param })
    }
    const liveHttp = await v1(
      sim,
      'POST',
      '/v1/webhook_endpoints',
      `url=${encodeURIComponent('http://localhost:4242/h')}&enabled_events[0]=*`,
      liveKey,
    )
    expect(liveHttp.json.error).toMatchObject({ code: 'url_invalid', param: 'url' })
    expect(endpointState(sim)).toBe(before)
    expect((await live.webhookEndpoints.list()).data).toHaveLength(0)
    expect((await v1(sim, 'GET', `/v1/webhook_endpoints/${id}`)).json).toEqual({ ...made.json, secret: undefined })
  })

  it('delivers once to a v1 endpoint alone, and once to each when a destination was made too', async () => {
    const { sim, stripe } = setup()
    const endpoint = await stripe.webhookEndpoints.create({ url: URL_A, enabled_events: ['customer.created'] })
    const got = collect(sim, URL_A)
    sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    expect(got).toHaveLength(1)
    const dest = await destination(stripe, { url: URL_A, enabled_events: ['customer.created'] })
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    expect(got).toHaveLength(3)
    const secrets = got.slice(1).map((g) => {
      for (const s of [endpoint.secret ?? '', dest.secret]) {
        try {
          stripe.webhooks.constructEvent(g.raw, g.signature, s, 300, undefined, g.at)
          return s
        } catch {}
      }
      return 'none'
    })
    expect(new Set(secrets)).toEqual(new Set([endpoint.secret, dest.secret]))
    expect(
      sim.admin
        .deliveries({ event: evt.id })
        .map((r) => r.destinationId)
        .sort(),
    ).toEqual([dest.id, endpoint.id].sort())
  })

  it('stops delivering once deleted, and a resend to it is refused with 404', async () => {
    const { sim, stripe } = setup()
    const { id } = await stripe.webhookEndpoints.create({ url: URL_A, enabled_events: ['*'] })
    // Not an event destination: the v2 operations do not find it.
    for (const op of ['ping', 'disable', 'roll_secret']) {
      expect((await v2(sim, 'POST', `/v2/core/event_destinations/${id}/${op}`, {})).status, op).toBe(404)
    }
    const got = collect(sim, URL_A)
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    expect(await stripe.webhookEndpoints.del(id)).toMatchObject({ id, deleted: true })
    sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    expect(got).toHaveLength(1)
    const retry = await v1(sim, 'POST', `/v1/events/${evt.id}/retry`, `webhook_endpoint=${id}`)
    expect(retry.status).toBe(404)
    expect(sim.admin.destinations()).toEqual([])
  })

  it('traces endpoint changes and keeps delivering after a snapshot is loaded', async () => {
    const { sim, stripe } = setup()
    const { id, secret } = await stripe.webhookEndpoints.create({ url: URL_A, enabled_events: ['*'] })
    await stripe.webhookEndpoints.update(id, { disabled: true })
    await stripe.webhookEndpoints.update(id, { disabled: false })
    expect(sim.trace.filter('destination.created').map((e) => e.data)).toEqual([
      { id, account: sim.platform.id, mode: 'test', status: 'enabled' },
    ])
    expect(sim.trace.filter('destination.updated').map((e) => (e.data as { status: string }).status)).toEqual([
      'disabled',
      'enabled',
    ])
    const loaded = createSimulator({ from: JSON.parse(JSON.stringify(sim.snapshot())) })
    const got = collect(loaded, URL_A)
    loaded.admin.trigger('customer.created', { synthetic: true })
    await loaded.settle()
    expect(got).toHaveLength(1)
    const client = new Stripe('sk_test_x')
    expect(client.webhooks.constructEvent(got[0]!.raw, got[0]!.signature, secret ?? '', 300, undefined, got[0]!.at).type).toBe(
      'customer.created',
    )
  })
})
