import { describe, expect, it } from 'vitest'
import { client, form, setup } from '../accounts/helpers.js'

describe('customer sessions', () => {
  it('answers a client secret for a customer with the components asked for', async () => {
    const { stripe } = setup(131)
    const customer = await stripe.customers.create({})
    const session = await stripe.customerSessions.create({
      customer: customer.id,
      components: { pricing_table: { enabled: true } },
    })
    expect(session.object).toBe('customer_session')
    expect(session.customer).toBe(customer.id)
    expect(session.client_secret).toMatch(/^cuss_secret_/)
    expect(session.expires_at - session.created).toBe(1800)
    expect(session.components?.pricing_table.enabled).toBe(true)
    expect(session.components?.buy_button.enabled).toBe(false)
  })

  it('refuses a customer of another account with 400 resource_missing', async () => {
    const { stripe } = setup(132)
    const account = await stripe.accounts.create({ type: 'standard' })
    const theirs = await stripe.customers.create({}, { stripeAccount: account.id })
    await expect(
      stripe.customerSessions.create({ customer: theirs.id, components: { buy_button: { enabled: true } } }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer' })
  })
})

describe('ephemeral keys', () => {
  it('creates a key for a customer with an explicit version and expires it with del', async () => {
    const { sim, key } = setup(133)
    const stripe = client(sim, key)
    const customer = await stripe.customers.create({})
    const made = await stripe.ephemeralKeys.create({ customer: customer.id }, { apiVersion: '2026-10-28.endive' })
    expect(made.object).toBe('ephemeral_key')
    expect(made.secret).toMatch(/^ek_test_/)
    expect((made as any).associated_objects).toEqual([{ id: customer.id, type: 'customer' }])
    const gone = await stripe.ephemeralKeys.del(made.id)
    expect(gone.id).toBe(made.id)
    expect(gone.expires).toBeLessThanOrEqual(made.created)
    await expect(stripe.ephemeralKeys.del(made.id)).rejects.toMatchObject({ statusCode: 404 })
  })

  it('refuses a key without the version header, and one for no object, changing nothing', async () => {
    const { sim, stripe, key } = setup(134)
    const customer = await stripe.customers.create({})
    const before = sim.admin.events().length
    const bare = await form(sim, key, 'POST', '/v1/ephemeral_keys', { customer: customer.id })
    expect(bare.status).toBe(400)
    expect(bare.body.error.message).toMatch(/API version/)
    const none = await form(sim, key, 'POST', '/v1/ephemeral_keys', {}, { 'Stripe-Version': '2026-10-28.endive' })
    expect(none.status).toBe(400)
    const other = await form(
      sim,
      key,
      'POST',
      '/v1/ephemeral_keys',
      { customer: 'cus_nobody' },
      { 'Stripe-Version': '2026-10-28.endive' },
    )
    expect([other.status, other.body.error.code]).toEqual([400, 'resource_missing'])
    expect(sim.admin.events().length).toBe(before)
  })
})
