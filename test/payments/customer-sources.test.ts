import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { caught, officialClient } from './helpers.js'

const types = (sim: ReturnType<typeof officialClient>['sim']) => sim.admin.events().map((e) => e.type)

describe('legacy customer sources and cards', () => {
  it('makes a test token the new customer card and its default_source', async () => {
    const { sim, stripe } = officialClient(31)
    const customer = await stripe.customers.create({ source: 'tok_visa', email: 'jenny@example.com' })
    expect(customer.default_source).toMatch(/^card_/)
    const card = (await stripe.customers.retrieveSource(customer.id, String(customer.default_source))) as Stripe.Card
    expect(card).toMatchObject({ object: 'card', brand: 'Visa', last4: '4242', customer: customer.id, funding: 'credit' })
    expect(types(sim)).toEqual(expect.arrayContaining(['customer.created', 'customer.source.created']))
    const expanded = await stripe.customers.retrieve(customer.id, { expand: ['sources', 'default_source'] })
    expect((expanded as Stripe.Customer).sources?.data.map((s) => s.id)).toEqual([card.id])
    expect(((expanded as Stripe.Customer).default_source as Stripe.Card).last4).toBe('4242')
  })

  it('creates, lists, updates and deletes sources with their events; the first is the default', async () => {
    const { sim, stripe } = officialClient(32)
    const customer = await stripe.customers.create({ email: 'a@example.com' })
    const visa = (await stripe.customers.createSource(customer.id, { source: 'tok_visa' })) as Stripe.Card
    const mc = (await stripe.customers.createSource(customer.id, {
      source: 'tok_mastercard',
      metadata: { n: '2' },
    })) as Stripe.Card
    expect(mc).toMatchObject({ brand: 'MasterCard', last4: '4444', metadata: { n: '2' } })
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ default_source: visa.id })
    const list = await stripe.customers.listSources(customer.id, { object: 'card', limit: 1 })
    expect(list.data.map((s) => s.id)).toEqual([mc.id])
    expect(list.has_more).toBe(true)

    const updated = (await stripe.customers.updateSource(customer.id, visa.id, {
      name: 'Jenny Rosen',
      exp_year: '2040',
    })) as Stripe.Card
    expect(updated).toMatchObject({ name: 'Jenny Rosen', exp_year: 2040 })
    const [event] = sim.admin.events({ type: 'customer.source.updated' })
    expect((event?.body.data as { previous_attributes: unknown } | undefined)?.previous_attributes).toEqual({
      name: null,
      exp_year: 2034,
    })

    const deleted = await stripe.customers.deleteSource(customer.id, visa.id)
    expect(deleted).toMatchObject({ id: visa.id, deleted: true })
    // Deleting the default moves it to the customer's other card, with customer.updated.
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ default_source: mc.id })
    expect(types(sim)).toEqual(expect.arrayContaining(['customer.source.deleted', 'customer.updated']))
    const gone = await caught(stripe.customers.retrieveSource(customer.id, visa.id))
    expect([gone.statusCode, gone.type, gone.code, gone.message]).toEqual([
      404,
      'StripeInvalidRequestError',
      'resource_missing',
      `No such source: '${visa.id}'`,
    ])
  })

  it('charges a customer card as a source and by default, and refuses another customer card', async () => {
    const { stripe } = officialClient(33)
    const customer = await stripe.customers.create({ source: 'tok_mastercard' })
    const byDefault = await stripe.charges.create({ amount: 1500, currency: 'usd', customer: customer.id })
    expect(byDefault).toMatchObject({ status: 'succeeded', paid: true })
    expect((byDefault.source as Stripe.Card).id).toBe(customer.default_source)
    const named = await stripe.charges.create({
      amount: 700,
      currency: 'usd',
      customer: customer.id,
      source: String(customer.default_source),
    })
    expect(named.payment_method_details?.card?.last4).toBe('4444')
    const other = await stripe.customers.create({ email: 'b@example.com' })
    const error = await caught(
      stripe.charges.create({ amount: 700, currency: 'usd', customer: other.id, source: String(customer.default_source) }),
    )
    expect([error.statusCode, error.code, error.param]).toEqual([400, 'resource_missing', 'source'])
  })

  it('lets a saved card act as a payment method id, listed among the customer payment methods', async () => {
    const { stripe } = officialClient(34)
    const customer = await stripe.customers.create({ source: 'tok_visa' })
    const cardId = String(customer.default_source)
    const pms = await stripe.paymentMethods.list({ customer: customer.id, type: 'card' })
    expect(pms.data.map((pm) => [pm.id, pm.card?.last4])).toEqual([[cardId, '4242']])
    const intent = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      customer: customer.id,
      payment_method: cardId,
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    })
    expect(intent.status).toBe('succeeded')
  })

  it('refuses a declining test token at attach with its card error, and keeps nothing', async () => {
    const { stripe } = officialClient(35)
    const customer = await stripe.customers.create({ email: 'c@example.com' })
    const error = await caught(stripe.customers.createSource(customer.id, { source: 'tok_chargeDeclined' }))
    expect([error.statusCode, error.type, error.code, error.decline_code]).toEqual([
      402,
      'StripeCardError',
      'card_declined',
      'generic_decline',
    ])
    expect((await stripe.customers.listSources(customer.id)).data).toEqual([])
    // The documented card that attaches and fails when charged.
    const kept = await stripe.customers.createSource(customer.id, { source: 'tok_chargeCustomerFail' })
    const failed = await caught(stripe.charges.create({ amount: 500, currency: 'usd', customer: customer.id, source: kept.id }))
    expect([failed.statusCode, failed.code]).toEqual([402, 'card_declined'])
  })

  it('refuses an unknown token, a used token and a default_source the customer does not have', async () => {
    const { stripe } = officialClient(36)
    const customer = await stripe.customers.create({ email: 'd@example.com' })
    const missing = await caught(stripe.customers.createSource(customer.id, { source: 'tok_nope' }))
    expect([missing.statusCode, missing.code, missing.param, missing.message]).toEqual([
      400,
      'resource_missing',
      'source',
      "No such token: 'tok_nope'",
    ])
    const token = await stripe.tokens.create({ card: { number: '4242424242424242', exp_month: '12', exp_year: '2034' } } as never)
    const card = await stripe.customers.createSource(customer.id, { source: token.id })
    expect(card.id).toBe(token.card?.id)
    const again = await caught(stripe.customers.createSource(customer.id, { source: token.id }))
    expect([again.statusCode, again.param]).toEqual([400, 'source'])
    const other = await stripe.customers.create({ source: 'tok_visa' })
    const wrong = await caught(stripe.customers.update(customer.id, { default_source: String(other.default_source) }))
    expect([wrong.statusCode, wrong.code, wrong.param]).toEqual([400, 'resource_missing', 'default_source'])
  })

  it('replaces the default card when a customer is updated with a source', async () => {
    const { sim, stripe } = officialClient(37)
    const customer = await stripe.customers.create({ source: 'tok_visa' })
    const old = String(customer.default_source)
    const updated = await stripe.customers.update(customer.id, { source: 'tok_amex' })
    expect(updated.default_source).not.toBe(old)
    const sources = await stripe.customers.listSources(customer.id)
    expect(sources.data.map((s) => (s as Stripe.Card).brand)).toEqual(['American Express'])
    expect(sim.admin.events({ type: 'customer.source.deleted' }).length).toBe(1)
  })

  it('verifies a bank account source with the documented micro-deposits', async () => {
    const { stripe } = officialClient(38)
    const customer = await stripe.customers.create({ email: 'e@example.com' })
    const token = await stripe.tokens.create({
      bank_account: {
        country: 'US',
        currency: 'usd',
        account_holder_name: 'Jenny',
        account_holder_type: 'individual',
        routing_number: '110000000',
        account_number: '000123456789',
      },
    })
    const bank = await stripe.customers.createSource(customer.id, { source: token.id })
    expect(bank).toMatchObject({ object: 'bank_account', status: 'new', last4: '6789', customer: customer.id })
    const wrong = await caught(stripe.customers.verifySource(customer.id, bank.id, { amounts: [1, 2] }))
    expect([wrong.statusCode, wrong.code]).toEqual([400, 'bank_account_verification_failed'])
    const verified = await stripe.customers.verifySource(customer.id, bank.id, { amounts: [32, 45] })
    expect(verified.status).toBe('verified')
  })
})
