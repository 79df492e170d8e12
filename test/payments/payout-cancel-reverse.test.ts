import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { stateOf } from '../accounts/helpers.js'
import { caught, officialClient } from './helpers.js'

const DAY_MS = 24 * 60 * 60_000

const usd = (b: Stripe.Balance) => b.available.find((x) => x.currency === 'usd')?.amount ?? 0

async function fund(stripe: Stripe, amount: number) {
  await stripe.paymentIntents.create({ amount, currency: 'usd', payment_method: 'pm_card_bypassPending', confirm: true })
}

describe('payouts.cancel', () => {
  it('cancels a pending payout, gives its funds back and emits payout.canceled', async () => {
    const { sim, stripe } = officialClient(401)
    await fund(stripe, 10_000)
    const payout = await stripe.payouts.create({ amount: 4000, currency: 'usd' })
    expect(usd(await stripe.balance.retrieve())).toBe(10_000 - 320 - 4000)
    const canceled = await stripe.payouts.cancel(payout.id)
    expect(canceled.status).toBe('canceled')
    const txn = await stripe.balanceTransactions.retrieve(canceled.failure_balance_transaction as string)
    expect(txn).toMatchObject({ type: 'payout_cancel', amount: 4000, source: payout.id })
    expect(usd(await stripe.balance.retrieve())).toBe(10_000 - 320)
    const [event] = sim.admin.events({ type: 'payout.canceled' })
    expect((event?.body.data as { object: Stripe.Payout } | undefined)?.object.id).toBe(payout.id)
    // Canceled stays canceled: the arrival date passes without a payout.paid.
    await sim.clock.tickAsync(3 * DAY_MS)
    expect((await stripe.payouts.retrieve(payout.id)).status).toBe('canceled')
    expect(sim.admin.events({ type: 'payout.paid' })).toHaveLength(0)
  })

  it('refuses to cancel a paid payout, changing nothing', async () => {
    const { sim, stripe } = officialClient(402)
    await fund(stripe, 10_000)
    const payout = await stripe.payouts.create({ amount: 4000, currency: 'usd' })
    await sim.clock.tickAsync(2 * DAY_MS)
    expect((await stripe.payouts.retrieve(payout.id)).status).toBe('paid')
    expect(sim.admin.events({ type: 'payout.paid' })).toHaveLength(1)
    const before = stateOf(sim)
    const e = await caught(stripe.payouts.cancel(payout.id))
    expect([e.statusCode, e.code]).toEqual([400, 'payout_not_cancelable'])
    expect(e.message).toContain('Only a pending payout can be canceled.')
    expect(stateOf(sim)).toBe(before)
    const missing = await caught(stripe.payouts.cancel('po_missing'))
    expect([missing.statusCode, missing.code]).toEqual([404, 'resource_missing'])
  })
})

describe('payouts.reverse', () => {
  it("reverses a connected account's paid payout with a payout of the opposite amount", async () => {
    const { sim, stripe } = officialClient(403)
    await fund(stripe, 10_000)
    const account = await stripe.accounts.create({ type: 'custom', country: 'US' })
    await stripe.transfers.create({ amount: 5000, currency: 'usd', destination: account.id })
    const on = { stripeAccount: account.id }
    const payout = await stripe.payouts.create({ amount: 3000, currency: 'usd' }, on)
    const early = await caught(stripe.payouts.reverse(payout.id, {}, on))
    expect([early.statusCode, early.code]).toEqual([400, 'payout_not_reversible'])
    await sim.clock.tickAsync(2 * DAY_MS)
    const reversal = await stripe.payouts.reverse(payout.id, { metadata: { why: 'wrong account' } }, on)
    expect(reversal).toMatchObject({ object: 'payout', amount: -3000, original_payout: payout.id, status: 'pending' })
    expect(reversal.metadata).toEqual({ why: 'wrong account' })
    expect((await stripe.payouts.retrieve(payout.id, {}, on)).reversed_by).toBe(reversal.id)
    expect(usd(await stripe.balance.retrieve({}, on))).toBe(5000)
    const twice = await caught(stripe.payouts.reverse(payout.id, {}, on))
    expect(twice.message).toContain('already reversed')
    await sim.clock.tickAsync(2 * DAY_MS)
    expect((await stripe.payouts.retrieve(reversal.id, {}, on)).status).toBe('paid')
  })

  it("refuses to reverse the platform's own payout, changing nothing", async () => {
    const { sim, stripe } = officialClient(404)
    await fund(stripe, 10_000)
    const payout = await stripe.payouts.create({ amount: 1000, currency: 'usd' })
    await sim.clock.tickAsync(2 * DAY_MS)
    const before = stateOf(sim)
    const e = await caught(stripe.payouts.reverse(payout.id))
    expect([e.statusCode, e.code]).toEqual([400, 'payout_not_reversible'])
    expect(stateOf(sim)).toBe(before)
  })
})
