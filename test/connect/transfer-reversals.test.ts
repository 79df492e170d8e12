import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { client, setup } from '../accounts/helpers.js'

const usd = (b: Stripe.Balance) => b.available.find((x) => x.currency === 'usd')?.amount ?? 0

/** A platform with 10 000 usd available (less the card fee) and a 3000 usd transfer to a connected account. */
async function transferred(seed: number) {
  const { sim, stripe } = setup(seed)
  await stripe.paymentIntents.create({ amount: 10_000, currency: 'usd', payment_method: 'pm_card_bypassPending', confirm: true })
  const account = await stripe.accounts.create({ type: 'express' })
  const transfer = await stripe.transfers.create({ amount: 3000, currency: 'usd', destination: account.id })
  return { sim, stripe, account, transfer }
}

describe('transfer reversals', () => {
  it('moves part of a transfer back from the connected account to the platform', async () => {
    const { sim, stripe, account, transfer } = await transferred(101)
    const platformBefore = usd(await stripe.balance.retrieve())
    const reversal = await stripe.transfers.createReversal(transfer.id, { amount: 1000, metadata: { why: 'refund' } })
    expect(reversal).toMatchObject({ object: 'transfer_reversal', amount: 1000, currency: 'usd', transfer: transfer.id })
    expect(usd(await stripe.balance.retrieve())).toBe(platformBefore + 1000)
    expect(usd(await stripe.balance.retrieve({}, { stripeAccount: account.id }))).toBe(2000)
    const txn = await stripe.balanceTransactions.retrieve(reversal.balance_transaction as string)
    expect(txn).toMatchObject({ type: 'transfer_cancel', amount: 1000, source: reversal.id })
    const after = await stripe.transfers.retrieve(transfer.id)
    expect(after).toMatchObject({ amount_reversed: 1000, reversed: false })
    expect(after.reversals.data.map((r) => r.id)).toEqual([reversal.id])
    const events = sim.admin.events({ type: 'transfer.reversed' })
    expect(events).toHaveLength(1)
  })

  it('reverses what is left by default, then lists, retrieves and updates reversals', async () => {
    const { stripe, transfer } = await transferred(102)
    const first = await stripe.transfers.createReversal(transfer.id, { amount: 500 })
    const rest = await stripe.transfers.createReversal(transfer.id)
    expect(rest.amount).toBe(2500)
    expect(await stripe.transfers.retrieve(transfer.id)).toMatchObject({ amount_reversed: 3000, reversed: true })
    const list = await stripe.transfers.listReversals(transfer.id)
    expect(list.data.map((r) => r.id)).toEqual([rest.id, first.id])
    expect((await stripe.transfers.retrieveReversal(transfer.id, first.id)).amount).toBe(500)
    const updated = await stripe.transfers.updateReversal(transfer.id, first.id, { metadata: { note: 'x' } })
    expect(updated.metadata).toEqual({ note: 'x' })
  })

  it('refuses more than is left, and a fully reversed transfer, changing nothing', async () => {
    const { sim, stripe, account, transfer } = await transferred(103)
    const events = sim.admin.events().length
    await expect(stripe.transfers.createReversal(transfer.id, { amount: 3001 })).rejects.toMatchObject({
      statusCode: 400,
      code: 'amount_too_large',
    })
    expect(sim.admin.events().length).toBe(events)
    expect(usd(await stripe.balance.retrieve({}, { stripeAccount: account.id }))).toBe(3000)
    await stripe.transfers.createReversal(transfer.id)
    await expect(stripe.transfers.createReversal(transfer.id, { amount: 1 })).rejects.toMatchObject({ statusCode: 400 })
  })

  it('refuses a reversal the connected account cannot pay back with balance_insufficient', async () => {
    const { stripe, account, transfer } = await transferred(104)
    await stripe.payouts.create({ amount: 2500, currency: 'usd' }, { stripeAccount: account.id })
    await expect(stripe.transfers.createReversal(transfer.id, { amount: 1000 })).rejects.toMatchObject({
      statusCode: 400,
      code: 'balance_insufficient',
    })
    expect((await stripe.transfers.listReversals(transfer.id)).data).toEqual([])
  })

  it('keeps the platform transfer out of the connected account: it cannot reverse or see it', async () => {
    const { sim, account, transfer } = await transferred(105)
    const connected = client(sim, sim.platform.secretKey.test)
    await expect(connected.transfers.createReversal(transfer.id, {}, { stripeAccount: account.id })).rejects.toMatchObject({
      statusCode: 404,
    })
  })
})
