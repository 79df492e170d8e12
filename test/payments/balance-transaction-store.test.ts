import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { client } from '../accounts/helpers.js'

const DAY = 86_400_000

function setup(seed: number): { sim: Simulator; stripe: Stripe } {
  const sim = createSimulator({ seed, headerPrefix: 'Stripe', limits: false })
  return { sim, stripe: client(sim, sim.platform.secretKey.test) }
}

/** A charge left pending, a charge available at once, a refund and a payout: four kinds of movement. */
async function moveMoney(stripe: Stripe): Promise<void> {
  await stripe.paymentIntents.create({ amount: 10_000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true })
  const paid = await stripe.paymentIntents.create({
    amount: 5_000,
    currency: 'usd',
    payment_method: 'pm_card_bypassPending',
    confirm: true,
  })
  await stripe.refunds.create({ payment_intent: paid.id, amount: 1_000 })
  await stripe.payouts.create({ amount: 2_000, currency: 'usd' })
}

async function listAll(stripe: Stripe): Promise<Stripe.BalanceTransaction[]> {
  return (await stripe.balanceTransactions.list({ limit: 100 })).data
}

function stateOf(sim: Simulator): Record<string, unknown> {
  return (sim.snapshot() as unknown as { state: Record<string, unknown> }).state
}

describe('balance transactions kept as the API shows them', () => {
  it('answers charges, refunds and payouts as balance_transaction objects with seconds, categories and fee details', async () => {
    const { sim, stripe } = setup(21)
    const start = Math.floor(sim.clock.now / 1000)
    await moveMoney(stripe)
    const txns = await listAll(stripe)
    expect(txns.map((t) => [t.type, t.reporting_category, t.amount, t.fee, t.net, t.status])).toEqual([
      ['payout', 'payout', -2_000, 0, -2_000, 'available'],
      ['refund', 'refund', -1_000, 0, -1_000, 'available'],
      ['charge', 'charge', 5_000, 175, 4_825, 'available'],
      ['charge', 'charge', 10_000, 320, 9_680, 'pending'],
    ])
    const pending = txns[3] as Stripe.BalanceTransaction
    expect(pending.created).toBeGreaterThanOrEqual(start)
    expect(pending.created).toBeLessThan(start + 60)
    expect(pending.available_on).toBe(pending.created + 2 * 86_400)
    expect(pending.fee_details).toEqual([
      { amount: 320, application: null, currency: 'usd', description: 'Processing fees', type: 'stripe_fee' },
    ])
    expect(txns[0]?.fee_details).toEqual([])
    expect(txns[0]?.source).toMatch(/^po_/)
    for (const t of txns) expect(await stripe.balanceTransactions.retrieve(t.id)).toEqual(t)
  })

  it('turns a pending transaction available at available_on, in the stored object and the balance alike', async () => {
    const { sim, stripe } = setup(22)
    await stripe.paymentIntents.create({ amount: 10_000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true })
    const [txn] = await listAll(stripe)
    await sim.clock.tickAsync(2 * DAY - 60_000)
    expect((await stripe.balanceTransactions.retrieve(String(txn?.id))).status).toBe('pending')
    await sim.clock.tickAsync(60_000)
    const now = await stripe.balanceTransactions.retrieve(String(txn?.id))
    expect(now).toEqual({ ...txn, status: 'available' })
    expect((await stripe.balance.retrieve()).available[0]?.amount).toBe(9_680)
    const scope = { account: sim.platform.id, mode: 'test' as const }
    expect(sim.service.ledger.journalBalance(scope)).toEqual(sim.service.ledger.balance(scope))
    expect(sim.service.ledger.journal(scope).map((e) => e.memo)).toEqual(['charge', 'available'])
  })

  it('carries each transaction once in a snapshot, in the engine store, and answers the same after a load', async () => {
    const { sim, stripe } = setup(23)
    await moveMoney(stripe)
    const before = await listAll(stripe)
    const state = stateOf(sim)
    const holding = Object.keys(state).filter((part) => JSON.stringify(state[part]).includes('"object":"balance_transaction"'))
    expect(holding).toEqual(['engine.balance_transaction'])
    const text = JSON.stringify(state)
    for (const t of before) expect(text.split(JSON.stringify(t)).length - 1).toBe(1)

    const loaded = createSimulator({ from: JSON.parse(JSON.stringify(sim.snapshot())) })
    const again = client(loaded, loaded.platform.secretKey.test)
    expect(await listAll(again)).toEqual(before)
    expect(await again.balance.retrieve()).toEqual(await stripe.balance.retrieve())
    const scope = { account: sim.platform.id, mode: 'test' as const }
    expect(loaded.service.ledger.journal(scope)).toEqual(sim.service.ledger.journal(scope))
    expect(loaded.admin.transactionCount(sim.platform.id)).toBe(4)
    // The posting index is rebuilt: posting a movement again answers the stored transaction.
    const charge = before[3] as Stripe.BalanceTransaction
    const repost = { account: sim.platform.id, mode: 'test' as const, currency: 'usd', amount: 1, type: 'charge' }
    expect(loaded.service.ledger.post({ ...repost, source: String(charge.source) }).id).toBe(charge.id)
    expect(loaded.admin.transactionCount(sim.platform.id)).toBe(4)

    // Time goes on alike in both: the pending charge becomes available, a new charge is counted.
    for (const s of [sim, loaded]) {
      await s.clock.tickAsync(2 * DAY)
      await client(s, s.platform.secretKey.test).paymentIntents.create({
        amount: 700,
        currency: 'usd',
        payment_method: 'pm_card_visa',
        confirm: true,
      })
    }
    expect(await listAll(again)).toEqual(await listAll(stripe))
    expect((await listAll(again)).map((t) => t.status)).toEqual(['pending', ...Array(4).fill('available')])
    expect(loaded.admin.transactionCount(sim.platform.id)).toBe(5)
  })

  it('keeps a fork apart from its origin', async () => {
    const { sim, stripe } = setup(24)
    await moveMoney(stripe)
    const forked = sim.fork()
    await client(forked, forked.platform.secretKey.test).payouts.create({ amount: 100, currency: 'usd' })
    expect(forked.admin.transactionCount(sim.platform.id)).toBe(5)
    expect(sim.admin.transactionCount(sim.platform.id)).toBe(4)
    expect(await listAll(stripe)).toHaveLength(4)
  })

  it('counts a transaction in the read window while the window starts at or before the second it was made in', async () => {
    const { sim, stripe } = setup(25)
    await stripe.paymentIntents.create({ amount: 1_000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true })
    const [txn] = await listAll(stripe)
    const made = Number(txn?.created) * 1000
    expect(sim.admin.transactionCount(sim.platform.id, 'test', made)).toBe(1)
    expect(sim.admin.transactionCount(sim.platform.id, 'test', made + 1)).toBe(0)
  })
})
