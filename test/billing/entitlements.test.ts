import { describe, expect, it } from 'vitest'
import { billingClient, caught, monthlyPrice, payingCustomer } from './helpers.js'

const summaries = (sim: ReturnType<typeof billingClient>['sim']) =>
  sim.admin
    .events({ type: 'entitlements.active_entitlement_summary.updated' })
    .map((e) =>
      (e.body.data as { object: { entitlements: { data: { lookup_key: string }[] } } }).object.entitlements.data.map(
        (x) => x.lookup_key,
      ),
    )

describe('entitlement features', () => {
  it('creates, updates, lists and archives features; a lookup_key is unique', async () => {
    const { stripe } = billingClient()
    const sso = await stripe.entitlements.features.create({ name: 'SSO', lookup_key: 'sso' })
    expect([sso.id.startsWith('feat_'), sso.active]).toEqual([true, true])
    const dup = await caught(stripe.entitlements.features.create({ name: 'SSO again', lookup_key: 'sso' }))
    expect([dup.statusCode, dup.param]).toEqual([400, 'lookup_key'])
    await stripe.entitlements.features.create({ name: 'API', lookup_key: 'api' })
    const archived = await stripe.entitlements.features.update(sso.id, { active: false, name: 'Single sign-on' })
    expect([archived.active, archived.name]).toEqual([false, 'Single sign-on'])
    expect((await stripe.entitlements.features.list({ archived: true })).data.map((f) => f.lookup_key)).toEqual(['sso'])
    expect((await stripe.entitlements.features.list({ lookup_key: 'api' })).data.length).toBe(1)
    expect((await stripe.entitlements.features.retrieve(sso.id)).name).toBe('Single sign-on')
  })

  it('attaches features to a product once, lists and detaches them', async () => {
    const { stripe } = billingClient()
    const product = await stripe.products.create({ name: 'Pro' })
    const other = await stripe.products.create({ name: 'Basic' })
    const sso = await stripe.entitlements.features.create({ name: 'SSO', lookup_key: 'sso' })
    const pf = await stripe.products.createFeature(product.id, { entitlement_feature: sso.id })
    expect(pf.entitlement_feature.id).toBe(sso.id)
    expect('product' in pf).toBe(false)
    const again = await caught(stripe.products.createFeature(product.id, { entitlement_feature: sso.id }))
    expect([again.statusCode, again.param]).toEqual([400, 'entitlement_feature'])
    expect((await stripe.products.listFeatures(product.id)).data.map((f) => f.id)).toEqual([pf.id])
    expect((await stripe.products.listFeatures(other.id)).data).toEqual([])
    expect((await caught(stripe.products.retrieveFeature(other.id, pf.id))).statusCode).toBe(404)
    expect((await stripe.products.deleteFeature(product.id, pf.id)).deleted).toBe(true)
    expect((await stripe.products.listFeatures(product.id)).data).toEqual([])
  })
})

describe('active entitlements', () => {
  it('follow the customer subscriptions and emit the summary when they change', async () => {
    const { stripe, sim } = billingClient()
    const { customer } = await payingCustomer(stripe)
    const pro = await monthlyPrice(stripe, 2000, 'Pro')
    const basic = await monthlyPrice(stripe, 500, 'Basic')
    const sso = await stripe.entitlements.features.create({ name: 'SSO', lookup_key: 'sso' })
    const api = await stripe.entitlements.features.create({ name: 'API', lookup_key: 'api' })
    await stripe.products.createFeature(pro.product.id, { entitlement_feature: sso.id })
    await stripe.products.createFeature(pro.product.id, { entitlement_feature: api.id })
    await stripe.products.createFeature(basic.product.id, { entitlement_feature: api.id })

    expect((await stripe.entitlements.activeEntitlements.list({ customer: customer.id })).data).toEqual([])
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: pro.price.id }] })
    const active = await stripe.entitlements.activeEntitlements.list({ customer: customer.id })
    expect(active.data.map((e) => e.lookup_key).sort()).toEqual(['api', 'sso'])
    const one = await stripe.entitlements.activeEntitlements.retrieve(active.data[0]!.id)
    expect([one.object, one.feature]).toEqual(['entitlements.active_entitlement', active.data[0]!.feature])
    expect(summaries(sim).map((s) => [...s].sort())).toEqual([['api', 'sso']])

    // Pro to Basic: SSO goes, API stays.
    await stripe.subscriptions.update(sub.id, {
      items: [{ id: sub.items.data[0]!.id, price: basic.price.id }],
      proration_behavior: 'none',
    })
    expect((await stripe.entitlements.activeEntitlements.list({ customer: customer.id })).data.map((e) => e.lookup_key)).toEqual([
      'api',
    ])
    await stripe.subscriptions.cancel(sub.id)
    expect((await stripe.entitlements.activeEntitlements.list({ customer: customer.id })).data).toEqual([])
    expect(summaries(sim).map((s) => [...s].sort())).toEqual([['api', 'sso'], ['api'], []])
  })

  it('refuses a list without a customer with 400', async () => {
    const { stripe } = billingClient()
    const e = await caught(stripe.entitlements.activeEntitlements.list({} as { customer: string }))
    expect([e.statusCode, e.param]).toEqual([400, 'customer'])
  })
})
