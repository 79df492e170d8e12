import { describe, expect, it } from 'vitest'
import { dataOf, setup, stateOf } from '../accounts/helpers.js'
import { caught } from './helpers.js'

describe('paymentMethods.create and update', () => {
  it('creates a card payment method from card details, which pays an intent', async () => {
    const { stripe } = setup(221)
    const pm = await stripe.paymentMethods.create({
      type: 'card',
      card: { number: '5555555555554444', exp_month: 8, exp_year: 2031, cvc: '314' },
      billing_details: { name: 'Jenny Rosen', email: 'jenny@example.com' },
      metadata: { source: 'form' },
    })
    expect(pm).toMatchObject({ object: 'payment_method', type: 'card', customer: null, metadata: { source: 'form' } })
    expect(pm.card).toMatchObject({ brand: 'mastercard', last4: '4444', exp_month: 8, exp_year: 2031 })
    expect(pm.billing_details).toMatchObject({ name: 'Jenny Rosen', email: 'jenny@example.com' })
    const pi = await stripe.paymentIntents.create({ amount: 1200, currency: 'usd', payment_method: pm.id, confirm: true })
    expect(pi.status).toBe('succeeded')
    expect((await stripe.paymentMethods.retrieve(pm.id)).id).toBe(pm.id)
  })

  it('creates from a test token or a card token (which it uses up)', async () => {
    const { stripe } = setup(222)
    const fromTest = await stripe.paymentMethods.create({ type: 'card', card: { token: 'tok_chargeDeclined' } })
    const declined = await caught(
      stripe.paymentIntents.create({ amount: 1200, currency: 'usd', payment_method: fromTest.id, confirm: true }),
    )
    expect(declined.decline_code).toBe('generic_decline')
    const token = await stripe.tokens.create({ card: { number: '378282246310005', exp_month: '3', exp_year: '2030' } })
    const fromToken = await stripe.paymentMethods.create({ type: 'card', card: { token: token.id } })
    expect(fromToken.card).toMatchObject({ brand: 'amex', last4: '0005', exp_month: 3, exp_year: 2030 })
    const again = await caught(stripe.paymentMethods.create({ type: 'card', card: { token: token.id } }))
    expect([again.statusCode, again.message]).toEqual([400, `You cannot use a Stripe token more than once: ${token.id}.`])
  })

  it('refuses bad card details and changes nothing', async () => {
    const { sim, stripe } = setup(223)
    const before = stateOf(sim)
    const count = () => sim.service.paymentMethods.list({ account: sim.platform.id, mode: 'test' }).length
    const bad = await caught(
      stripe.paymentMethods.create({ type: 'card', card: { number: '4242424242424241', exp_month: 1, exp_year: 2030 } }),
    )
    expect([bad.statusCode, bad.code]).toEqual([402, 'incorrect_number'])
    const missing = await caught(stripe.paymentMethods.create({ type: 'card' }))
    expect([missing.statusCode, missing.code, missing.param]).toEqual([400, 'parameter_missing', 'card'])
    const noToken = await caught(stripe.paymentMethods.create({ type: 'card', card: { token: 'tok_missing' } }))
    expect([noToken.statusCode, noToken.code]).toEqual([400, 'resource_missing'])
    expect(stateOf(sim)).toBe(before)
    expect(count()).toBe(0)
  })

  it('updates billing details, metadata and expiry of a saved card with payment_method.updated', async () => {
    const { sim, stripe } = setup(224)
    const customer = await stripe.customers.create({ email: 'c@example.com' })
    const loose = await stripe.paymentMethods.create({ type: 'card', card: { token: 'tok_visa' } })
    const unattached = await caught(stripe.paymentMethods.update(loose.id, { metadata: { a: '1' } }))
    expect([unattached.statusCode, unattached.code]).toEqual([400, 'payment_method_unexpected_state'])
    await stripe.paymentMethods.attach(loose.id, { customer: customer.id })
    const updated = await stripe.paymentMethods.update(loose.id, {
      billing_details: { name: 'New Name' },
      metadata: { a: '1' },
      card: { exp_month: 6, exp_year: 2033 },
    })
    expect(updated.billing_details.name).toBe('New Name')
    expect(updated.metadata).toEqual({ a: '1' })
    expect(updated.card).toMatchObject({ exp_month: 6, exp_year: 2033, last4: '4242', brand: 'visa' })
    const event = sim.admin.events({ type: 'payment_method.updated' })[0]
    expect(dataOf(event).object.card.exp_month).toBe(6)
    const badMonth = await caught(stripe.paymentMethods.update(loose.id, { card: { exp_month: 13 } }))
    expect([badMonth.statusCode, badMonth.code]).toEqual([402, 'invalid_expiry_month'])
    const past = await caught(stripe.paymentMethods.update(loose.id, { card: { exp_year: 2001 } }))
    expect(past.code).toBe('invalid_expiry_year')
    expect((await stripe.paymentMethods.retrieve(loose.id)).card?.exp_month).toBe(6)
    const detached = await stripe.paymentMethods.detach(loose.id)
    expect(detached.customer).toBeNull()
  })
})
