import { describe, expect, it } from 'vitest'
import { dataOf, form, setup, stateOf } from './helpers.js'

describe('customers', () => {
  it('creates, retrieves, updates and deletes a customer through the official client', async () => {
    const { stripe, sim } = setup()
    const c = await stripe.customers.create({ email: 'jenny@example.com', metadata: { plan: 'pro' } })
    expect(c.id).toMatch(/^cus_/)
    expect(c.email).toBe('jenny@example.com')
    expect(c.livemode).toBe(false)
    const got = await stripe.customers.retrieve(c.id)
    expect(got).toMatchObject({ id: c.id, email: 'jenny@example.com', metadata: { plan: 'pro' } })
    const up = await stripe.customers.update(c.id, { name: 'Jenny', metadata: { plan: '' } })
    expect(up.name).toBe('Jenny')
    expect(up.metadata).toEqual({})
    const del = await stripe.customers.del(c.id)
    expect(del).toMatchObject({ id: c.id, object: 'customer', deleted: true })
    const after = await stripe.customers.retrieve(c.id)
    expect(after.deleted).toBe(true)
    const types = sim.admin.events({ account: sim.platform.id }).map((e) => e.type)
    expect(types).toEqual(['customer.created', 'customer.updated', 'customer.deleted'])
  })

  it('snapshots data.object as it was at each change', async () => {
    const { stripe, sim } = setup()
    const c = await stripe.customers.create({ email: 'a@example.com' })
    await stripe.customers.update(c.id, { email: 'b@example.com' })
    const [created, updated] = sim.admin.events({ account: sim.platform.id })
    expect(dataOf(created).object.email).toBe('a@example.com')
    expect(dataOf(updated).object.email).toBe('b@example.com')
    expect(dataOf(updated).previous_attributes).toEqual({ email: 'a@example.com' })
  })

  it('pages customers with limit, starting_after, ending_before and has_more', async () => {
    const { stripe } = setup()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await stripe.customers.create({ email: `c${i}@example.com` })).id)
    const newest = [...ids].reverse()
    const p1 = await stripe.customers.list({ limit: 2 })
    expect(p1.data.map((c) => c.id)).toEqual(newest.slice(0, 2))
    expect(p1.has_more).toBe(true)
    const p2 = await stripe.customers.list({ limit: 2, starting_after: newest[1] as string })
    expect(p2.data.map((c) => c.id)).toEqual(newest.slice(2, 4))
    const p3 = await stripe.customers.list({ limit: 2, starting_after: newest[3] as string })
    expect(p3.data.map((c) => c.id)).toEqual(newest.slice(4))
    expect(p3.has_more).toBe(false)
    const back = await stripe.customers.list({ limit: 2, ending_before: newest[4] as string })
    expect(back.data.map((c) => c.id)).toEqual(newest.slice(2, 4))
    expect(back.has_more).toBe(true)
    const all: string[] = []
    for await (const c of stripe.customers.list({ limit: 2 })) all.push(c.id)
    expect(all).toEqual(newest)
  })

  it('leaves deleted customers out of lists', async () => {
    const { stripe } = setup()
    const a = await stripe.customers.create({ email: 'a@example.com' })
    const b = await stripe.customers.create({ email: 'b@example.com' })
    await stripe.customers.del(a.id)
    const list = await stripe.customers.list()
    expect(list.data.map((c) => c.id)).toEqual([b.id])
  })

  it('refuses bad input with the error envelope and changes nothing', async () => {
    const { sim, key } = setup()
    const before = stateOf(sim)
    const cases: [string, string, Record<string, string> | undefined, number, string | undefined][] = [
      ['POST', '/v1/customers', { email: 'not-an-email' }, 400, 'email'],
      ['POST', '/v1/customers', { emale: 'a@b.co' }, 400, 'emale'],
      ['POST', '/v1/customers', { payment_method: 'pm_nope' }, 400, 'payment_method'],
      ['GET', '/v1/customers/cus_doesnotexist', undefined, 404, 'id'],
      ['GET', '/v1/customers/%20garbage', undefined, 404, 'id'],
      ['POST', '/v1/customers/cus_doesnotexist', { name: 'x' }, 404, 'id'],
      ['DELETE', '/v1/customers/cus_doesnotexist', undefined, 404, 'id'],
      ['GET', '/v1/customers?limit=0', undefined, 400, 'limit'],
      ['GET', '/v1/customers?limit=1.5', undefined, 400, 'limit'],
      ['GET', '/v1/customers?starting_after=cus_nope', undefined, 404, 'starting_after'],
    ]
    for (const [method, path, body, status, param] of cases) {
      const res = await form(sim, key, method, path, body)
      expect({ path, body, status: res.status }).toEqual({ path, body, status })
      expect(res.body.error.type).toBe('invalid_request_error')
      expect(res.body.error.param).toBe(param)
    }
    expect(stateOf(sim)).toBe(before)
  })

  it('refuses to delete a customer twice with 404', async () => {
    const { stripe } = setup()
    const c = await stripe.customers.create({ email: 'x@example.com' })
    await stripe.customers.del(c.id)
    await expect(stripe.customers.del(c.id)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' })
  })
})
