import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { CURRENT_VERSION } from '../../src/catalogue/versions.js'
import { collect } from '../delivery/helpers.js'
import { pinned } from './helpers.js'

type Obj = Record<string, unknown>
type RefundList = { object: string; data: Array<{ id: string; amount: number }>; total_count: number }

/** A paid charge refunded twice (5.00 then 3.00): answers the charge id and the refunds, newest first. */
async function refundedCharge(stripe: Stripe): Promise<{ charge: string; intent: string; refunds: string[] }> {
  const intent = (await stripe.paymentIntents.create({
    amount: 2000,
    currency: 'usd',
    payment_method: 'pm_card_visa',
    confirm: true,
    automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
  })) as unknown as Obj
  const charge = (intent.latest_charge as string | undefined) ?? ((intent.charges as { data: Obj[] }).data[0]!.id as string)
  const first = await stripe.refunds.create({ payment_intent: intent.id as string, amount: 500 })
  const second = await stripe.refunds.create({ payment_intent: intent.id as string, amount: 300 })
  return { charge, intent: intent.id as string, refunds: [second.id, first.id] }
}

describe("a charge's refunds list, withheld from 2022-11-15 on", () => {
  it('is left out of a charge at the current version, and listed when expand[] names it', async () => {
    const { stripe } = pinned(CURRENT_VERSION)
    const { charge, intent, refunds } = await refundedCharge(stripe)
    const plain = await stripe.charges.retrieve(charge)
    expect(plain).not.toHaveProperty('refunds')
    expect(plain.amount_refunded).toBe(800)
    const expanded = await stripe.charges.retrieve(charge, { expand: ['refunds'] })
    expect(expanded.refunds?.data.map((r) => r.id)).toEqual(refunds)
    const viaIntent = await stripe.paymentIntents.retrieve(intent, { expand: ['latest_charge.refunds'] })
    expect((viaIntent.latest_charge as Stripe.Charge).refunds?.data.map((r) => r.id)).toEqual(refunds)
    const listed = await stripe.charges.list()
    expect(listed.data[0]).not.toHaveProperty('refunds')
    const listedExpanded = await stripe.charges.list({ expand: ['data.refunds'] })
    expect(listedExpanded.data[0]?.refunds?.data.map((r) => r.id)).toEqual(refunds)
  })

  it('is left out at 2022-11-15, where that client still declared it required: absent, not null', async () => {
    const { stripe } = pinned('2022-11-15')
    const { charge } = await refundedCharge(stripe)
    const plain = (await stripe.charges.retrieve(charge)) as unknown as Obj
    expect(plain).not.toHaveProperty('refunds')
    expect(plain.amount_refunded).toBe(800)
  })

  it('is answered without expand at 2022-08-01, on the charge and in the intent’s charges list', async () => {
    const { stripe } = pinned('2022-08-01')
    const { charge, intent, refunds } = await refundedCharge(stripe)
    const plain = (await stripe.charges.retrieve(charge)) as unknown as { refunds: RefundList }
    expect(plain.refunds.object).toBe('list')
    expect(plain.refunds.data.map((r) => r.id)).toEqual(refunds)
    expect(plain.refunds.total_count).toBe(2)
    const pi = (await stripe.paymentIntents.retrieve(intent)) as unknown as { charges: { data: Array<{ refunds: RefundList }> } }
    expect(pi.charges.data[0]?.refunds.data.map((r) => r.id)).toEqual(refunds)
  })

  it('is left out of charge events at the current version and sent in them at 2022-08-01', async () => {
    const now = pinned(CURRENT_VERSION)
    await refundedCharge(now.stripe)
    const [currentEvent] = (await now.stripe.events.list({ type: 'charge.refunded', limit: 1 })).data
    expect(currentEvent?.data.object).not.toHaveProperty('refunds')

    const old = pinned('2022-08-01')
    const { refunds } = await refundedCharge(old.stripe)
    const [oldEvent] = (await old.stripe.events.list({ type: 'charge.refunded', limit: 1 })).data
    const sent = oldEvent!.data.object as unknown as { refunds: RefundList }
    expect(sent.refunds.data.map((r) => r.id)).toEqual(refunds)
  })

  it('is rendered for each endpoint by its pinned version, as the charge was when the event occurred', async () => {
    const { sim, stripe } = pinned(CURRENT_VERSION)
    for (const [url, api_version] of [
      ['https://old.test/hook', '2022-08-01'],
      ['https://mid.test/hook', '2023-08-16'],
    ] as const) {
      await stripe.webhookEndpoints.create({ url, enabled_events: ['charge.refunded'], api_version })
    }
    const old = collect(sim, 'https://old.test/hook')
    const mid = collect(sim, 'https://mid.test/hook')
    const { refunds } = await refundedCharge(stripe)
    await sim.settle()
    const oldBodies = old.map((g) => JSON.parse(g.raw) as { api_version: string; data: { object: { refunds: RefundList } } })
    expect(oldBodies.map((b) => b.api_version)).toEqual(['2022-08-01', '2022-08-01'])
    // The first refund's event shows the one refund there was then; the second's, both.
    const seen = oldBodies.map((b) => b.data.object.refunds.data.map((r) => r.id)).sort((a, b) => a.length - b.length)
    expect(seen).toEqual([[refunds[1]], refunds])
    for (const body of mid.map((g) => JSON.parse(g.raw) as { data: { object: Obj } })) {
      expect(body.data.object).not.toHaveProperty('refunds')
    }
    expect(mid).toHaveLength(2)
  })
})
