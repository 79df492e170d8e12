import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { CURRENT_VERSION } from '../../src/catalogue/versions.js'
import { collect } from '../delivery/helpers.js'
import { pinned } from './helpers.js'

type Obj = Record<string, unknown>

const DETAILS = {
  name: 'Jenny Rosen',
  address: { line1: '510 Townsend St', line2: null, city: 'San Francisco', state: 'CA', postal_code: '94103', country: 'US' },
}

/** A payment session asking for a US shipping address, completed by the customer: the session as retrieved. */
async function shippedSession(version: string): Promise<Obj> {
  const { sim, stripe } = pinned(version)
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    success_url: 'https://shop.test/ok',
    line_items: [{ price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'Mug' } }, quantity: 1 }],
    shipping_address_collection: { allowed_countries: ['US'] },
  } as Stripe.Checkout.SessionCreateParams)
  await sim.customer.completeCheckout(session.id, { name: 'Jenny Rosen' })
  return (await stripe.checkout.sessions.retrieve(session.id)) as unknown as Obj
}

describe("a Checkout Session's shipping details, on each side of their moves", () => {
  it('are collected_information.shipping_details from basil on, with no top-level shipping_details', async () => {
    for (const version of [CURRENT_VERSION, '2025-03-31.basil']) {
      const session = await shippedSession(version)
      expect((session.collected_information as Obj).shipping_details, version).toEqual(DETAILS)
      expect(session, version).not.toHaveProperty('shipping_details')
      expect(session, version).not.toHaveProperty('shipping')
    }
  })

  it('are in both places at 2025-02-24.acacia, where the client declared both', async () => {
    const session = await shippedSession('2025-02-24.acacia')
    expect(session.shipping_details).toEqual(DETAILS)
    expect((session.collected_information as Obj).shipping_details).toEqual(DETAILS)
  })

  it('are the top-level shipping_details from 2022-08-01 to 2025-01-27.acacia, with no collected_information', async () => {
    for (const version of ['2025-01-27.acacia', '2023-10-16', '2022-08-01']) {
      const session = await shippedSession(version)
      expect(session.shipping_details, version).toEqual(DETAILS)
      expect(session, version).not.toHaveProperty('collected_information')
      expect(session, version).not.toHaveProperty('shipping')
    }
  })

  it('are `shipping` at 2020-08-27, beside the shipping_rate of then, with no shipping_details or shipping_cost', async () => {
    const session = await shippedSession('2020-08-27')
    expect(session.shipping).toEqual(DETAILS)
    expect(session.shipping_rate).toBeNull()
    expect(session).not.toHaveProperty('shipping_details')
    expect(session).not.toHaveProperty('shipping_cost')
  })

  it('are placed by the version of the endpoint an event is sent to', async () => {
    const { sim, stripe } = pinned(CURRENT_VERSION)
    await stripe.webhookEndpoints.create({
      url: 'https://old.test/hook',
      enabled_events: ['checkout.session.completed'],
      api_version: '2020-08-27',
    })
    const got = collect(sim, 'https://old.test/hook')
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      success_url: 'https://shop.test/ok',
      line_items: [{ price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'Mug' } }, quantity: 1 }],
      shipping_address_collection: { allowed_countries: ['US'] },
    })
    await sim.customer.completeCheckout(session.id, { name: 'Jenny Rosen' })
    await sim.settle()
    const sent = JSON.parse(got[0]!.raw) as { data: { object: Obj } }
    expect(sent.data.object.shipping).toEqual(DETAILS)
    expect(sent.data.object).not.toHaveProperty('shipping_details')
    const [stored] = (await stripe.events.list({ type: 'checkout.session.completed' })).data
    expect((stored!.data.object as unknown as Obj).collected_information).toMatchObject({ shipping_details: DETAILS })
  })
})
