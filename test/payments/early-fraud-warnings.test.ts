import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'
import { collect } from '../delivery/helpers.js'
import { caught } from './helpers.js'

const HOOK = 'https://hooks.example.test/radar'

/** A signed webhook endpoint for every event, and what it receives. */
async function receiver(sim: ReturnType<typeof setup>['sim'], stripe: Stripe) {
  const endpoint = await stripe.webhookEndpoints.create({ url: HOOK, enabled_events: ['*'] })
  return { secret: endpoint.secret ?? '', got: collect(sim, HOOK) }
}

/** The radar events a receiver verified with the official client, in delivery order. */
function radarEvents(stripe: Stripe, got: ReturnType<typeof collect>, secret: string): Stripe.Event[] {
  return got
    .map((g) => stripe.webhooks.constructEvent(g.raw, g.signature, secret, 300, undefined, g.at))
    .filter((e) => e.type.startsWith('radar.'))
}

describe('early fraud warnings raised by the warning test card', () => {
  it('succeeds the payment, then raises an actionable warning delivered signed', async () => {
    const { sim, stripe } = setup(271)
    const { secret, got } = await receiver(sim, stripe)
    const pi = await stripe.paymentIntents.create({
      amount: 4000,
      currency: 'usd',
      payment_method: 'pm_card_createIssuerFraudRecord',
      confirm: true,
    })
    expect(pi.status).toBe('succeeded')
    await sim.settle()
    const [warning] = (await stripe.radar.earlyFraudWarnings.list({ payment_intent: pi.id })).data
    expect(warning).toMatchObject({
      object: 'radar.early_fraud_warning',
      actionable: true,
      charge: pi.latest_charge,
      payment_intent: pi.id,
      fraud_type: 'made_with_stolen_card',
      livemode: false,
    })
    expect(warning?.id).toMatch(/^issfr_/)
    expect(typeof warning?.created).toBe('number')
    expect(await stripe.radar.earlyFraudWarnings.retrieve(warning?.id ?? '')).toEqual(warning)
    const byCharge = await stripe.radar.earlyFraudWarnings.list({ charge: pi.latest_charge as string })
    expect(byCharge.data.map((w) => w.id)).toEqual([warning?.id])
    await sim.clock.runToLastAsync()
    const events = radarEvents(stripe, got, secret)
    expect(events.map((e) => e.type)).toEqual(['radar.early_fraud_warning.created'])
    expect(events[0]?.data.object).toMatchObject({ id: warning?.id, actionable: true })
  })

  it('raises none for other cards, and answers 404 for an unknown warning', async () => {
    const { sim, stripe } = setup(272)
    const pi = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    await sim.settle()
    expect((await stripe.radar.earlyFraudWarnings.list()).data).toEqual([])
    expect((await stripe.radar.earlyFraudWarnings.list({ payment_intent: pi.id })).data).toEqual([])
    const e = await caught(stripe.radar.earlyFraudWarnings.retrieve('issfr_missing'))
    expect(e.statusCode).toBe(404)
    expect(e.code).toBe('resource_missing')
  })

  it('waits for the capture of an uncaptured payment', async () => {
    const { sim, stripe } = setup(273)
    const pi = await stripe.paymentIntents.create({
      amount: 2500,
      currency: 'usd',
      payment_method: 'pm_card_createIssuerFraudRecord',
      capture_method: 'manual',
      confirm: true,
    })
    await sim.settle()
    expect((await stripe.radar.earlyFraudWarnings.list()).data).toEqual([])
    await stripe.paymentIntents.capture(pi.id)
    await sim.settle()
    expect((await stripe.radar.earlyFraudWarnings.list()).data).toHaveLength(1)
  })

  it('turns not actionable once the charge is fully refunded, not before', async () => {
    const { sim, stripe } = setup(274)
    const { secret, got } = await receiver(sim, stripe)
    const charge = await stripe.charges.create({ amount: 3000, currency: 'usd', source: 'tok_createIssuerFraudRecord' })
    await sim.settle()
    const [warning] = (await stripe.radar.earlyFraudWarnings.list({ charge: charge.id })).data
    expect(warning?.actionable).toBe(true)
    await stripe.refunds.create({ charge: charge.id, amount: 1000 })
    expect((await stripe.radar.earlyFraudWarnings.retrieve(warning?.id ?? '')).actionable).toBe(true)
    await stripe.refunds.create({ charge: charge.id })
    const retired = await stripe.radar.earlyFraudWarnings.retrieve(warning?.id ?? '')
    expect(retired).toMatchObject({ id: warning?.id, actionable: false, charge: charge.id })
    await sim.clock.runToLastAsync()
    const events = radarEvents(stripe, got, secret)
    expect(events.map((e) => e.type)).toEqual(['radar.early_fraud_warning.created', 'radar.early_fraud_warning.updated'])
    expect(events[1]?.data.object).toMatchObject({ actionable: false })
    expect(events[1]?.data.previous_attributes).toEqual({ actionable: true })
  })
})
