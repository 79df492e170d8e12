import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

const balanceOf = (b: Stripe.Balance) => {
  const a = b.available.find((x) => x.currency === 'usd')?.amount ?? 0
  const p = b.pending.find((x) => x.currency === 'usd')?.amount ?? 0
  return a + p
}

describe('destination charges with application fees', () => {
  it('transfers the payment to the destination and collects the application fee back to the platform', async () => {
    const { sim, stripe } = setup(111)
    const account = await stripe.accounts.create({ type: 'express' })
    const pi = await stripe.paymentIntents.create({
      amount: 10_000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      application_fee_amount: 1230,
      transfer_data: { destination: account.id },
    })
    expect(pi.status).toBe('succeeded')
    expect(pi.application_fee_amount).toBe(1230)
    const charge = await stripe.charges.retrieve(pi.latest_charge as string)
    expect(charge.transfer).toMatch(/^tr_/)
    expect(charge.application_fee).toMatch(/^fee_/)
    expect(charge.application_fee_amount).toBe(1230)
    const transfer = await stripe.transfers.retrieve(charge.transfer as string)
    expect(transfer).toMatchObject({ amount: 10_000, destination: account.id, source_transaction: charge.id })
    const fee = await stripe.applicationFees.retrieve(charge.application_fee as string)
    expect(fee).toMatchObject({
      object: 'application_fee',
      amount: 1230,
      account: account.id,
      charge: charge.id,
      refunded: false,
    })
    // Platform: 10 000 - card fee (320) - 10 000 transferred + 1230 fee; destination: 10 000 - 1230.
    expect(balanceOf(await stripe.balance.retrieve())).toBe(10_000 - 320 - 10_000 + 1230)
    expect(balanceOf(await stripe.balance.retrieve({}, { stripeAccount: account.id }))).toBe(10_000 - 1230)
    const types = sim.admin.events({ account: sim.platform.id }).map((e) => e.type)
    expect(types).toEqual(expect.arrayContaining(['transfer.created', 'application_fee.created']))
    expect((await stripe.applicationFees.list({ charge: charge.id })).data.map((f) => f.id)).toEqual([fee.id])
  })

  it('transfers transfer_data[amount] only, with no application fee', async () => {
    const { stripe } = setup(112)
    const account = await stripe.accounts.create({ type: 'express' })
    const pi = await stripe.paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      transfer_data: { destination: account.id, amount: 4000 },
    })
    const charge = await stripe.charges.retrieve(pi.latest_charge as string)
    expect((await stripe.transfers.retrieve(charge.transfer as string)).amount).toBe(4000)
    expect(charge.application_fee).toBeNull()
    expect((await stripe.applicationFees.list()).data).toEqual([])
  })

  it('moves money only when a manual capture captures', async () => {
    const { stripe } = setup(113)
    const account = await stripe.accounts.create({ type: 'express' })
    const pi = await stripe.paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      capture_method: 'manual',
      application_fee_amount: 500,
      transfer_data: { destination: account.id },
    })
    expect((await stripe.applicationFees.list()).data).toEqual([])
    await stripe.paymentIntents.capture(pi.id)
    expect((await stripe.applicationFees.list()).data.map((f) => f.amount)).toEqual([500])
  })
})

describe('direct charges with application fees', () => {
  it('collects the fee from the connected account into the platform, listed by the platform only', async () => {
    const { sim, stripe } = setup(114)
    const account = await stripe.accounts.create({ type: 'standard' })
    const pi = await stripe.paymentIntents.create(
      { amount: 2000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, application_fee_amount: 200 },
      { stripeAccount: account.id },
    )
    const fees = await stripe.applicationFees.list()
    expect(fees.data).toHaveLength(1)
    expect(fees.data[0]).toMatchObject({ amount: 200, account: account.id, charge: pi.latest_charge })
    expect(balanceOf(await stripe.balance.retrieve())).toBe(200)
    expect(balanceOf(await stripe.balance.retrieve({}, { stripeAccount: account.id }))).toBe(2000 - 88 - 200)
    // The connected account does not see the platform's fees.
    expect((await stripe.applicationFees.list({}, { stripeAccount: account.id })).data).toEqual([])
    expect(sim.admin.events({ account: sim.platform.id, type: 'application_fee.created' })).toHaveLength(1)
  })
})

describe('refused Connect params', () => {
  it('refuses an application fee with no connected account, a fee above the amount and an unknown destination, creating nothing', async () => {
    const { sim, stripe } = setup(115)
    const account = await stripe.accounts.create({ type: 'express' })
    const before = sim.admin.events().length
    const base = { amount: 2000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true } as const
    await expect(stripe.paymentIntents.create({ ...base, application_fee_amount: 100 })).rejects.toMatchObject({
      statusCode: 400,
      param: 'application_fee_amount',
    })
    await expect(
      stripe.paymentIntents.create({ ...base, application_fee_amount: 3000, transfer_data: { destination: account.id } }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'application_fee_amount' })
    await expect(stripe.paymentIntents.create({ ...base, transfer_data: { destination: 'acct_nobody' } })).rejects.toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
    })
    expect(sim.admin.events().length).toBe(before)
    expect((await stripe.paymentIntents.list()).data).toEqual([])
  })
})

describe('application fee refunds', () => {
  it('refunds part then the rest of a fee, moving it back to the connected account', async () => {
    const { sim, stripe } = setup(116)
    const account = await stripe.accounts.create({ type: 'standard' })
    await stripe.paymentIntents.create(
      { amount: 2000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, application_fee_amount: 200 },
      { stripeAccount: account.id },
    )
    const fee = (await stripe.applicationFees.list()).data[0] as Stripe.ApplicationFee
    const part = await stripe.applicationFees.createRefund(fee.id, { amount: 50 })
    expect(part).toMatchObject({ object: 'fee_refund', amount: 50, fee: fee.id })
    expect(balanceOf(await stripe.balance.retrieve({}, { stripeAccount: account.id }))).toBe(2000 - 88 - 150)
    const rest = await stripe.applicationFees.createRefund(fee.id)
    expect(rest.amount).toBe(150)
    expect(await stripe.applicationFees.retrieve(fee.id)).toMatchObject({ amount_refunded: 200, refunded: true })
    expect((await stripe.applicationFees.listRefunds(fee.id)).data.map((r) => r.id)).toEqual([rest.id, part.id])
    expect((await stripe.applicationFees.retrieveRefund(fee.id, part.id)).amount).toBe(50)
    const updated = await stripe.applicationFees.updateRefund(fee.id, part.id, { metadata: { why: 'goodwill' } })
    expect(updated.metadata).toEqual({ why: 'goodwill' })
    const types = sim.admin.events({ account: sim.platform.id }).map((e) => e.type)
    expect(types.filter((t) => t === 'application_fee.refunded')).toHaveLength(2)
    expect(types).toContain('application_fee.refund.updated')
    await expect(stripe.applicationFees.createRefund(fee.id, { amount: 1 })).rejects.toMatchObject({ statusCode: 400 })
  })

  it('refuses a refund above what is left with amount_too_large and changes nothing', async () => {
    const { sim, stripe } = setup(117)
    const account = await stripe.accounts.create({ type: 'standard' })
    await stripe.paymentIntents.create(
      { amount: 2000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, application_fee_amount: 200 },
      { stripeAccount: account.id },
    )
    const fee = (await stripe.applicationFees.list()).data[0] as Stripe.ApplicationFee
    const before = sim.admin.events().length
    await expect(stripe.applicationFees.createRefund(fee.id, { amount: 201 })).rejects.toMatchObject({
      statusCode: 400,
      code: 'amount_too_large',
    })
    expect(sim.admin.events().length).toBe(before)
    expect((await stripe.applicationFees.retrieve(fee.id)).amount_refunded).toBe(0)
  })
})
