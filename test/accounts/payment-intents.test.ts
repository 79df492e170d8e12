import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { dataOf, form, setup, stateOf } from './helpers.js'

describe('payment intents', () => {
  it('succeeds with pm_card_visa: a charge, a balance transaction and the snapshot events', async () => {
    const { stripe, sim } = setup()
    const pi = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    expect(pi.status).toBe('succeeded')
    expect(pi.amount_received).toBe(2000)
    expect(pi.payment_method).toMatch(/^pm_/)
    const charge = await stripe.charges.retrieve(pi.latest_charge as string)
    expect(charge).toMatchObject({ status: 'succeeded', paid: true, captured: true, amount: 2000, payment_intent: pi.id })
    const txn = await stripe.balanceTransactions.retrieve(charge.balance_transaction as string)
    expect(txn).toMatchObject({ amount: 2000, fee: 88, net: 1912, type: 'charge', status: 'pending', source: charge.id })
    const types = sim.admin.events({ account: sim.platform.id }).map((e) => e.type)
    expect(types).toEqual(['payment_intent.created', 'charge.created', 'charge.succeeded', 'payment_intent.succeeded'])
  })

  it('walks requires_payment_method -> requires_confirmation -> succeeded through update and confirm', async () => {
    const { stripe } = setup()
    const pi = await stripe.paymentIntents.create({ amount: 1500, currency: 'eur' })
    expect(pi.status).toBe('requires_payment_method')
    const up = await stripe.paymentIntents.update(pi.id, { payment_method: 'pm_card_mastercard', description: 'order 7' })
    expect(up.status).toBe('requires_confirmation')
    expect(up.description).toBe('order 7')
    const done = await stripe.paymentIntents.confirm(pi.id)
    expect(done.status).toBe('succeeded')
    const got = await stripe.paymentIntents.retrieve(pi.id)
    expect(got.status).toBe('succeeded')
  })

  it('declines pm_card_chargeDeclined with 402 card_error and leaves the intent in requires_payment_method', async () => {
    const { stripe, sim } = setup()
    const pi = await stripe.paymentIntents.create({ amount: 2000, currency: 'usd' })
    const err = await stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_chargeDeclined' }).catch((e) => e)
    expect(err).toBeInstanceOf(Stripe.errors.StripeCardError)
    expect(err).toMatchObject({
      statusCode: 402,
      type: 'StripeCardError',
      code: 'card_declined',
      decline_code: 'generic_decline',
    })
    expect(err.payment_intent.status).toBe('requires_payment_method')
    const got = await stripe.paymentIntents.retrieve(pi.id)
    expect(got.status).toBe('requires_payment_method')
    expect(got.last_payment_error?.decline_code).toBe('generic_decline')
    expect(got.payment_method).toBeNull()
    const types = sim.admin.events({ account: sim.platform.id }).map((e) => e.type)
    expect(types).toContain('payment_intent.payment_failed')
    expect(types).toContain('charge.failed')
    expect(sim.service.ledger.transactions({ account: sim.platform.id, mode: 'test' })).toHaveLength(0)
    // A retry with a good card succeeds.
    const ok = await stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' })
    expect(ok.status).toBe('succeeded')
    expect(ok.last_payment_error).toBeNull()
  })

  it('authorises with capture_method=manual and moves money only on capture', async () => {
    const { stripe, sim } = setup()
    const pi = await stripe.paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      capture_method: 'manual',
      confirm: true,
    })
    expect(pi.status).toBe('requires_capture')
    expect(pi.amount_capturable).toBe(5000)
    expect(sim.service.ledger.transactions({ account: sim.platform.id, mode: 'test' })).toHaveLength(0)
    const cap = await stripe.paymentIntents.capture(pi.id, { amount_to_capture: 4000 })
    expect(cap).toMatchObject({ status: 'succeeded', amount_received: 4000, amount_capturable: 0 })
    const [txn] = sim.service.ledger.transactions({ account: sim.platform.id, mode: 'test' })
    expect(txn?.amount).toBe(4000)
  })

  it('cancels a cancellable intent and refuses to cancel a succeeded one', async () => {
    const { stripe, sim } = setup()
    const pi = await stripe.paymentIntents.create({ amount: 2000, currency: 'usd' })
    const c = await stripe.paymentIntents.cancel(pi.id, { cancellation_reason: 'abandoned' })
    expect(c).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' })
    expect(sim.admin.events({ type: 'payment_intent.canceled' })).toHaveLength(1)
    const ok = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    await expect(stripe.paymentIntents.cancel(ok.id)).rejects.toMatchObject({
      statusCode: 400,
      code: 'payment_intent_unexpected_state',
    })
    await expect(stripe.paymentIntents.confirm(c.id, { payment_method: 'pm_card_visa' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'payment_intent_unexpected_state',
    })
  })

  it('lists intents newest first, filtered by customer', async () => {
    const { stripe } = setup()
    const cus = await stripe.customers.create({ email: 'a@example.com' })
    const a = await stripe.paymentIntents.create({ amount: 100, currency: 'usd', customer: cus.id })
    const b = await stripe.paymentIntents.create({ amount: 200, currency: 'usd' })
    const all = await stripe.paymentIntents.list()
    expect(all.data.map((p) => p.id)).toEqual([b.id, a.id])
    const mine = await stripe.paymentIntents.list({ customer: cus.id })
    expect(mine.data.map((p) => p.id)).toEqual([a.id])
  })

  it('attaches the card to the customer with setup_future_usage and emits payment_method.attached', async () => {
    const { stripe, sim } = setup()
    const cus = await stripe.customers.create({ email: 'a@example.com' })
    const pi = await stripe.paymentIntents.create({
      amount: 900,
      currency: 'usd',
      customer: cus.id,
      payment_method: 'pm_card_visa',
      setup_future_usage: 'off_session',
      confirm: true,
    })
    const pm = await stripe.paymentMethods.retrieve(pi.payment_method as string)
    expect(pm.customer).toBe(cus.id)
    const [attached] = sim.admin.events({ type: 'payment_method.attached' })
    expect(dataOf(attached).object.customer).toBe(cus.id)
  })

  it('refuses bad amounts, currencies, customers and ids with 4xx and changes nothing', async () => {
    const { sim, key } = setup()
    const before = stateOf(sim)
    const cases: [string, string, Record<string, string> | undefined, number, string, string?][] = [
      ['POST', '/v1/payment_intents', { amount: '-100', currency: 'usd' }, 400, 'amount', 'parameter_invalid_integer'],
      ['POST', '/v1/payment_intents', { amount: '10.5', currency: 'usd' }, 400, 'amount', 'parameter_invalid_integer'],
      ['POST', '/v1/payment_intents', { amount: 'ten', currency: 'usd' }, 400, 'amount', 'parameter_invalid_integer'],
      ['POST', '/v1/payment_intents', { amount: '10', currency: 'usd' }, 400, 'amount', 'amount_too_small'],
      ['POST', '/v1/payment_intents', { amount: '100000000', currency: 'usd' }, 400, 'amount', 'amount_too_large'],
      ['POST', '/v1/payment_intents', { amount: '2000', currency: 'xyz' }, 400, 'currency'],
      ['POST', '/v1/payment_intents', { currency: 'usd' }, 400, 'amount', 'parameter_missing'],
      ['POST', '/v1/payment_intents', { amount: '2000' }, 400, 'currency', 'parameter_missing'],
      [
        'POST',
        '/v1/payment_intents',
        { amount: '2000', currency: 'usd', customer: 'cus_nope' },
        400,
        'customer',
        'resource_missing',
      ],
      [
        'POST',
        '/v1/payment_intents',
        { amount: '2000', currency: 'usd', payment_method: 'pm_nope' },
        400,
        'payment_method',
        'resource_missing',
      ],
      ['POST', '/v1/payment_intents', { amount: '2000', currency: 'usd', confirm: 'true' }, 400, 'payment_method'],
      ['POST', '/v1/payment_intents', { amount: '2000', currency: 'usd', colour: 'red' }, 400, 'colour', 'parameter_unknown'],
      ['GET', '/v1/payment_intents/pi_nope', undefined, 404, 'id', 'resource_missing'],
      ['GET', '/v1/payment_intents/not-an-id', undefined, 404, 'id', 'resource_missing'],
      ['POST', '/v1/payment_intents/pi_nope/confirm', {}, 404, 'id', 'resource_missing'],
      ['POST', '/v1/payment_intents/pi_nope/cancel', {}, 404, 'id', 'resource_missing'],
      ['POST', '/v1/payment_intents/pi_nope', { amount: '300' }, 404, 'id', 'resource_missing'],
    ]
    for (const [method, path, body, status, param, code] of cases) {
      const res = await form(sim, key, method, path, body)
      expect({ path, body, status: res.status, param: res.body.error?.param }).toEqual({ path, body, status, param })
      if (code) expect(res.body.error.code).toBe(code)
    }
    expect(stateOf(sim)).toBe(before)
  })

  it('replays a confirm retried with the same Idempotency-Key without charging twice', async () => {
    const { stripe, sim } = setup()
    const pi = await stripe.paymentIntents.create({ amount: 2000, currency: 'usd', payment_method: 'pm_card_visa' })
    const a = await stripe.paymentIntents.confirm(pi.id, {}, { idempotencyKey: 'k1' })
    const b = await stripe.paymentIntents.confirm(pi.id, {}, { idempotencyKey: 'k1' })
    expect(b).toEqual(a)
    expect(sim.service.ledger.transactions({ account: sim.platform.id, mode: 'test' })).toHaveLength(1)
    expect(sim.service.charges.list({ account: sim.platform.id, mode: 'test' })).toHaveLength(1)
  })
})

describe('more declining test cards', () => {
  it('declines pm_card_visa_chargeDeclined and pm_card_chargeDeclinedFraudulent with their decline codes', async () => {
    const sim = createSimulator({ seed: 21, limits: false })
    const headers = {
      Authorization: `Bearer ${sim.platform.secretKey.test}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    }
    for (const [pm, code] of [
      ['pm_card_visa_chargeDeclined', 'generic_decline'],
      ['pm_card_chargeDeclinedFraudulent', 'fraudulent'],
    ] as const) {
      const res = await sim.fetch('https://api.service.test/v1/payment_intents', {
        method: 'POST',
        headers,
        body: `amount=1000&currency=usd&payment_method=${pm}&confirm=true`,
      })
      expect(res.status).toBe(402)
      const { error } = await res.json()
      expect(error).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: code })
    }
  })
})
