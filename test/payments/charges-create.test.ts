import { describe, expect, it } from 'vitest'
import { dataOf, setup, stateOf } from '../accounts/helpers.js'
import { caught } from './helpers.js'

const CARD = { number: '4242424242424242', exp_month: '12', exp_year: '2034', cvc: '123' }

describe('tokens', () => {
  it('makes a card token from card details, which a charge uses once', async () => {
    const { stripe } = setup(201)
    const token = await stripe.tokens.create({ card: { ...CARD, name: 'Jenny Rosen', address_zip: '94110' } })
    expect(token).toMatchObject({ object: 'token', type: 'card', used: false, livemode: false })
    expect(token.card).toMatchObject({ object: 'card', brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2034 })
    expect(token.card?.id).toMatch(/^card_/)
    const charge = await stripe.charges.create({ amount: 2000, currency: 'usd', source: token.id })
    expect(charge.status).toBe('succeeded')
    expect(charge.payment_method).toBe(token.card?.id)
    expect((charge.source as { id: string }).id).toBe(token.card?.id)
    expect(charge.billing_details.name).toBe('Jenny Rosen')
    expect((await stripe.tokens.retrieve(token.id)).used).toBe(true)
    const again = await caught(stripe.charges.create({ amount: 2000, currency: 'usd', source: token.id }))
    expect(again.statusCode).toBe(400)
    expect(again.message).toBe(`You cannot use a Stripe token more than once: ${token.id}.`)
  })

  it('refuses bad card details with the card errors and stores nothing', async () => {
    const { sim, stripe } = setup(202)
    const before = stateOf(sim)
    const luhn = await caught(stripe.tokens.create({ card: { ...CARD, number: '4242424242424241' } }))
    expect([luhn.statusCode, luhn.type, luhn.code, luhn.param]).toEqual([402, 'StripeCardError', 'incorrect_number', 'number'])
    const month = await caught(stripe.tokens.create({ card: { ...CARD, exp_month: '13' } }))
    expect(month.code).toBe('invalid_expiry_month')
    const year = await caught(stripe.tokens.create({ card: { ...CARD, exp_year: '2020' } }))
    expect(year.code).toBe('invalid_expiry_year')
    expect(stateOf(sim)).toBe(before)
    expect((await stripe.tokens.create({ card: CARD })).id).toMatch(/^tok_/)
  })

  it('a test card number behaves as its test card', async () => {
    const { stripe } = setup(203)
    const token = await stripe.tokens.create({ card: { ...CARD, number: '4000000000009995' } })
    const e = await caught(stripe.charges.create({ amount: 2000, currency: 'usd', source: token.id }))
    expect([e.statusCode, e.code, e.decline_code]).toEqual([402, 'card_declined', 'insufficient_funds'])
  })
})

describe('charges.create', () => {
  it('charges a test token: charge.succeeded, a balance transaction, the card as source', async () => {
    const { sim, stripe } = setup(204)
    const charge = await stripe.charges.create({
      amount: 2000,
      currency: 'usd',
      source: 'tok_mastercard',
      description: 'Order 7',
      metadata: { order: '7' },
      receipt_email: 'a@example.com',
    })
    expect(charge).toMatchObject({
      object: 'charge',
      amount: 2000,
      amount_captured: 2000,
      captured: true,
      paid: true,
      status: 'succeeded',
      description: 'Order 7',
      metadata: { order: '7' },
      receipt_email: 'a@example.com',
      payment_intent: null,
    })
    expect(charge.payment_method_details?.card).toMatchObject({ brand: 'mastercard', last4: '4444' })
    expect((charge.source as { object: string; brand: string }).brand).toBe('MasterCard')
    const txn = await stripe.balanceTransactions.retrieve(charge.balance_transaction as string)
    expect(txn).toMatchObject({ amount: 2000, fee: 88, net: 1912, type: 'charge', source: charge.id })
    const types = sim.admin.events({}).map((e) => e.type)
    expect(types).toContain('charge.succeeded')
    const succeeded = sim.admin.events({ type: 'charge.succeeded' })[0]
    expect(dataOf(succeeded).object.id).toBe(charge.id)
  })

  it('declines the decline test tokens with the decline codes, keeping the failed charge', async () => {
    const { sim, stripe } = setup(205)
    for (const [token, code, decline] of [
      ['tok_chargeDeclined', 'card_declined', 'generic_decline'],
      ['tok_chargeDeclinedInsufficientFunds', 'card_declined', 'insufficient_funds'],
      ['tok_chargeDeclinedExpiredCard', 'expired_card', 'expired_card'],
      ['tok_chargeDeclinedIncorrectCvc', 'incorrect_cvc', 'incorrect_cvc'],
    ] as const) {
      const e = await caught(stripe.charges.create({ amount: 1000, currency: 'usd', source: token }))
      expect([e.statusCode, e.type, e.code, e.decline_code]).toEqual([402, 'StripeCardError', code, decline])
      const failed = await stripe.charges.retrieve(e.raw.charge)
      expect(failed).toMatchObject({ status: 'failed', paid: false, failure_code: code, balance_transaction: null })
    }
    expect(sim.admin.events({ type: 'charge.failed' })).toHaveLength(4)
    expect(sim.admin.balance(sim.platform.id)).toEqual([])
  })

  it('charges a payment method, and a customer by its default payment method', async () => {
    const { stripe } = setup(206)
    const byPm = await stripe.charges.create({ amount: 1500, currency: 'eur', source: 'pm_card_visa' })
    expect(byPm.payment_method).toMatch(/^pm_/)
    const customer = await stripe.customers.create({ email: 'c@example.com' })
    const pm = await stripe.paymentMethods.attach('pm_card_amex', { customer: customer.id })
    const none = await caught(stripe.charges.create({ amount: 1500, currency: 'usd', customer: customer.id }))
    expect([none.statusCode, none.code, none.message]).toEqual([
      400,
      'missing',
      'Cannot charge a customer that has no active card',
    ])
    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } })
    const charge = await stripe.charges.create({ amount: 1500, currency: 'usd', customer: customer.id })
    expect([charge.customer, charge.payment_method, charge.status]).toEqual([customer.id, pm.id, 'succeeded'])
    const other = await stripe.customers.create({ email: 'd@example.com' })
    const wrong = await caught(stripe.charges.create({ amount: 1500, currency: 'usd', customer: other.id, source: pm.id }))
    expect([wrong.statusCode, wrong.param]).toEqual([400, 'source'])
  })

  it('refuses bad requests with the provider errors and changes nothing', async () => {
    const { sim, stripe } = setup(207)
    const before = stateOf(sim)
    const cases = [
      [{ currency: 'usd', source: 'tok_visa' }, 'parameter_missing', 'amount'],
      [{ amount: 2000, source: 'tok_visa' }, 'parameter_missing', 'currency'],
      [{ amount: 10, currency: 'usd', source: 'tok_visa' }, 'amount_too_small', 'amount'],
      [{ amount: 2000, currency: 'usd' }, 'parameter_missing', 'source'],
      [{ amount: 2000, currency: 'usd', source: 'tok_nope' }, 'resource_missing', 'source'],
      [{ amount: 2000, currency: 'usd', source: 'tok_visa', customer: 'cus_nope' }, 'resource_missing', 'customer'],
    ] as const
    for (const [params, code, param] of cases) {
      const e = await caught(stripe.charges.create(params as never))
      expect([e.statusCode, e.code, e.param]).toEqual([400, code, param])
    }
    expect(stateOf(sim)).toBe(before)
  })
})

describe('charges capture, update and search', () => {
  it('authorises with capture: false and captures later, moving money only then', async () => {
    const { sim, stripe } = setup(208)
    const held = await stripe.charges.create({ amount: 3000, currency: 'usd', source: 'tok_visa', capture: false })
    expect(held).toMatchObject({ captured: false, amount_captured: 0, balance_transaction: null, status: 'succeeded' })
    expect(sim.admin.balance(sim.platform.id)).toEqual([])
    const over = await caught(stripe.charges.capture(held.id, { amount: 3001 }))
    expect([over.statusCode, over.code, over.param]).toEqual([400, 'amount_too_large', 'amount'])
    const captured = await stripe.charges.capture(held.id, { amount: 2500 })
    expect(captured).toMatchObject({ captured: true, amount_captured: 2500 })
    expect((await stripe.balanceTransactions.retrieve(captured.balance_transaction as string)).amount).toBe(2500)
    expect(sim.admin.events({ type: 'charge.captured' })).toHaveLength(1)
    const twice = await caught(stripe.charges.capture(held.id))
    expect([twice.statusCode, twice.code]).toEqual([400, 'charge_already_captured'])
  })

  it('updates a charge with charge.updated, and finds it by search', async () => {
    const { sim, stripe } = setup(209)
    const charge = await stripe.charges.create({ amount: 2000, currency: 'usd', source: 'tok_visa' })
    await stripe.charges.create({ amount: 900, currency: 'usd', source: 'tok_visa' })
    const updated = await stripe.charges.update(charge.id, { description: 'Paid', metadata: { order: '42' } })
    expect(updated).toMatchObject({ description: 'Paid', metadata: { order: '42' } })
    const event = sim.admin.events({ type: 'charge.updated' })[0]
    expect(dataOf(event).previous_attributes).toMatchObject({ description: null })
    const found = await stripe.charges.search({ query: "metadata['order']:'42'" })
    expect(found.data.map((c) => c.id)).toEqual([charge.id])
    const big = await stripe.charges.search({ query: 'amount>1000' })
    expect(big.data.map((c) => c.id)).toEqual([charge.id])
  })
})
