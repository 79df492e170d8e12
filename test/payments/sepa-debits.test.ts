import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'
import { caught } from './helpers.js'

const MINUTE = 60_000
const ACCEPTANCE = { customer_acceptance: { type: 'offline' as const } }

/** A SEPA Direct Debit payment method made with one of the provider's test IBANs. */
function sepaMethod(stripe: ReturnType<typeof setup>['stripe'], iban: string) {
  return stripe.paymentMethods.create({
    type: 'sepa_debit',
    sepa_debit: { iban },
    billing_details: { name: 'Jenny Rosen', email: 'jenny@example.com' },
  })
}

describe('SEPA Direct Debit test IBANs', () => {
  it('keeps a debit from the delayed IBAN processing until the clock passes three minutes, then succeeds', async () => {
    const { sim, stripe } = setup(311)
    const pm = await sepaMethod(stripe, 'AT321904300235473204')
    expect(pm.sepa_debit).toMatchObject({ country: 'AT', last4: '3204' })
    const pi = await stripe.paymentIntents.create({
      amount: 2500,
      currency: 'eur',
      payment_method: pm.id,
      allowed_payment_method_types: ['sepa_debit'],
      mandate_data: ACCEPTANCE,
      confirm: true,
    })
    expect(pi.status).toBe('processing')
    await sim.settle()
    await sim.clock.tickAsync(2 * MINUTE)
    expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe('processing')
    await sim.clock.tickAsync(MINUTE)
    const done = await stripe.paymentIntents.retrieve(pi.id, { expand: ['latest_charge'] })
    expect(done.status).toBe('succeeded')
    expect(done.latest_charge).toMatchObject({ payment_method_details: { type: 'sepa_debit', sepa_debit: { last4: '3204' } } })
    expect(sim.admin.events({ type: 'payment_intent.succeeded' })).toHaveLength(1)
  })

  it('settles a debit from the immediate IBAN at once, and fails one from the delayed failing IBAN three minutes later', async () => {
    const { sim, stripe } = setup(312)
    const now = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'eur',
      payment_method: (await sepaMethod(stripe, 'AT611904300234573201')).id,
      mandate_data: ACCEPTANCE,
      confirm: true,
    })
    await sim.settle()
    expect((await stripe.paymentIntents.retrieve(now.id)).status).toBe('succeeded')
    const later = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'eur',
      payment_method: (await sepaMethod(stripe, 'AT051904300235473205')).id,
      mandate_data: ACCEPTANCE,
      confirm: true,
    })
    await sim.settle()
    expect((await stripe.paymentIntents.retrieve(later.id)).status).toBe('processing')
    await sim.clock.tickAsync(3 * MINUTE)
    const failed = await stripe.paymentIntents.retrieve(later.id)
    expect(failed.status).toBe('requires_payment_method')
    expect(failed.last_payment_error?.code).toBe('generic_decline')
  })

  it('completes a euro checkout session paid from the delayed IBAN unpaid, and pays it when the clock passes three minutes', async () => {
    const { sim, stripe } = setup(314)
    const price = await stripe.prices.create({ currency: 'eur', unit_amount: 4000, product_data: { name: 'Grinder' } })
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'https://shop.example/ok',
    })
    const done = await sim.customer.completeCheckout(session.id, { paymentMethod: 'pm_sepaDebit_successDelayed_at' })
    expect(done).toMatchObject({ status: 'complete', payment_status: 'unpaid' })
    await sim.settle()
    const pending = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] })
    expect(pending.payment_status).toBe('unpaid')
    expect(pending.payment_intent).toMatchObject({ status: 'processing', payment_method_types: ['sepa_debit'] })
    expect(sim.admin.events({ type: 'checkout.session.async_payment_succeeded' })).toHaveLength(0)
    await sim.clock.tickAsync(3 * MINUTE)
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe('paid')
    expect(sim.admin.events({ type: 'checkout.session.async_payment_succeeded' })).toHaveLength(1)
  })

  it('refuses a SEPA payment method without an IBAN or an email with 400', async () => {
    const { stripe } = setup(313)
    const noIban = await caught(stripe.paymentMethods.create({ type: 'sepa_debit', billing_details: { name: 'J' } }))
    expect(noIban).toMatchObject({ statusCode: 400, param: 'sepa_debit[iban]' })
    const noEmail = await caught(
      stripe.paymentMethods.create({
        type: 'sepa_debit',
        sepa_debit: { iban: 'AT611904300234573201' },
        billing_details: { name: 'J' },
      }),
    )
    expect(noEmail).toMatchObject({ statusCode: 400, param: 'billing_details[email]' })
  })
})
