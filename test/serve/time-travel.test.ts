import Stripe from 'stripe'
import { afterAll, describe, expect, it } from 'vitest'
import { startServeCli } from '../cli/serve-cli.js'
import { startOneSecretApp } from './one-secret-app.js'

const running: { stop: () => Promise<unknown> }[] = []
afterAll(async () => {
  for (const r of running.reverse()) await r.stop()
})

async function within(ms: number, check: () => Promise<boolean> | boolean): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 25))
  }
  return check()
}

interface Delivery {
  event: string
  status: string
  attempts: { outcome: string; at: string }[]
}

describe('time travel with an app outside the process', () => {
  it('a 31-day jump: every renewal event reaches a slow app that calls back into the API, once, none recorded as a time-out', async () => {
    let port = 0
    let key = ''
    const fetched: string[] = []
    const app = await startOneSecretApp({
      answerDelayMs: 40,
      // As a real app does: it fetches the object the event names before it answers.
      beforeAnswer: async (event) => {
        const object = event.object as { id?: string; object?: string } | undefined
        if (object?.object !== 'invoice' || object.id === undefined) return
        const r = await fetch(`http://127.0.0.1:${port}/v1/invoices/${object.id}`, {
          headers: { Authorization: `Bearer ${key}` },
        })
        if (r.status !== 200) throw new Error(`invoice ${object.id}: ${r.status}`)
        fetched.push(object.id)
      },
    })
    running.push({ stop: () => app.close() })
    const served = await startServeCli(['--header-prefix', 'Stripe', '--admin-token', 'none', '--forward-to', app.url])
    running.push(served)
    port = served.port
    key = served.key
    app.useSecret(/webhook signing secret (whsec_\S+)/.exec(served.out())?.[1] as string)
    const stripe = new Stripe(key, { host: '127.0.0.1', port, protocol: 'http' })
    const product = await stripe.products.create({ name: 'Seat' })
    const customers = await Promise.all(
      [1, 2, 3].map(() =>
        stripe.customers.create({ payment_method: 'pm_card_visa', invoice_settings: { default_payment_method: 'pm_card_visa' } }),
      ),
    )
    for (const [i, customer] of customers.entries()) {
      const price = await stripe.prices.create({
        product: product.id,
        currency: 'usd',
        unit_amount: 1000 + i,
        recurring: { interval: 'week' },
      })
      await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
    }
    const base = `http://127.0.0.1:${port}/__sim`
    const events = async () => ((await (await fetch(`${base}/events`)).json()) as { data: { id: string }[] }).data
    const before = (await events()).length
    expect(await within(10_000, () => app.verified.length >= before)).toBe(true)

    const jump = await fetch(`${base}/clock/advance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ duration: '31d' }),
    })
    expect(jump.status).toBe(200)
    const all = await events()
    // Weekly renewals of three subscriptions: invoices made, finalized, paid, on the way.
    expect(all.length).toBeGreaterThan(before + 20)
    expect(await within(10_000, () => app.verified.length >= all.length)).toBe(true)
    const deliveries = ((await (await fetch(`${base}/deliveries`)).json()) as { data: Delivery[] }).data
    const attempts = deliveries.flatMap((d) => d.attempts)
    expect(attempts.filter((a) => a.outcome === 'timeout')).toEqual([])
    expect(deliveries.filter((d) => d.status !== 'Delivered')).toEqual([])
    expect(deliveries.every((d) => d.attempts.length === 1)).toBe(true)
    const received = app.verified.map((e) => e.id)
    expect(new Set(received).size).toBe(received.length)
    expect([...received].sort()).toEqual(all.map((e) => e.id).sort())
    expect(app.refused).toEqual([])
    expect(fetched.length).toBeGreaterThan(10)
    // Paced: a small app is never flooded.
    expect(app.mostAtOnce).toBeLessThanOrEqual(4)
    // The jump's attempts went out in order of their virtual time.
    const order = deliveries.map((d) => Date.parse(d.attempts[0]?.at ?? ''))
    const sentOrder = received.map((id) => order[deliveries.findIndex((d) => d.event === id)] ?? 0)
    expect(sentOrder).toEqual([...sentOrder].sort((a, b) => a - b))
  }, 60_000)
})
