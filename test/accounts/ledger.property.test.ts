import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { form, setup } from './helpers.js'

const DAY = 86_400_000

type Op =
  | { kind: 'pay'; amount: number; currency: 'usd' | 'eur' | 'jpy'; card: string; key: number; manual: boolean }
  | { kind: 'retry'; index: number }
  | { kind: 'capture'; index: number }
  | { kind: 'tick'; days: number }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('pay' as const),
    amount: fc.integer({ min: 50, max: 500_000 }),
    currency: fc.constantFrom('usd' as const, 'eur' as const, 'jpy' as const),
    card: fc.constantFrom('pm_card_visa', 'pm_card_mastercard', 'pm_card_chargeDeclined'),
    key: fc.integer({ min: 0, max: 1_000_000 }),
    manual: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('retry' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('capture' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('tick' as const), days: fc.constantFrom(0, 0.25, 0.5, 1, 2) }),
)

describe('ledger', () => {
  it('keeps balance equal to the sum of its transactions and never moves money twice for one idempotency key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 25 }), async (ops) => {
        const { sim, key } = setup(7)
        const scope = { account: sim.platform.id, mode: 'test' as const }
        const sent: { key: string; body: Record<string, string>; pi?: string; at: number }[] = []
        const expected = new Map<string, number>() // gross captured per currency
        for (const op of ops) {
          if (op.kind === 'tick') {
            await sim.clock.tickAsync(op.days * DAY)
          } else if (op.kind === 'pay' || op.kind === 'retry') {
            const prior = op.kind === 'retry' ? sent[op.index % Math.max(1, sent.length)] : undefined
            if (op.kind === 'retry' && prior === undefined) continue
            const req =
              prior ??
              ({
                at: sim.clock.now,
                key: `k${op.kind === 'pay' ? op.key : 0}-${sent.length}`,
                body: {
                  amount: String(op.kind === 'pay' ? op.amount : 0),
                  currency: op.kind === 'pay' ? op.currency : 'usd',
                  payment_method: op.kind === 'pay' ? op.card : 'pm_card_visa',
                  confirm: 'true',
                  ...(op.kind === 'pay' && op.manual ? { capture_method: 'manual' } : {}),
                },
              } as (typeof sent)[number])
            const res = await form(sim, key, 'POST', '/v1/payment_intents', req.body, { 'Idempotency-Key': req.key })
            const pi = res.status === 200 ? res.body : res.body.error?.payment_intent
            // Keys live 24 hours: a retry after that is a new request and may pay again, as on the provider.
            const fresh = prior === undefined || sim.clock.now - prior.at >= DAY
            if (fresh) {
              if (prior === undefined) {
                req.pi = pi?.id
                sent.push(req)
              } else prior.at = sim.clock.now
              expect(res.headers.get('idempotent-replayed')).toBeNull()
              if (res.status === 200 && res.body.status === 'succeeded') {
                const c = res.body.currency as string
                expected.set(c, (expected.get(c) ?? 0) + (res.body.amount as number))
              }
            } else {
              expect(res.headers.get('idempotent-replayed')).toBe('true')
            }
          } else {
            const target = sent[op.index % Math.max(1, sent.length)]
            if (target?.pi === undefined) continue
            const res = await form(
              sim,
              key,
              'POST',
              `/v1/payment_intents/${target.pi}/capture`,
              {},
              {
                'Idempotency-Key': `cap-${target.pi}`,
              },
            )
            if (res.status === 200 && res.headers.get('idempotent-replayed') !== 'true') {
              const c = res.body.currency as string
              expected.set(c, (expected.get(c) ?? 0) + (res.body.amount_received as number))
            }
          }
        }
        const txns = sim.service.ledger.transactions(scope)
        // Balance equals the sum of its transactions, per currency and status, and the journal agrees.
        const balance = (await form(sim, key, 'GET', '/v1/balance')).body
        const sum = (currency: string, status: string) =>
          txns.filter((t) => t.currency === currency && t.status === status).reduce((s, t) => s + t.net, 0)
        for (const row of balance.available) expect(row.amount).toBe(sum(row.currency, 'available'))
        for (const row of balance.pending) expect(row.amount).toBe(sum(row.currency, 'pending'))
        expect(sim.service.ledger.journalBalance(scope)).toEqual(sim.service.ledger.balance(scope))
        for (const entry of sim.service.ledger.journal(scope)) {
          expect(entry.lines.reduce((s, l) => s + l.amount, 0)).toBe(0)
        }
        // Money moved exactly once per successful payment, whatever the retries and replays.
        const gross = new Map<string, number>()
        for (const t of txns) gross.set(t.currency, (gross.get(t.currency) ?? 0) + t.amount)
        expect(Object.fromEntries(gross)).toEqual(Object.fromEntries(expected))
        const sources = txns.map((t) => t.source)
        expect(new Set(sources).size).toBe(sources.length)
        expect(sim.service.ledger.transactionCount(scope, 0)).toBe(txns.length)
      }),
      { numRuns: 30, seed: 42 },
    )
  }, 60_000)

  it('moves a charge from pending to available after two days', async () => {
    const { stripe, sim } = setup()
    await stripe.paymentIntents.create({ amount: 10_000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true })
    const b1 = await stripe.balance.retrieve()
    expect(b1.pending).toEqual([{ amount: 9680, currency: 'usd', source_types: { card: 9680 } }])
    expect(b1.available[0]?.amount).toBe(0)
    await sim.clock.tickAsync(2 * DAY)
    const b2 = await stripe.balance.retrieve()
    expect(b2.available[0]?.amount).toBe(9680)
    expect(b2.pending[0]?.amount).toBe(0)
  })

  it('counts transactions per account and mode since a time', async () => {
    const { stripe, sim } = setup()
    const scope = { account: sim.platform.id, mode: 'test' as const }
    await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true })
    const mid = sim.clock.now + 1
    await sim.clock.tickAsync(1000)
    await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true })
    expect(sim.service.ledger.transactionCount(scope, 0)).toBe(2)
    expect(sim.service.ledger.transactionCount(scope, mid)).toBe(1)
    expect(sim.service.ledger.transactionCount({ ...scope, mode: 'live' }, 0)).toBe(0)
  })

  it('lists balance transactions and answers an empty balance in the default currency', async () => {
    const { stripe } = setup()
    const empty = await stripe.balance.retrieve()
    expect(empty).toMatchObject({ object: 'balance', livemode: false, available: [{ amount: 0, currency: 'usd' }] })
    await stripe.paymentIntents.create({ amount: 1000, currency: 'eur', payment_method: 'pm_card_visa', confirm: true })
    const list = await stripe.balanceTransactions.list({ limit: 10 })
    expect(list.data).toHaveLength(1)
    expect(list.data[0]).toMatchObject({ currency: 'eur', amount: 1000, type: 'charge' })
  })
})
