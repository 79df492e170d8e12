import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { caught, officialClient } from './helpers.js'

/** Money leaving the balance: payouts and transfers debit the available balance and never overdraw it. */
const usd = (b: Stripe.Balance, kind: 'available' | 'pending') => b[kind].find((x) => x.currency === 'usd')?.amount ?? 0

async function fund(stripe: Stripe, amount: number, pm = 'pm_card_bypassPending') {
  return stripe.paymentIntents.create({ amount, currency: 'usd', payment_method: pm, confirm: true })
}

describe('available funds', () => {
  it('makes a pm_card_bypassPending charge available at once, a pm_card_visa charge pending', async () => {
    const { stripe } = officialClient(9)
    await fund(stripe, 10_000)
    await fund(stripe, 10_000, 'pm_card_visa')
    const balance = await stripe.balance.retrieve()
    expect(usd(balance, 'available')).toBe(10_000 - 320)
    expect(usd(balance, 'pending')).toBe(10_000 - 320)
  })
})

describe('payouts', () => {
  it('takes a payout out of the available balance with a payout balance transaction', async () => {
    const { stripe } = officialClient(9)
    await fund(stripe, 10_000)
    const payout = await stripe.payouts.create({ amount: 5000, currency: 'usd' })
    expect(payout).toMatchObject({ object: 'payout', amount: 5000, status: 'pending' })
    const txn = await stripe.balanceTransactions.retrieve(payout.balance_transaction as string)
    expect(txn).toMatchObject({ type: 'payout', amount: -5000, net: -5000, source: payout.id })
    expect(usd(await stripe.balance.retrieve(), 'available')).toBe(10_000 - 320 - 5000)
  })

  it('refuses a payout beyond the available balance with balance_insufficient and creates nothing', async () => {
    const { stripe } = officialClient(9)
    await fund(stripe, 10_000, 'pm_card_visa')
    const err = await caught(stripe.payouts.create({ amount: 5000, currency: 'usd' }))
    expect(err.statusCode).toBe(400)
    expect(err.code).toBe('balance_insufficient')
    expect(err.message).toMatch(/insufficient funds/)
    expect((await stripe.payouts.list()).data).toHaveLength(0)
    expect((await stripe.balanceTransactions.list()).data.map((t) => t.type)).toEqual(['charge'])
  })
})

describe('transfers', () => {
  it('moves money from the platform to a connected account', async () => {
    const { stripe } = officialClient(9)
    await fund(stripe, 10_000)
    const account = await stripe.accounts.create({ type: 'express' })
    const transfer = await stripe.transfers.create({ amount: 3000, currency: 'usd', destination: account.id })
    expect(transfer).toMatchObject({ object: 'transfer', amount: 3000, destination: account.id, reversed: false })
    expect(usd(await stripe.balance.retrieve(), 'available')).toBe(10_000 - 320 - 3000)
    const connected = await stripe.balance.retrieve({}, { stripeAccount: account.id })
    expect(usd(connected, 'available')).toBe(3000)
  })

  it('refuses a destination that is not a connected account of the platform', async () => {
    const { stripe } = officialClient(9)
    await fund(stripe, 10_000)
    const err = await caught(stripe.transfers.create({ amount: 3000, currency: 'usd', destination: 'acct_nobody' }))
    expect(err.statusCode).toBe(400)
    expect(err.param).toBe('destination')
    expect((await stripe.transfers.list()).data).toHaveLength(0)
  })

  it('refuses a transfer beyond the available balance and moves nothing', async () => {
    const { stripe } = officialClient(9)
    const account = await stripe.accounts.create({ type: 'express' })
    const err = await caught(stripe.transfers.create({ amount: 3000, currency: 'usd', destination: account.id }))
    expect(err.code).toBe('balance_insufficient')
    const connected = await stripe.balance.retrieve({}, { stripeAccount: account.id })
    expect(usd(connected, 'available')).toBe(0)
  })
})
