import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

describe('billing portal configurations', () => {
  it('creates, retrieves, updates and lists configurations with their events', async () => {
    const { sim, stripe } = setup(121)
    const config = await stripe.billingPortal.configurations.create({
      features: { invoice_history: { enabled: true }, customer_update: { enabled: true, allowed_updates: ['email'] } },
      business_profile: { headline: 'Acme' },
      default_return_url: 'https://example.com/account',
    })
    expect(config).toMatchObject({ object: 'billing_portal.configuration', active: true, is_default: false })
    expect(config.features.invoice_history.enabled).toBe(true)
    expect(config.features.customer_update).toEqual({ enabled: true, allowed_updates: ['email'] })
    expect(config.features.subscription_cancel.enabled).toBe(false)
    expect(config.business_profile.headline).toBe('Acme')
    expect((await stripe.billingPortal.configurations.retrieve(config.id)).id).toBe(config.id)
    const off = await stripe.billingPortal.configurations.update(config.id, { active: false })
    expect(off.active).toBe(false)
    expect((await stripe.billingPortal.configurations.list({ active: false })).data.map((c) => c.id)).toEqual([config.id])
    const types = sim.admin.events().map((e) => e.type)
    expect(types).toEqual(
      expect.arrayContaining(['billing_portal.configuration.created', 'billing_portal.configuration.updated']),
    )
  })
})

describe('billing portal sessions', () => {
  it('makes the default configuration on first use and answers a portal url', async () => {
    const { sim, stripe } = setup(122)
    const customer = await stripe.customers.create({ email: 'p@example.com' })
    const session = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'https://example.com/back' })
    expect(session).toMatchObject({
      object: 'billing_portal.session',
      customer: customer.id,
      return_url: 'https://example.com/back',
    })
    expect(session.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_\w+$/)
    const defaults = await stripe.billingPortal.configurations.list({ is_default: true })
    expect(defaults.data).toHaveLength(1)
    expect(session.configuration).toBe(defaults.data[0]?.id)
    const again = await stripe.billingPortal.sessions.create({ customer: customer.id })
    expect(again.configuration).toBe(session.configuration)
    expect((await stripe.billingPortal.configurations.list()).data).toHaveLength(1)
    expect(sim.admin.events({ type: 'billing_portal.session.created' })).toHaveLength(2)
  })

  it('uses a named configuration and its default return url', async () => {
    const { stripe } = setup(123)
    const customer = await stripe.customers.create({})
    const config = await stripe.billingPortal.configurations.create({
      features: { invoice_history: { enabled: true } },
      default_return_url: 'https://example.com/home',
    })
    const session = await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: config.id })
    expect(session.configuration).toBe(config.id)
    expect(session.return_url).toBe('https://example.com/home')
  })

  it('refuses an unknown customer, an inactive configuration and deactivating the default, changing nothing', async () => {
    const { sim, stripe } = setup(124)
    const customer = await stripe.customers.create({})
    await expect(stripe.billingPortal.sessions.create({ customer: 'cus_nobody' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'customer',
    })
    expect((await stripe.billingPortal.configurations.list()).data).toEqual([])
    const config = await stripe.billingPortal.configurations.create({ features: { invoice_history: { enabled: true } } })
    await stripe.billingPortal.configurations.update(config.id, { active: false })
    const before = sim.admin.events().length
    await expect(stripe.billingPortal.sessions.create({ customer: customer.id, configuration: config.id })).rejects.toMatchObject(
      {
        statusCode: 400,
        param: 'configuration',
      },
    )
    expect(sim.admin.events().length).toBe(before)
    const session = await stripe.billingPortal.sessions.create({ customer: customer.id })
    await expect(
      stripe.billingPortal.configurations.update(session.configuration as string, { active: false }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'active' })
  })

  it('keeps a connected account portal apart from the platform', async () => {
    const { stripe } = setup(125)
    const account = await stripe.accounts.create({ type: 'standard' })
    const customer = await stripe.customers.create({})
    await expect(
      stripe.billingPortal.sessions.create({ customer: customer.id }, { stripeAccount: account.id }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'resource_missing' })
    const theirs = await stripe.customers.create({}, { stripeAccount: account.id })
    await stripe.billingPortal.sessions.create({ customer: theirs.id }, { stripeAccount: account.id })
    expect((await stripe.billingPortal.configurations.list()).data).toEqual([])
  })
})
