import { describe, expect, it } from 'vitest'
import { dataOf } from '../accounts/helpers.js'
import { call, setup } from './helpers.js'

describe('resource engine through the public surface', () => {
  it('merges metadata and reports previous_attributes on customer.updated', async () => {
    const { sim, stripe } = setup()
    const c = await stripe.customers.create({ email: 'a@example.com', metadata: { a: '1', b: '2' } })
    const up = await stripe.customers.update(c.id, { metadata: { a: '', c: '3' } })
    expect(up.metadata).toEqual({ b: '2', c: '3' })
    const updated = sim.admin.events({ type: 'customer.updated' })[0]
    expect(dataOf(updated).previous_attributes).toEqual({ metadata: { a: '1', b: '2' } })
    const cleared = await stripe.customers.update(c.id, { metadata: '' as never })
    expect(cleared.metadata).toEqual({})
  })

  it('pages a list and filters it by created[gte]', async () => {
    const { sim, stripe } = setup()
    const first = await stripe.coupons.create({ percent_off: 10 })
    await sim.clock.tickAsync(10_000)
    const later = [await stripe.coupons.create({ percent_off: 20 }), await stripe.coupons.create({ percent_off: 30 })]
    const page = await stripe.coupons.list({ limit: 2 })
    expect(page.data.map((c) => c.id)).toEqual([later[1]?.id, later[0]?.id])
    expect(page.has_more).toBe(true)
    const rest = await stripe.coupons.list({ limit: 2, starting_after: later[0]?.id as string })
    expect(rest.data.map((c) => c.id)).toEqual([first.id])
    const recent = await stripe.coupons.list({ created: { gte: first.created + 10 } })
    expect(recent.data.map((c) => c.id)).toEqual([later[1]?.id, later[0]?.id])
    const customers = await stripe.customers.list({ created: { lt: first.created + 1 } })
    expect(customers.data).toEqual([])
  })

  it("searches with metadata['k']:'v' AND email:'x', page by page", async () => {
    const { stripe } = setup()
    const hit = await stripe.customers.create({ email: 'x@example.com', metadata: { k: 'v' } })
    await stripe.customers.create({ email: 'y@example.com', metadata: { k: 'v' } })
    await stripe.customers.create({ email: 'x@example.com', metadata: { k: 'w' } })
    const found = await stripe.customers.search({ query: "metadata['k']:'v' AND email:'x@example.com'" })
    expect(found.object).toBe('search_result')
    expect(found.data.map((c) => c.id)).toEqual([hit.id])
    const first = await stripe.customers.search({ query: "metadata['k']:'v'", limit: 1 })
    expect(first.has_more).toBe(true)
    const second = await stripe.customers.search({ query: "metadata['k']:'v'", limit: 1, page: first.next_page as string })
    expect(second.has_more).toBe(false)
    expect([...first.data, ...second.data].map((c) => c.id)).toHaveLength(2)
  })

  it('answers GET /v1/customers/search as customers.search, never a retrieve of id search', async () => {
    const { sim, key } = setup()
    const res = await call(sim, key, 'GET', `/v1/customers/search?query=${encodeURIComponent("email:'none@example.com'")}`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ object: 'search_result', data: [], url: '/v1/customers/search' })
    expect(sim.trace.filter('http').at(-1)?.data.operation).toBe('customers.search')
  })

  it('expands customer on a payment intent, its charge and a refund', async () => {
    const { stripe } = setup()
    const c = await stripe.customers.create({ email: 'e@example.com' })
    const pi = await stripe.paymentIntents.create({
      amount: 900,
      currency: 'usd',
      customer: c.id,
      payment_method: 'pm_card_visa',
      confirm: true,
      expand: ['customer', 'latest_charge'],
    })
    expect(pi.customer).toMatchObject({ id: c.id, object: 'customer' })
    expect(pi.latest_charge).toMatchObject({ object: 'charge', amount: 900 })
    const got = await stripe.paymentIntents.retrieve(pi.id, { expand: ['customer'] })
    expect(got.customer).toMatchObject({ id: c.id, email: 'e@example.com' })
    const charge = await stripe.charges.retrieve((pi.latest_charge as { id: string }).id, { expand: ['customer'] })
    expect(charge.customer).toMatchObject({ id: c.id })
    const refund = await stripe.refunds.create({ payment_intent: pi.id, expand: ['charge.customer', 'payment_intent'] })
    expect(refund).toMatchObject({ status: 'succeeded', amount: 900, currency: 'usd' })
    expect(refund.charge).toMatchObject({ object: 'charge', customer: { id: c.id } })
    expect(refund.payment_intent).toMatchObject({ id: pi.id })
    const listed = await stripe.paymentIntents.list({ expand: ['data.customer'] })
    expect(listed.data[0]?.customer).toMatchObject({ id: c.id })
  })

  it("keeps accounts apart: another account's customer is 404", async () => {
    const { sim, stripe, key } = setup()
    const other = sim.admin.createAccount({ email: 'other@example.com' })
    const theirs = await stripe.customers.create({ email: 'o@example.com' }, { stripeAccount: other.id })
    const res = await call(sim, key, 'GET', `/v1/customers/${theirs.id}`)
    expect([res.status, res.body.error.code]).toEqual([404, 'resource_missing'])
    const price = await stripe.prices.create({ currency: 'usd', unit_amount: 100, product_data: { name: 'x' } } as never, {
      stripeAccount: other.id,
    })
    expect((await call(sim, key, 'GET', `/v1/prices/${price.id}`)).status).toBe(404)
  })

  it('serves the legacy sources (no 501 left); an unknown path is 404 url_unrecognized, a wrong verb 405', async () => {
    const { sim, key, stripe } = setup()
    const res = await call(sim, key, 'GET', '/v1/customers/cus_x/sources')
    expect(res.status).toBe(404)
    expect(res.body.error).toMatchObject({ code: 'resource_missing', message: "No such customer: 'cus_x'" })
    const customer = await stripe.customers.create({ email: 'src@example.com' })
    await expect(stripe.customers.listSources(customer.id)).resolves.toMatchObject({ object: 'list', data: [] })
    expect((await call(sim, key, 'GET', '/v1/nothing_here')).body.error.code).toBe('url_unrecognized')
    expect((await call(sim, key, 'DELETE', '/v1/balance')).status).toBe(405)
  })

  it('rejects a connected account: charges and payouts off until unrejected, with account.updated', async () => {
    const { sim, stripe } = setup()
    const account = await stripe.accounts.create({
      type: 'custom',
      country: 'US',
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
    })
    const rejected = await stripe.accounts.reject(account.id, { reason: 'fraud_other' })
    expect(rejected).toMatchObject({ charges_enabled: false, payouts_enabled: false })
    expect(rejected.requirements?.disabled_reason).toBe('rejected.platform_fraud')
    // A later change keeps the rejection.
    const updated = await stripe.accounts.update(account.id, { metadata: { k: 'v' } })
    expect(updated.requirements?.disabled_reason).toBe('rejected.platform_fraud')
    await expect(stripe.accounts.reject(account.id, { reason: 'other' })).rejects.toMatchObject({ statusCode: 400 })
    const back = await stripe.accounts.unreject(account.id)
    expect(back.requirements?.disabled_reason).not.toMatch(/^rejected\./)
    expect(sim.admin.events({ type: 'account.updated' }).length).toBeGreaterThanOrEqual(3)
    const standard = await stripe.accounts.create({ type: 'standard', country: 'US' })
    await expect(stripe.accounts.reject(standard.id, { reason: 'other' })).rejects.toMatchObject({ statusCode: 400 })
  })

  it('creates a subscription with its items and emits customer.subscription.created', async () => {
    const { sim, stripe } = setup()
    const c = await stripe.customers.create({ email: 's@example.com' })
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 1500,
      recurring: { interval: 'month' },
      product: (await stripe.products.create({ name: 'P' })).id,
    })
    expect(price).toMatchObject({ type: 'recurring', recurring: { interval: 'month', interval_count: 1 } })
    expect(String(price.unit_amount_decimal)).toBe('1500')
    const sub = await stripe.subscriptions.create({ customer: c.id, items: [{ price: price.id, quantity: 2 }] })
    expect(sub.items.data).toHaveLength(1)
    expect(sub.items.data[0]).toMatchObject({ price: { id: price.id }, quantity: 2, subscription: sub.id })
    expect(sim.admin.events({ type: 'customer.subscription.created' })).toHaveLength(1)
    const canceled = await stripe.subscriptions.cancel(sub.id)
    expect(canceled.status).toBe('canceled')
  })

  it('nests tax ids under their customer', async () => {
    const { stripe } = setup()
    const a = await stripe.customers.create({ email: 'a@example.com' })
    const b = await stripe.customers.create({ email: 'b@example.com' })
    const t = await stripe.customers.createTaxId(a.id, { type: 'eu_vat', value: 'DE123456789' })
    expect(t).toMatchObject({ object: 'tax_id', customer: a.id, type: 'eu_vat', value: 'DE123456789' })
    expect((await stripe.customers.listTaxIds(a.id)).data.map((x) => x.id)).toEqual([t.id])
    expect((await stripe.customers.listTaxIds(b.id)).data).toEqual([])
    await expect(stripe.customers.retrieveTaxId(b.id, t.id)).rejects.toMatchObject({ statusCode: 404 })
  })
})

describe('customers and products through the engine', () => {
  it('keeps every documented param the catalogue accepts (none is dropped on the way)', async () => {
    const { stripe } = setup()
    const c = await stripe.customers.create({ email: 'a@example.com', address: { city: 'Paris' }, balance: 5 })
    expect(c).toMatchObject({ address: { city: 'Paris' }, balance: 5 })
    const p = await stripe.products.create({ name: 'P', tax_code: 'txcd_10000000', marketing_features: [{ name: 'Fast' }] })
    expect(p).toMatchObject({ tax_code: 'txcd_10000000', marketing_features: [{ name: 'Fast' }], type: 'service' })
    const up = await stripe.products.update(p.id, { unit_label: 'seat', images: ['https://example.com/a.png'] })
    expect(up).toMatchObject({ unit_label: 'seat', images: ['https://example.com/a.png'] })
  })

  it("refuses what the provider refuses beyond the params' types, and changes nothing", async () => {
    const { sim, stripe } = setup()
    const p = await stripe.products.create({ name: 'P' })
    const before = sim.admin.events().length
    const refusals: [Promise<unknown>, string, string][] = [
      [stripe.customers.create({ email: 'not-an-email' }), 'email_invalid', 'email'],
      [stripe.products.create({ name: '' }), 'parameter_invalid_empty', 'name'],
      [stripe.products.update(p.id, { images: Array(9).fill('https://example.com/a.png') }), 'parameter_invalid', 'images'],
      [
        stripe.products.create({ name: 'P', statement_descriptor: 'x'.repeat(23) }),
        'parameter_invalid_string_too_long',
        'statement_descriptor',
      ],
      // Metadata limits hold on every declared resource.
      [
        stripe.coupons.create({ percent_off: 5, metadata: { ['k'.repeat(41)]: 'v' } }),
        'parameter_invalid',
        `metadata[${'k'.repeat(41)}]`,
      ],
      [stripe.customers.create({ metadata: { k: 'v'.repeat(501) } }), 'parameter_invalid_string_too_long', 'metadata[k]'],
      [
        stripe.customers.update('cus_x', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }),
        'resource_missing',
        'id',
      ],
    ]
    for (const [call, code, param] of refusals)
      await expect(call).rejects.toMatchObject({ statusCode: expect.any(Number), code, param })
    const c = await stripe.customers.create({})
    await expect(
      stripe.customers.update(c.id, { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }),
    ).rejects.toMatchObject({ code: 'parameter_invalid', param: 'metadata' })
    expect(sim.admin.events().length).toBe(before + 1)
  })
})

describe('payment methods list', () => {
  it('lists the payment methods the store holds, by customer', async () => {
    const { stripe } = setup()
    const c = await stripe.customers.create({ email: 'pm@example.com', payment_method: 'pm_card_visa' })
    const all = await stripe.paymentMethods.list()
    expect(all.data).toHaveLength(1)
    const mine = await stripe.paymentMethods.list({ customer: c.id })
    expect(mine.data.map((pm) => pm.customer)).toEqual([c.id])
    const viaCustomer = await stripe.customers.listPaymentMethods(c.id)
    expect(viaCustomer.data.map((pm) => pm.id)).toEqual(mine.data.map((pm) => pm.id))
  })
})
