import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { form } from '../accounts/helpers.js'
import { collect } from '../delivery/helpers.js'
import { pinned } from './helpers.js'

const sim0 = () => createSimulator({ seed: 3, headerPrefix: 'Stripe', limits: false })

describe('versions accepted and refused', () => {
  it('refuses a well-formed version it does not serve with 400 naming it, and changes nothing', async () => {
    const sim = sim0()
    const key = sim.platform.secretKey.test
    const res = await form(sim, key, 'POST', '/v1/customers', { email: 'a@b.test' }, { 'Stripe-Version': '2021-01-01' })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe('Invalid Stripe API version: 2021-01-01')
    expect(res.body.error.type).toBe('invalid_request_error')
    expect((await form(sim, key, 'GET', '/v1/customers')).body.data).toEqual([])
  })

  it('accepts every served version and a preview', async () => {
    const sim = sim0()
    const key = sim.platform.secretKey.test
    for (const v of ['2020-08-27', '2022-11-15', '2024-09-30.acacia', '2025-03-31.basil', '2026-10-28.preview']) {
      const res = await form(sim, key, 'GET', '/v1/customers', undefined, { 'Stripe-Version': v })
      expect(res.status).toBe(200)
      expect(res.headers.get('Stripe-Version')).toBe(v)
    }
  })

  it('refuses an unserved default version at createSimulator, createAccount and setApiVersion', () => {
    expect(() => createSimulator({ apiVersion: '2019-12-03' })).toThrow(/2019-12-03/)
    const sim = sim0()
    expect(() => sim.admin.createAccount({ apiVersion: '2019-12-03' })).toThrow(/not a served API version/)
    expect(() => sim.admin.setApiVersion(sim.platform.id, '2019-12-03')).toThrow(/not a served API version/)
  })
})

describe('the account default version', () => {
  it('answers a request without a version header at the account default set through the admin API', async () => {
    const sim = sim0()
    const account = sim.admin.createAccount({ apiVersion: '2022-08-01' })
    const key = account.keys.secret.test
    // A client that sends no version (Python's 5.0): the standard call of 2022 is accepted.
    const res = await form(sim, key, 'POST', '/v1/payment_intents', {
      amount: '1000',
      currency: 'usd',
      'payment_method_types[]': 'card',
      payment_method: 'pm_card_visa',
      confirm: 'true',
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('Stripe-Version')).toBe('2022-08-01')
    expect(res.body.charges.data[0].object).toBe('charge')
    expect(res.body).not.toHaveProperty('latest_charge')
    sim.admin.setApiVersion(account.id, '2026-10-28.endive')
    const now = await form(sim, key, 'GET', `/v1/payment_intents/${res.body.id}`)
    expect(now.body.latest_charge).toMatch(/^ch_/)
    expect(now.body).not.toHaveProperty('charges')
  })

  it('stamps events with the account version at the time they occur, with a body of that version', async () => {
    const { sim, stripe } = pinned('2022-08-01')
    const product = await stripe.products.create({ name: 'p' })
    sim.admin.setApiVersion(sim.platform.id, '2026-10-28.endive')
    await stripe.products.update(product.id, { name: 'q' })
    const events = await stripe.events.list({ limit: 10 })
    const created = events.data.find((e) => e.type === 'product.created')!
    const updated = events.data.find((e) => e.type === 'product.updated')!
    expect(created.api_version).toBe('2022-08-01')
    expect(created.data.object).not.toHaveProperty('marketing_features')
    expect(updated.api_version).toBe('2026-10-28.endive')
    expect(updated.data.object).toHaveProperty('marketing_features')
  })
})

describe('events for a destination pinned to a version', () => {
  it('renders the body at the destination snapshot_api_version from the object as it was', async () => {
    const { sim, stripe } = pinned('2026-10-28.endive')
    await stripe.v2.core.eventDestinations.create({
      name: 'old',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['payment_intent.succeeded'],
      snapshot_api_version: '2022-08-01',
      webhook_endpoint: { url: 'https://old.test/hook' },
    })
    const got = collect(sim, 'https://old.test/hook')
    const pi = await stripe.paymentIntents.create({
      amount: 700,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    })
    await sim.settle()
    const event = JSON.parse(got[0]!.raw)
    expect(event.api_version).toBe('2022-08-01')
    expect(event.data.object.charges.data[0].id).toBe(pi.latest_charge)
    expect(event.data.object).not.toHaveProperty('latest_charge')
    const stored = await stripe.events.retrieve(event.id)
    expect(stored.api_version).toBe('2026-10-28.endive')
    expect((stored.data.object as { latest_charge: string }).latest_charge).toBe(pi.latest_charge)
  })
})
