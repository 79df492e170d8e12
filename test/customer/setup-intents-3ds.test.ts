import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import type { Simulator } from '../../src/index.js'
import { setup, stateOf } from '../accounts/helpers.js'

const SUCCESS = 'https://shop.test/ok'

/** The types of the events emitted since `from`, in order. */
const typesSince = (sim: Simulator, from: number) =>
  sim.admin
    .events()
    .slice(from)
    .map((e) => e.type)

describe('setup intents with 3-D Secure', () => {
  it('stops a 3-D Secure card in requires_action; completing the challenge sets it up and attaches it', async () => {
    const { sim, stripe } = setup()
    const customer = await stripe.customers.create({ email: 'save@example.com' })
    const si = await stripe.setupIntents.create({ customer: customer.id })
    const before = sim.admin.events().length
    const { intent } = sim.customer.confirmSetupIntent(si.client_secret as string, {
      paymentMethod: 'pm_card_threeDSecure2Required',
    })
    expect(intent).toMatchObject({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } })
    expect((await stripe.paymentMethods.list({ customer: customer.id })).data).toEqual([])
    const done = sim.customer.authenticate(si.id, { outcome: 'complete' })
    expect(done).toMatchObject({ status: 'succeeded', next_action: null })
    expect(typesSince(sim, before)).toEqual(['setup_intent.requires_action', 'payment_method.attached', 'setup_intent.succeeded'])
    const pms = await stripe.paymentMethods.list({ customer: customer.id })
    expect(pms.data.map((p) => p.id)).toEqual([done.payment_method])
  })

  it('fails the challenge: requires_payment_method with setup_intent_authentication_failure and setup_failed', async () => {
    const { sim, stripe } = setup()
    const si = await stripe.setupIntents.create({})
    sim.customer.confirmSetupIntent(si.client_secret as string, { paymentMethod: 'pm_card_authenticationRequired' })
    const before = sim.admin.events().length
    sim.customer.authenticate(si.id, { outcome: 'fail' })
    expect(typesSince(sim, before)).toEqual(['setup_intent.setup_failed'])
    expect(await stripe.setupIntents.retrieve(si.id)).toMatchObject({
      status: 'requires_payment_method',
      payment_method: null,
      last_setup_error: { code: 'setup_intent_authentication_failure', type: 'invalid_request_error' },
    })
  })

  it('refuses to authenticate a setup intent that awaits no challenge, changing nothing', async () => {
    const { sim, stripe } = setup()
    const si = await stripe.setupIntents.create({})
    const state = stateOf(sim)
    expect(() => sim.customer.authenticate(si.id, { outcome: 'complete' })).toThrow(
      expect.objectContaining({ status: 400, code: 'setup_intent_unexpected_state' }),
    )
    expect(() => sim.customer.authenticate('seti_missing', { outcome: 'complete' })).toThrow(
      expect.objectContaining({ status: 404 }),
    )
    expect(stateOf(sim)).toBe(state)
  })

  it('confirms on create with confirm: true, and a card set up so lets later off-session payments through', async () => {
    const { sim, stripe } = setup()
    const customer = await stripe.customers.create({})
    const si = await stripe.setupIntents.create({
      customer: customer.id,
      payment_method: 'pm_card_authenticationRequiredOnSetup',
      confirm: true,
    })
    expect(si.status).toBe('requires_action')
    const done = sim.customer.authenticate(si.id, { outcome: 'complete' })
    const pi = await stripe.paymentIntents.create({
      amount: 1500,
      currency: 'usd',
      customer: customer.id,
      payment_method: done.payment_method as string,
      off_session: true,
      confirm: true,
    })
    expect(pi.status).toBe('succeeded')
  })

  it('refuses confirm: true with an unknown payment method before making the intent', async () => {
    const { sim, stripe } = setup()
    const state = stateOf(sim)
    const refused = await stripe.setupIntents.create({ payment_method: 'pm_missing', confirm: true }).catch((e) => e)
    expect(refused).toMatchObject({ statusCode: 400, code: 'resource_missing' })
    expect(stateOf(sim)).toBe(state)
  })
})

describe('setup-mode checkout', () => {
  async function setupSession(stripe: Stripe) {
    const customer = await stripe.customers.create({ email: 'save@example.com' })
    const session = await stripe.checkout.sessions.create({
      mode: 'setup',
      currency: 'usd',
      customer: customer.id,
      success_url: SUCCESS,
    })
    return { customer, session }
  }

  it('emits the setup intent events in order, then checkout.session.completed', async () => {
    const { sim, stripe } = setup()
    const { session } = await setupSession(stripe)
    const before = sim.admin.events().length
    await sim.customer.completeCheckout(session.id)
    expect(typesSince(sim, before)).toEqual([
      'setup_intent.created',
      'payment_method.attached',
      'setup_intent.succeeded',
      'checkout.session.completed',
    ])
  })

  it('runs the 3-D Secure challenge of the card the customer saves', async () => {
    const { sim, stripe } = setup()
    const { customer, session } = await setupSession(stripe)
    const before = sim.admin.events().length
    const done = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_card_threeDSecure2Required' })
    expect(typesSince(sim, before)).toEqual([
      'setup_intent.created',
      'setup_intent.requires_action',
      'payment_method.attached',
      'setup_intent.succeeded',
      'checkout.session.completed',
    ])
    const si = await stripe.setupIntents.retrieve(done.setup_intent as string)
    expect(si).toMatchObject({ status: 'succeeded', customer: customer.id })
  })

  it('leaves the session open when the challenge fails, and a retry reuses its setup intent', async () => {
    const { sim, stripe } = setup()
    const { session } = await setupSession(stripe)
    const refused = await sim.customer
      .completeCheckout(session.id, { paymentMethod: 'pm_card_authenticationRequired', authentication: 'fail' })
      .catch((e) => e)
    expect(refused).toMatchObject({ status: 402, code: 'setup_intent_authentication_failure' })
    const open = await stripe.checkout.sessions.retrieve(session.id)
    expect(open.status).toBe('open')
    expect(sim.admin.events({ type: 'setup_intent.setup_failed' })).toHaveLength(1)
    const done = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_card_visa' })
    expect(done).toMatchObject({ status: 'complete', setup_intent: open.setup_intent })
  })
})
