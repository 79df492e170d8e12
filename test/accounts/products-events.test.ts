import { describe, expect, it } from 'vitest'
import { client, form, setup, stateOf } from './helpers.js'

describe('products', () => {
  it('creates, retrieves, updates and lists products with limit', async () => {
    const { stripe, sim } = setup()
    const a = await stripe.products.create({ name: 'Basic', metadata: { tier: '1' } })
    const b = await stripe.products.create({ name: 'Gold', description: 'the best' })
    expect(a).toMatchObject({ object: 'product', name: 'Basic', active: true, livemode: false })
    expect((await stripe.products.retrieve(b.id)).description).toBe('the best')
    const up = await stripe.products.update(a.id, { active: false })
    expect(up.active).toBe(false)
    const one = await stripe.products.list({ limit: 1 })
    expect(one.data.map((p) => p.id)).toEqual([b.id])
    expect(one.has_more).toBe(true)
    const active = await stripe.products.list({ active: true })
    expect(active.data.map((p) => p.id)).toEqual([b.id])
    expect(sim.admin.events({ type: 'product.created' })).toHaveLength(2)
    expect(sim.admin.events({ type: 'product.updated' })).toHaveLength(1)
  })

  it('refuses a product without a name, an unknown parameter, a taken id and a missing product', async () => {
    const { sim, key, stripe } = setup()
    await stripe.products.create({ name: 'X', id: 'prod_fixed' })
    const before = stateOf(sim)
    const cases: [string, string, Record<string, string> | undefined, number, string][] = [
      ['POST', '/v1/products', {}, 400, 'name'],
      ['POST', '/v1/products', { name: '' }, 400, 'name'],
      ['POST', '/v1/products', { name: 'Y', price: '5' }, 400, 'price'],
      ['POST', '/v1/products', { name: 'Y', id: 'prod_fixed' }, 400, 'id'],
      ['GET', '/v1/products/prod_nope', undefined, 404, 'id'],
      ['GET', '/v1/products?limit=101', undefined, 400, 'limit'],
      ['GET', '/v1/products?limit=-1', undefined, 400, 'limit'],
    ]
    for (const [method, path, body, status, param] of cases) {
      const res = await form(sim, key, method, path, body)
      expect({ path, body, status: res.status, param: res.body.error?.param }).toEqual({ path, body, status, param })
    }
    expect(stateOf(sim)).toBe(before)
  })
})

describe('v1 events', () => {
  it('lists and retrieves the snapshot events of the account, newest first, filtered by type', async () => {
    const { stripe } = setup()
    const c = await stripe.customers.create({ email: 'a@example.com' })
    await stripe.products.create({ name: 'P' })
    const list = await stripe.events.list()
    expect(list.data.map((e) => e.type)).toEqual(['product.created', 'customer.created'])
    const only = await stripe.events.list({ type: 'customer.*' })
    expect(only.data.map((e) => e.type)).toEqual(['customer.created'])
    const evt = await stripe.events.retrieve(only.data[0]?.id as string)
    expect((evt.data.object as { id: string }).id).toBe(c.id)
    expect(evt.request).toMatchObject({ id: expect.stringMatching(/^req_/) })
  })

  it('keeps an event structured by the version in force when it occurred, whatever version later requests carry', async () => {
    const { stripe, sim, key } = setup()
    sim.admin.setApiVersion(sim.platform.id, '2024-06-20')
    await stripe.customers.create({ email: 'old@example.com' })
    sim.admin.setApiVersion(sim.platform.id, '2026-10-28.endive')
    await stripe.customers.create({ email: 'new@example.com' })
    const [newer, older] = (await form(sim, key, 'GET', '/v1/events', undefined, { 'Stripe-Version': '2025-01-27.acacia' })).body
      .data
    expect(older.api_version).toBe('2024-06-20')
    expect(newer.api_version).toBe('2026-10-28.endive')
    const again = await form(sim, key, 'GET', `/v1/events/${older.id}`, undefined, { 'Stripe-Version': '2026-10-28.endive' })
    expect(again.body).toEqual(older)
  })

  it('carries account on a connected account event and context on an organisation member event', async () => {
    const { sim, stripe } = setup()
    const connected = sim.admin.createAccount({ email: 'shop@example.com' })
    await stripe.customers.create({ email: 'x@example.com' }, { stripeAccount: connected.id })
    const [evt] = sim.admin.events({ account: connected.id })
    expect(evt?.body.account).toBe(connected.id)
    const member = sim.admin.createAccount({ platform: undefined })
    sim.admin.createOrganisation({ accounts: [sim.platform.id, member.id] })
    await client(sim, member.keys.secret.test).customers.create({ email: 'm@example.com' })
    const [memberEvt] = sim.admin.events({ account: member.id })
    expect(memberEvt?.body.context).toBe(member.id)
  })

  it('answers 404 for an unknown event and 400 for type with types', async () => {
    const { sim, key } = setup()
    expect((await form(sim, key, 'GET', '/v1/events/evt_nope')).status).toBe(404)
    const both = await form(sim, key, 'GET', '/v1/events?type=a&types[]=b')
    expect(both.status).toBe(400)
  })
})
