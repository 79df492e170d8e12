import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { triggerTypes } from '../../src/simulator/trigger-recipes.js'
import { run } from '../cli/in-process.js'
import { type ServedCli, startServeCli } from '../cli/serve-cli.js'
import { COLLECTIONS, EXPECTED } from '../delivery/trigger-expectations.js'
import { type OneSecretApp, startOneSecretApp } from './one-secret-app.js'

let served: ServedCli
let app: OneSecretApp
beforeAll(async () => {
  app = await startOneSecretApp()
  served = await startServeCli(['--header-prefix', 'Stripe', '--admin-token', 'none', '--no-limits', '--forward-to', app.url])
  app.useSecret(/webhook signing secret (whsec_\S+)/.exec(served.out())?.[1] as string)
})
afterAll(async () => {
  await served.stop()
  await app.close()
})

interface Triggered {
  id: string
  type: string
  synthetic: boolean
  body: { data: { object: { id: string; object: string; status?: string } } }
  requests: { method: string; path: string; status: number }[]
}

const trigger = async (body: unknown) => {
  const r = await fetch(`http://127.0.0.1:${served.port}/__sim/events/trigger`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: r.status, body: (await r.json()) as Triggered & { error?: { message: string } } }
}

describe('triggers that make real objects (serve over HTTP)', () => {
  it.each(triggerTypes())('%s: the API calls run and the event names a stored object in the state it says', async (type) => {
    const t = await trigger({ type })
    expect(t.status, JSON.stringify(t.body)).toBe(200)
    expect(t.body).toMatchObject({ type, synthetic: false })
    expect(t.body.requests.length).toBeGreaterThan(0)
    const object = t.body.body.data.object
    const collection = COLLECTIONS[object.object]
    expect(collection, object.object).toBeDefined()
    const stored = await fetch(`http://127.0.0.1:${served.port}/v1/${collection}/${object.id}`, {
      headers: { Authorization: `Bearer ${served.key}` },
    })
    expect(stored.status).toBe(200)
    const json = (await stored.json()) as Record<string, unknown>
    expect(json.id).toBe(object.id)
    // A subscription created with a card that pays moves on to active within the same call.
    if (object.status !== undefined && type !== 'customer.subscription.created') expect(json.status).toBe(object.status)
    expect(json).toMatchObject(EXPECTED[type] ?? {})
  })

  it('payment_intent.payment_failed carries the decline', async () => {
    const t = await trigger({ type: 'payment_intent.payment_failed' })
    expect(t.body.body.data.object).toMatchObject({ last_payment_error: { code: 'card_declined' } })
  })

  it('checkout.session.completed completes a stored session through the customer side, its payment first', async () => {
    const t = await trigger({ type: 'checkout.session.completed' })
    expect(t.status, JSON.stringify(t.body)).toBe(200)
    const session = t.body.body.data.object as unknown as { id: string; payment_intent: string; amount_total: number }
    expect(session.amount_total).toBe(3000)
    const events = (await (await fetch(`http://127.0.0.1:${served.port}/__sim/events`)).json()) as {
      data: { id: string; type: string }[]
    }
    const types = events.data.map((e) => e.type)
    expect(types.lastIndexOf('payment_intent.succeeded')).toBeLessThan(types.lastIndexOf('checkout.session.completed'))
  })

  it('checkout.session.async_payment_failed debits the failing test bank account: the intent needs a new method', async () => {
    const t = await trigger({ type: 'checkout.session.async_payment_failed' })
    expect(t.status, JSON.stringify(t.body)).toBe(200)
    const session = t.body.body.data.object as unknown as { payment_intent: string }
    const pi = await fetch(`http://127.0.0.1:${served.port}/v1/payment_intents/${session.payment_intent}`, {
      headers: { Authorization: `Bearer ${served.key}` },
    })
    expect(await pi.json()).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'account_closed' },
    })
  })

  it('the forwarded app receives the triggered events, verified', async () => {
    const t = await trigger({ type: 'customer.created' })
    const end = Date.now() + 10_000
    while (Date.now() < end && !app.verified.some((e) => e.id === t.body.id)) await new Promise((r) => setTimeout(r, 25))
    expect(app.verified.map((e) => e.id)).toContain(t.body.id)
    expect(app.refused).toEqual([])
  })

  it('service-sim trigger <type> against the running serve prints the requests and the event; a refusal exits 1', async () => {
    const url = `http://127.0.0.1:${served.port}`
    const ok = await run(['trigger', 'payment_intent.succeeded', '--url', url])
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).toMatch(/POST \/v1\/payment_intents -> 200 \(pi_/)
    expect(ok.stdout).toMatch(/Trigger succeeded: payment_intent\.succeeded event evt_\S+ for payment_intent pi_/)
    const refused = await run(['trigger', 'customer.created', '--account', 'acct_missing', '--url', url])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/no such account/)
    expect((await run(['trigger', '--list'])).stdout).toContain('invoice.paid')
    expect((await run(['trigger'])).code).toBe(2)
  })
})
