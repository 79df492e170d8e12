import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

describe("a transfer's payment in the connected account (py_)", () => {
  it('a destination charge arrives as a py_ payment the connected account reads, with the arrival as its balance transaction', async () => {
    const { stripe } = setup(131)
    const account = await stripe.accounts.create({ type: 'express' })
    const pi = await stripe.paymentIntents.create({
      amount: 10_000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      transfer_data: { destination: account.id, amount: 8000 },
    })
    const charge = await stripe.charges.retrieve(pi.latest_charge as string)
    const transfer = await stripe.transfers.retrieve(charge.transfer as string)
    expect(transfer.destination_payment).toMatch(/^py_/)
    const asConnected = { stripeAccount: account.id }
    const payment = await stripe.charges.retrieve(transfer.destination_payment as string, {}, asConnected)
    expect(payment).toMatchObject({
      object: 'charge',
      amount: 8000,
      currency: 'usd',
      status: 'succeeded',
      paid: true,
      captured: true,
      source_transfer: transfer.id,
      payment_method_details: { type: 'stripe_account' },
    })
    const txn = await stripe.balanceTransactions.retrieve(payment.balance_transaction as string, {}, asConnected)
    expect(txn).toMatchObject({ amount: 8000, type: 'payment', source: payment.id })
    expect((await stripe.charges.list({}, asConnected)).data.map((c) => c.id)).toEqual([payment.id])
    // The platform does not see it among its own charges.
    const missing = await stripe.charges.retrieve(payment.id).catch((e: unknown) => e)
    expect(missing).toMatchObject({ statusCode: 404 })
  })

  it('a plain transfer makes one too', async () => {
    const { sim, stripe } = setup(132)
    await stripe.paymentIntents.create({ amount: 20_000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true })
    await sim.clock.tickAsync(3 * 24 * 3600 * 1000)
    const account = await stripe.accounts.create({ type: 'express' })
    const transfer = await stripe.transfers.create({ amount: 3000, currency: 'usd', destination: account.id })
    const payment = await stripe.charges.retrieve(transfer.destination_payment as string, {}, { stripeAccount: account.id })
    expect(payment).toMatchObject({ amount: 3000, source_transfer: transfer.id } satisfies Partial<Stripe.Charge>)
  })
})
