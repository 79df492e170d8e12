import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { startServeCli } from '../cli/serve-cli.js'

// A version 2 snapshot saved by the release before balance transactions and meter event sessions
// moved into the engine's stores (seed 29, `headerPrefix: 'Stripe'`): a charge that waited two days
// and became available, a charge available at once, a refund of part of it, a payout, a charge
// still pending, and a live meter event session. The answers file holds what that release answered
// right after the snapshot, and two days later (the pending charge available, the session forgotten).
const FIXTURE = readFileSync(new URL('./fixtures/ledger-sessions-v2.json', import.meta.url), 'utf8')
const OLD = JSON.parse(readFileSync(new URL('./fixtures/ledger-sessions-v2-answers.json', import.meta.url), 'utf8')) as {
  answers: {
    balanceTransactions: Stripe.BalanceTransaction[]
    balance: Stripe.Balance
    transactionCount30Days: number
    transactionCountLastMinute: number
    session: { id: string; authentication_token: string }
    stream: { status: number; body: unknown }
    streamUnknown: number
  }
  later: {
    balanceTransactions: Stripe.BalanceTransaction[]
    balance: Stripe.Balance
    stream: { status: number; body: unknown }
    traceHash: string
  }
}

const DAY = 86_400_000
const oneEvent = { events: [{ event_name: 'api_call', payload: { stripe_customer_id: 'cus_1', value: '1' } }] }

function load(snapshot: unknown = JSON.parse(FIXTURE)): { sim: Simulator; stripe: Stripe } {
  const sim = createSimulator({ from: snapshot as never })
  const stripe = new Stripe(sim.platform.secretKey.test, {
    httpClient: Stripe.createFetchHttpClient(sim.fetch),
    maxNetworkRetries: 0,
  })
  return { sim, stripe }
}

async function stream(sim: Simulator, token: string): Promise<{ status: number; body: unknown }> {
  const res = await sim.fetch('https://meter-events.stripe.com/v2/billing/meter_event_stream', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(oneEvent),
  })
  return { status: res.status, body: await res.json() }
}

async function listAll(stripe: Stripe): Promise<Stripe.BalanceTransaction[]> {
  return (await stripe.balanceTransactions.list({ limit: 100 })).data
}

function stateOf(snapshot: unknown): Record<string, unknown> {
  return (snapshot as { state: Record<string, unknown> }).state
}

describe('a version 2 snapshot from an earlier release', () => {
  it('loads with its balance transactions, balance, read allocation count and meter event session as that release answered', async () => {
    const { sim, stripe } = load()
    const now = sim.clock.now
    const listed = await listAll(stripe)
    expect(listed).toEqual(OLD.answers.balanceTransactions)
    expect(listed.map((t) => [t.type, t.amount, t.status])).toEqual([
      ['charge', 3_000, 'pending'],
      ['payout', -2_000, 'available'],
      ['refund', -1_000, 'available'],
      ['charge', 5_000, 'available'],
      ['charge', 10_000, 'available'],
    ])
    for (const t of OLD.answers.balanceTransactions) expect(await stripe.balanceTransactions.retrieve(t.id)).toEqual(t)
    expect(await stripe.balance.retrieve()).toEqual(OLD.answers.balance)
    expect(sim.admin.transactionCount(sim.platform.id, 'test', now - 30 * DAY)).toBe(OLD.answers.transactionCount30Days)
    expect(sim.admin.transactionCount(sim.platform.id, 'test', now - 60_000)).toBe(OLD.answers.transactionCountLastMinute)
    expect(await stream(sim, OLD.answers.session.authentication_token)).toEqual(OLD.answers.stream)
    expect(OLD.answers.stream.status).toBe(200)
    expect((await stream(sim, 'ek_test_unknown')).status).toBe(OLD.answers.streamUnknown)
  })

  it('continues as that release did: the pending charge becomes available, the session is forgotten, the same trace hash', async () => {
    const { sim, stripe } = load()
    await listAll(stripe)
    await stripe.balance.retrieve()
    await stream(sim, OLD.answers.session.authentication_token)
    await stream(sim, 'ek_test_unknown')
    await Promise.all(OLD.answers.balanceTransactions.map((t) => stripe.balanceTransactions.retrieve(t.id)))
    await sim.clock.tickAsync(2 * DAY)
    const later = await listAll(stripe)
    expect(later).toEqual(OLD.later.balanceTransactions)
    expect(later[0]?.status).toBe('available')
    expect(await stripe.balance.retrieve()).toEqual(OLD.later.balance)
    expect(await stream(sim, OLD.answers.session.authentication_token)).toEqual(OLD.later.stream)
    expect(sim.trace.hash()).toBe(OLD.later.traceHash)
  })

  it('is saved again as version 3, its transactions and session in the engine stores once, and that loads to the same answers', async () => {
    const { sim, stripe } = load()
    const again = JSON.parse(JSON.stringify(sim.snapshot()))
    expect(again.version).toBe(3)
    const state = stateOf(again)
    expect(state.ledger).toBeNull()
    expect(state.sessions).toBeNull()
    const holding = (text: string) => Object.keys(state).filter((part) => JSON.stringify(state[part]).includes(text))
    expect(holding('"object":"balance_transaction"')).toEqual(['engine.balance_transaction'])
    expect(holding(OLD.answers.session.authentication_token)).toEqual(['engine.v2.billing.meter_event_session'])
    const before = await listAll(stripe)
    const reloaded = load(again)
    expect(await listAll(reloaded.stripe)).toEqual(before)
    expect(JSON.stringify(reloaded.sim.snapshot())).toBe(JSON.stringify(sim.snapshot()))
  })

  it('upgrades a version 2 snapshot taken after the sessions moved but before the balance transactions did', async () => {
    const { sim } = load()
    // That build saved sessions in the engine store already and balance transactions in the ledger's part.
    const mixed = JSON.parse(JSON.stringify(sim.snapshot()))
    mixed.version = 2
    mixed.state.ledger = stateOf(JSON.parse(FIXTURE)).ledger
    delete mixed.state['engine.balance_transaction']
    const { sim: loaded, stripe } = load(mixed)
    // Equal as data: the engine part made by the upgrade comes later in the state's key order.
    expect(loaded.snapshot()).toEqual(sim.snapshot())
    expect(await listAll(stripe)).toEqual(OLD.answers.balanceTransactions)
    expect(await stream(loaded, OLD.answers.session.authentication_token)).toEqual(OLD.answers.stream)
  })

  it('is not changed by the load (the same fixture loads twice to the same state)', () => {
    const fixture = JSON.parse(FIXTURE)
    const first = JSON.stringify(load(fixture).sim.snapshot())
    expect(fixture).toEqual(JSON.parse(FIXTURE))
    expect(JSON.stringify(load(fixture).sim.snapshot())).toBe(first)
  })

  it('refuses version 1 and unknown versions with the version named', () => {
    const fixture = JSON.parse(FIXTURE)
    expect(() => createSimulator({ from: { ...fixture, version: 1 } })).toThrow(
      /snapshot version 1 is not supported .*version 1 snapshots carried an older trace digest/,
    )
    expect(() => createSimulator({ from: { ...fixture, version: 4 } })).toThrow(/snapshot version 4 is not supported/)
  })
})

describe('serve --state with a version 2 state file (the real bin)', () => {
  it('serves its balance transactions and session, and saves it back as version 3', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'service-sim-upgrade-')), 'state.json')
    writeFileSync(file, FIXTURE)
    const token = 'upgrade-suite-token'
    const served = await startServeCli(['--admin-token', token, '--clock', 'manual', '--state', file])
    try {
      const get = (path: string) =>
        fetch(`http://127.0.0.1:${served.port}${path}`, { headers: { Authorization: `Bearer ${served.key}` } })
      const listed = (await (await get('/v1/balance_transactions?limit=100')).json()) as { data: unknown[] }
      expect(listed.data).toEqual(OLD.answers.balanceTransactions)
      expect(await (await get('/v1/balance')).json()).toEqual(OLD.answers.balance)
      const streamed = await fetch(`http://127.0.0.1:${served.port}/v2/billing/meter_event_stream`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${OLD.answers.session.authentication_token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(oneEvent),
      })
      expect(streamed.status).toBe(200)
      const saved = await fetch(`http://127.0.0.1:${served.port}/__sim/snapshot`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '{}',
      })
      expect(saved.status).toBe(200)
      expect(((await saved.json()) as { version: number }).version).toBe(3)
      expect((JSON.parse(readFileSync(file, 'utf8')) as { version: number }).version).toBe(3)
    } finally {
      await served.stop()
    }
  }, 60_000)
})
