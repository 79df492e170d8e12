import { describe, expect, it } from 'vitest'
import { form, setup } from '../accounts/helpers.js'

describe('confirming with the publishable key and the client secret', () => {
  it('confirms and reads a payment intent as the browser library does', async () => {
    const { sim, stripe } = setup()
    const pi = await stripe.paymentIntents.create({ amount: 2000, currency: 'usd' })
    const pk = sim.platform.publishableKey.test
    const secret = pi.client_secret as string
    const confirmed = await form(sim, pk, 'POST', `/v1/payment_intents/${pi.id}/confirm`, {
      client_secret: secret,
      payment_method: 'pm_card_visa',
    })
    expect(confirmed.status).toBe(200)
    expect(confirmed.body).toMatchObject({ id: pi.id, status: 'succeeded', amount_received: 2000 })
    const read = await form(sim, pk, 'GET', `/v1/payment_intents/${pi.id}?client_secret=${encodeURIComponent(secret)}`)
    expect(read.status).toBe(200)
    expect(read.body.status).toBe('succeeded')
  })

  it('confirms a setup intent by its client secret', async () => {
    const { sim, stripe } = setup()
    const si = await stripe.setupIntents.create({})
    const res = await form(sim, sim.platform.publishableKey.test, 'POST', `/v1/setup_intents/${si.id}/confirm`, {
      client_secret: si.client_secret as string,
      payment_method: 'pm_card_visa',
    })
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('succeeded')
  })

  it('refuses a wrong client secret with 400 and changes nothing', async () => {
    const { sim, stripe } = setup()
    const pi = await stripe.paymentIntents.create({ amount: 2000, currency: 'usd' })
    const res = await form(sim, sim.platform.publishableKey.test, 'POST', `/v1/payment_intents/${pi.id}/confirm`, {
      client_secret: `${pi.id}_secret_wrong`,
      payment_method: 'pm_card_visa',
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', param: 'client_secret' })
    expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe('requires_payment_method')
  })

  it('refuses the publishable key without a client secret, and on every other operation, with 401', async () => {
    const { sim, stripe } = setup()
    const pi = await stripe.paymentIntents.create({ amount: 2000, currency: 'usd' })
    const pk = sim.platform.publishableKey.test
    const bare = await form(sim, pk, 'POST', `/v1/payment_intents/${pi.id}/confirm`, { payment_method: 'pm_card_visa' })
    expect(bare.status).toBe(401)
    const other = await form(sim, pk, 'POST', '/v1/customers', { email: 'a@example.com' })
    expect(other.status).toBe(401)
    expect(other.body.error.message).toMatch(/publishable API key/)
    const update = await form(sim, pk, 'POST', `/v1/payment_intents/${pi.id}`, { client_secret: pi.client_secret as string })
    expect(update.status).toBe(401)
  })
})

describe('sim.customer', () => {
  it('takes a 3-D Secure card to requires_action and fails the challenge as the provider does', async () => {
    const { sim, stripe } = setup()
    const pi = await stripe.paymentIntents.create({ amount: 1500, currency: 'usd' })
    const { intent } = sim.customer.confirmPaymentIntent(pi.client_secret as string, {
      paymentMethod: 'pm_card_threeDSecure2Required',
    })
    expect(intent.status).toBe('requires_action')
    expect((intent.next_action as { type: string }).type).toBe('use_stripe_sdk')
    const failed = sim.customer.authenticate(pi.id, { outcome: 'fail' })
    expect(failed.status).toBe('requires_payment_method')
    const got = await stripe.paymentIntents.retrieve(pi.id)
    expect(got.last_payment_error?.code).toBe('payment_intent_authentication_failure')
    const again = sim.customer.confirmPaymentIntent(pi.client_secret as string, {
      paymentMethod: 'pm_card_threeDSecure2Required',
    })
    expect(again.intent.status).toBe('requires_action')
    expect(sim.customer.authenticate(pi.id, { outcome: 'complete' }).status).toBe('succeeded')
  })

  it('answers a redirect_to_url action when the customer confirms with a return_url', async () => {
    const { sim, stripe } = setup()
    const pi = await stripe.paymentIntents.create({ amount: 1500, currency: 'usd' })
    const { intent } = sim.customer.confirmPaymentIntent(pi.client_secret as string, {
      paymentMethod: 'pm_card_authenticationRequired',
      returnUrl: 'https://shop.example/done',
    })
    expect(intent.next_action).toEqual({
      type: 'redirect_to_url',
      redirect_to_url: {
        return_url: 'https://shop.example/done',
        url: expect.stringMatching(/^https:\/\/hooks\.stripe\.com\/redirect\/authenticate\/src_/),
      },
    })
    expect((await stripe.paymentIntents.retrieve(pi.id)).next_action).toEqual(intent.next_action)
    expect(sim.customer.authenticate(pi.id, { outcome: 'complete' }).status).toBe('succeeded')
  })

  it('asks for 3-D Secure on a card made with the number 4000 0027 6000 3184', async () => {
    const { sim, stripe } = setup()
    const pm = await stripe.paymentMethods.create({
      type: 'card',
      card: { number: '4000002760003184', exp_month: 12, exp_year: 2040, cvc: '123' },
    } as never)
    const pi = await stripe.paymentIntents.create({ amount: 1500, currency: 'usd' })
    const { intent } = sim.customer.confirmPaymentIntent(pi.client_secret as string, { paymentMethod: pm.id })
    expect(intent.status).toBe('requires_action')
  })

  it('answers a declined card as an error beside the intent', async () => {
    const { sim, stripe } = setup()
    const pi = await stripe.paymentIntents.create({ amount: 1500, currency: 'usd' })
    const { intent, error } = sim.customer.confirmPaymentIntent(pi.client_secret as string, {
      paymentMethod: 'pm_card_chargeDeclined',
    })
    expect(error).toMatchObject({ type: 'card_error', code: 'card_declined' })
    expect(intent.status).toBe('requires_payment_method')
  })

  it('refuses to authenticate an intent that awaits no challenge', async () => {
    const { sim, stripe } = setup()
    const pi = await stripe.paymentIntents.create({ amount: 1500, currency: 'usd' })
    expect(() => sim.customer.authenticate(pi.id, { outcome: 'complete' })).toThrow(/requires_action/)
  })
})
