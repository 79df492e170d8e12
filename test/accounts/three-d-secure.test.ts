import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { client, dataOf, form, setup, stateOf } from './helpers.js'

const CARDS = ['pm_card_authenticationRequired', 'pm_card_threeDSecure2Required', 'pm_card_authenticationRequiredOnSetup']

describe('3-D Secure test cards', () => {
  for (const card of CARDS) {
    it(`moves a confirmed intent with ${card} to requires_action with a use_stripe_sdk action and no charge`, async () => {
      const { sim, key } = setup()
      const res = await form(sim, key, 'POST', '/v1/payment_intents', {
        amount: '2000',
        currency: 'usd',
        payment_method: card,
        confirm: 'true',
      })
      expect(res.status).toBe(200)
      expect(res.body.status).toBe('requires_action')
      expect(res.body.next_action.type).toBe('use_stripe_sdk')
      expect(res.body.next_action.use_stripe_sdk).toMatchObject({ type: 'stripe_3ds2_fingerprint' })
      expect(res.body.latest_charge).toBeNull()
      expect(res.body.amount_received).toBe(0)
      expect(sim.service.charges.list({ account: sim.platform.id, mode: 'test' })).toHaveLength(0)
      const types = sim.admin.events({ account: sim.platform.id }).map((e) => e.type)
      expect(types).toEqual(['payment_intent.created', 'payment_intent.requires_action'])
      const got = await form(sim, key, 'GET', `/v1/payment_intents/${res.body.id}`)
      expect(got.body.next_action).toEqual(res.body.next_action)
    })

    it(`succeeds after the customer authenticates ${card}: charge, balance transaction and events`, async () => {
      const { sim, stripe } = setup()
      const pi = await stripe.paymentIntents.create({ amount: 2000, currency: 'usd' })
      const pending = await stripe.paymentIntents.confirm(pi.id, { payment_method: card })
      expect(pending.status).toBe('requires_action')
      expect(pending.next_action?.type).toBe('use_stripe_sdk')
      const done = sim.admin.completeAuthentication(pi.id, { outcome: 'succeed' })
      expect(done.status).toBe('succeeded')
      const got = await stripe.paymentIntents.retrieve(pi.id)
      expect(got).toMatchObject({ status: 'succeeded', amount_received: 2000, next_action: null, last_payment_error: null })
      const charge = await stripe.charges.retrieve(got.latest_charge as string)
      expect(charge).toMatchObject({ status: 'succeeded', paid: true, captured: true, payment_intent: pi.id })
      const txn = await stripe.balanceTransactions.retrieve(charge.balance_transaction as string)
      expect(txn).toMatchObject({ amount: 2000, fee: 88, net: 1912, source: charge.id })
      const types = sim.admin.events({ account: sim.platform.id }).map((e) => e.type)
      expect(types).toEqual([
        'payment_intent.created',
        'payment_intent.requires_action',
        'charge.created',
        'charge.succeeded',
        'payment_intent.succeeded',
      ])
    })

    it(`returns the intent to requires_payment_method when authentication of ${card} fails`, async () => {
      const { sim, stripe } = setup()
      const pi = await stripe.paymentIntents.create({
        amount: 2000,
        currency: 'usd',
        payment_method: card,
        confirm: true,
      })
      sim.admin.completeAuthentication(pi.id, { outcome: 'fail' })
      const got = await stripe.paymentIntents.retrieve(pi.id)
      expect(got.status).toBe('requires_payment_method')
      expect(got.payment_method).toBeNull()
      expect(got.next_action).toBeNull()
      expect(got.latest_charge).toBeNull()
      expect(got.last_payment_error).toMatchObject({
        code: 'payment_intent_authentication_failure',
        type: 'invalid_request_error',
      })
      expect(got.last_payment_error?.payment_method?.card?.last4).toMatch(/^\d{4}$/)
      const failed = sim.admin.events({ account: sim.platform.id, type: 'payment_intent.payment_failed' })
      expect(failed).toHaveLength(1)
      expect(dataOf(failed[0]).object.last_payment_error.code).toBe('payment_intent_authentication_failure')
      expect(sim.service.ledger.transactions({ account: sim.platform.id, mode: 'test' })).toHaveLength(0)
      // Another card then goes through.
      const ok = await stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' })
      expect(ok.status).toBe('succeeded')
    })

    it(`declines ${card} off-session with 402 authentication_required and no requires_action`, async () => {
      const { sim, stripe } = setup()
      const cus = await stripe.customers.create({ email: 'a@example.com' })
      const err = await stripe.paymentIntents
        .create({ amount: 2000, currency: 'usd', customer: cus.id, payment_method: card, confirm: true, off_session: true })
        .catch((e: unknown) => e)
      expect(err).toBeInstanceOf(Stripe.errors.StripeCardError)
      expect(err).toMatchObject({
        statusCode: 402,
        code: 'authentication_required',
        decline_code: 'authentication_required',
      })
      const pi = (err as { payment_intent: Stripe.PaymentIntent }).payment_intent
      expect(pi.status).toBe('requires_payment_method')
      expect(pi.next_action).toBeNull()
      expect(pi.last_payment_error?.code).toBe('authentication_required')
      const types = sim.admin.events({ account: sim.platform.id }).map((e) => e.type)
      expect(types).not.toContain('payment_intent.requires_action')
      expect(types).toContain('charge.failed')
    })
  }

  it('answers 402 authentication_required through sim.fetch for an off_session confirm', async () => {
    const { sim, key } = setup()
    const pi = await form(sim, key, 'POST', '/v1/payment_intents', { amount: '2000', currency: 'usd' })
    const res = await form(sim, key, 'POST', `/v1/payment_intents/${pi.body.id}/confirm`, {
      payment_method: 'pm_card_authenticationRequired',
      off_session: 'true',
    })
    expect(res.status).toBe(402)
    expect(res.body.error).toMatchObject({
      type: 'card_error',
      code: 'authentication_required',
      decline_code: 'authentication_required',
    })
  })

  it('refuses a non-boolean off_session with 400 and changes nothing', async () => {
    const { sim, key } = setup()
    const pi = await form(sim, key, 'POST', '/v1/payment_intents', { amount: '2000', currency: 'usd' })
    const before = stateOf(sim)
    const res = await form(sim, key, 'POST', `/v1/payment_intents/${pi.body.id}/confirm`, {
      payment_method: 'pm_card_authenticationRequired',
      off_session: 'sometimes',
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', param: 'off_session' })
    expect(stateOf(sim)).toBe(before)
  })

  it('lets pm_card_authenticationRequiredOnSetup pay off-session once an authenticated payment saved it', async () => {
    const { sim, stripe } = setup()
    const cus = await stripe.customers.create({ email: 'a@example.com' })
    const first = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      customer: cus.id,
      payment_method: 'pm_card_authenticationRequiredOnSetup',
      setup_future_usage: 'off_session',
      confirm: true,
    })
    expect(first.status).toBe('requires_action')
    sim.admin.completeAuthentication(first.id, { outcome: 'succeed' })
    const saved = (await stripe.paymentIntents.retrieve(first.id)).payment_method as string
    const later = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      customer: cus.id,
      payment_method: saved,
      confirm: true,
      off_session: true,
    })
    expect(later.status).toBe('succeeded')
    // On-session payments with it still ask for authentication.
    const onSession = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      customer: cus.id,
      payment_method: saved,
      confirm: true,
    })
    expect(onSession.status).toBe('requires_action')
  })

  it('still declines pm_card_authenticationRequired off-session after an authenticated payment saved it', async () => {
    const { sim, stripe } = setup()
    const cus = await stripe.customers.create({ email: 'a@example.com' })
    const first = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      customer: cus.id,
      payment_method: 'pm_card_authenticationRequired',
      setup_future_usage: 'off_session',
      confirm: true,
    })
    sim.admin.completeAuthentication(first.id, { outcome: 'succeed' })
    const saved = (await stripe.paymentIntents.retrieve(first.id)).payment_method as string
    const err = await stripe.paymentIntents
      .create({ amount: 1000, currency: 'usd', customer: cus.id, payment_method: saved, confirm: true, off_session: true })
      .catch((e: unknown) => e)
    expect(err).toMatchObject({ statusCode: 402, code: 'authentication_required' })
  })

  it('cancels an intent waiting in requires_action', async () => {
    const { sim, stripe, key } = setup()
    const pi = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_threeDSecure2Required',
      confirm: true,
    })
    const res = await form(sim, key, 'POST', `/v1/payment_intents/${pi.id}/cancel`, {
      cancellation_reason: 'abandoned',
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned', next_action: null })
    const types = sim.admin.events({ account: sim.platform.id }).map((e) => e.type)
    expect(types.at(-1)).toBe('payment_intent.canceled')
    expect(() => sim.admin.completeAuthentication(pi.id, { outcome: 'succeed' })).toThrow(TypeError)
  })

  it('replaces the card awaiting authentication when the intent is updated with another one', async () => {
    const { stripe } = setup()
    const pi = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_authenticationRequired',
      confirm: true,
    })
    const up = await stripe.paymentIntents.update(pi.id, { payment_method: 'pm_card_visa' })
    expect(up).toMatchObject({ status: 'requires_confirmation', next_action: null })
    expect((await stripe.paymentIntents.confirm(pi.id)).status).toBe('succeeded')
  })

  it('completes authentication of a connected account in live mode when told the account and mode', async () => {
    const { sim } = setup()
    const acct = sim.admin.createAccount({ email: 'shop@example.com' })
    const live = client(sim, sim.platform.secretKey.live)
    const on = { stripeAccount: acct.id }
    const pi = await live.paymentIntents.create(
      { amount: 2000, currency: 'usd', payment_method: 'pm_card_authenticationRequired', confirm: true },
      on,
    )
    expect(() => sim.admin.completeAuthentication(pi.id, { outcome: 'succeed' })).toThrow(/admin\.completeAuthentication/)
    sim.admin.completeAuthentication(pi.id, { outcome: 'succeed', account: acct.id, mode: 'live' })
    expect((await live.paymentIntents.retrieve(pi.id, {}, on)).status).toBe('succeeded')
  })

  it('refuses bad admin.completeAuthentication calls with a TypeError and changes nothing', async () => {
    const { sim, stripe } = setup()
    const ok = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    const waiting = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_authenticationRequired',
      confirm: true,
    })
    const before = stateOf(sim)
    const complete = sim.admin.completeAuthentication
    expect(() => complete('pi_missing', { outcome: 'succeed' })).toThrow(
      new TypeError(`admin.completeAuthentication: no payment intent 'pi_missing' in account ${sim.platform.id} (test mode)`),
    )
    expect(() => complete(ok.id, { outcome: 'fail' })).toThrow(/admin\.completeAuthentication: .*status succeeded/)
    expect(() => complete(waiting.id, { outcome: 'maybe' as 'fail' })).toThrow(/admin\.completeAuthentication: outcome/)
    expect(() => complete(waiting.id, { outcome: 'succeed', mode: 'live' })).toThrow(TypeError)
    expect(stateOf(sim)).toBe(before)
  })

  it('keeps the 3-D Secure flow deterministic: same seed, same trace hash', async () => {
    const run = async () => {
      const { sim, stripe } = setup(7)
      const pi = await stripe.paymentIntents.create({
        amount: 2000,
        currency: 'usd',
        payment_method: 'pm_card_threeDSecure2Required',
        confirm: true,
      })
      sim.admin.completeAuthentication(pi.id, { outcome: 'succeed' })
      return sim.trace.hash()
    }
    expect(await run()).toBe(await run())
  })
})

describe('off-session payments with a card that needs authentication', () => {
  it('fails at once instead of retrying, since no retry can authenticate the customer', async () => {
    const sim = createSimulator({ seed: 31, limits: false })
    const auth = { Authorization: `Bearer ${sim.platform.secretKey.test}` }
    const customer = await (
      await sim.fetch('https://api.service.test/v1/customers', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'email=a%40b.test',
      })
    ).json()
    const res = await sim.fetch('https://api.service.test/v2/payments/off_session_payments', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        amount: { value: 1000, currency: 'usd' },
        cadence: 'unscheduled',
        customer: customer.id,
        payment_method: 'pm_card_authenticationRequired',
        retry_details: { retry_strategy: 'smart' },
      }),
    })
    expect(res.status).toBe(200)
    const osp = await res.json()
    await sim.settle()
    const after = await (
      await sim.fetch(`https://api.service.test/v2/payments/off_session_payments/${osp.id}`, { headers: auth })
    ).json()
    expect(after.status).toBe('failed')
  })
})
