import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { CURRENT_VERSION } from '../../src/catalogue/versions.js'
import { CHANGES } from '../../src/domain/versions/changes/index.js'
import { pinned } from './helpers.js'

type Obj = Record<string, unknown>

const intent = async (stripe: Stripe, extra: Obj = {}): Promise<Obj> =>
  (await stripe.paymentIntents.create({ amount: 2000, currency: 'usd', ...extra } as never)) as unknown as Obj

describe('changes of meaning without a change of fields, declared as version changes', () => {
  it('are declared with the versions of the provider changelog that made them', () => {
    const meaning = CHANGES.filter((c) => c.meaning === true).map((c) => [c.version, c.description.split(' ')[0]])
    expect(meaning).toEqual([
      ['2024-04-10', 'payment_intent'],
      ['2023-08-16', 'automatic_payment_methods'],
      ['2022-08-01', 'checkout.session'],
    ])
    const versions = CHANGES.map((c) => c.version)
    expect(versions).toEqual([...versions].sort().reverse())
  })

  it('capture_method defaults to automatic_async from 2024-04-10, to automatic before', async () => {
    for (const version of [CURRENT_VERSION, '2024-04-10']) {
      expect((await intent(pinned(version).stripe)).capture_method, version).toBe('automatic_async')
    }
    for (const version of ['2023-10-16', '2020-08-27']) {
      expect((await intent(pinned(version).stripe)).capture_method, version).toBe('automatic')
    }
    expect((await intent(pinned('2023-10-16').stripe, { capture_method: 'manual' })).capture_method).toBe('manual')
  })

  it('an automatic capture by default still pays at once at the current version', async () => {
    const { stripe } = pinned(CURRENT_VERSION)
    const pi = await intent(stripe, {
      payment_method: 'pm_card_visa',
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    })
    expect([pi.status, pi.capture_method, pi.amount_received]).toEqual(['succeeded', 'automatic_async', 2000])
  })

  it('automatic_payment_methods are on by default from 2023-08-16, cards only before', async () => {
    for (const version of [CURRENT_VERSION, '2023-08-16']) {
      const pi = await intent(pinned(version).stripe)
      expect(pi.automatic_payment_methods, version).toEqual({ allow_redirects: 'always', enabled: true })
    }
    for (const version of ['2022-11-15', '2020-08-27']) {
      const pi = await intent(pinned(version).stripe)
      expect([pi.automatic_payment_methods, pi.payment_method_types], version).toEqual([null, ['card']])
    }
    const asked = await intent(pinned('2022-11-15').stripe, { automatic_payment_methods: { enabled: true } })
    expect(asked.automatic_payment_methods).toMatchObject({ enabled: true })
    const typed = await intent(pinned(CURRENT_VERSION).stripe, { allowed_payment_method_types: ['card'] })
    expect(typed.automatic_payment_methods).toBeNull()
  })

  it('a payment session makes a customer by default before 2022-08-01 and a guest from it on', async () => {
    for (const [version, creation, makes] of [
      ['2020-08-27', 'always', true],
      ['2022-08-01', 'if_required', false],
      [CURRENT_VERSION, 'if_required', false],
    ] as const) {
      const { sim, stripe } = pinned(version)
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        success_url: 'https://shop.test/ok',
        line_items: [{ price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'Mug' } }, quantity: 1 }],
      } as Stripe.Checkout.SessionCreateParams)
      expect(session.customer_creation, version).toBe(creation)
      await sim.customer.completeCheckout(session.id, { email: 'jenny@example.com' })
      const done = await stripe.checkout.sessions.retrieve(session.id)
      expect(typeof done.customer === 'string', version).toBe(makes)
      expect((await stripe.customers.list()).data.length, version).toBe(makes ? 1 : 0)
    }
  })
})
