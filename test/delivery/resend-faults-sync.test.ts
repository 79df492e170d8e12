import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { collect, destination, ENDPOINT_KINDS, setup } from './helpers.js'

const URL_A = 'https://hooks.example.test/a'
const DAY = 86_400_000

describe.each(ENDPOINT_KINDS)('manual resend to a $name', (kind) => {
  it('resends within 15 days from the dashboard and 30 days from the command line', async () => {
    const { sim, stripe } = setup()
    const { id } = await kind.make(stripe, { url: URL_A })
    const got = collect(sim, URL_A)
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    await sim.clock.tickAsync(15 * DAY)
    await expect(sim.admin.resend(evt.id, id)).resolves.toMatchObject({ trigger: 'dashboard', outcome: 'delivered' })
    await sim.clock.tickAsync(1)
    expect(() => sim.admin.resend(evt.id, id)).toThrow(/15 days/)
    await expect(sim.admin.resend(evt.id, id, { via: 'cli' })).resolves.toMatchObject({ trigger: 'cli' })
    await sim.clock.tickAsync(15 * DAY)
    expect(() => sim.admin.resend(evt.id, id, { via: 'cli' })).toThrow(/30 days/)
    expect(got).toHaveLength(3)
    expect(new Set(got.map((g) => JSON.parse(g.raw).id))).toEqual(new Set([evt.id]))
  })

  it('resends through POST /v1/events/:id/retry and refuses unknown ids with 404', async () => {
    const { sim, stripe } = setup()
    const { id } = await kind.make(stripe, { url: URL_A })
    const got = collect(sim, URL_A)
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    const post = (path: string, body: string) =>
      sim.fetch(`https://api.stripe.test${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${sim.platform.secretKey.test}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      })
    expect((await post(`/v1/events/${evt.id}/retry`, `webhook_endpoint=${id}`)).status).toBe(200)
    await sim.settle()
    expect(got).toHaveLength(2)
    expect((await post('/v1/events/evt_nope/retry', `webhook_endpoint=${id}`)).status).toBe(404)
    expect((await post(`/v1/events/${evt.id}/retry`, 'webhook_endpoint=ed_nope')).status).toBe(404)
    const missing = await post(`/v1/events/${evt.id}/retry`, '')
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as any).error.param).toBe('webhook_endpoint')
    expect(got).toHaveLength(2)
  })

  it('does not cancel automatic retries, even when the resend succeeds', async () => {
    const { sim, stripe } = setup()
    const { id } = await kind.make(stripe, { url: URL_A })
    let answer = 500
    const got = collect(sim, URL_A, () => answer)
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    answer = 200
    await sim.admin.resend(evt.id, id)
    const r = sim.admin.deliveries({ event: evt.id })[0]
    expect(r?.status).toBe('Delivered')
    expect(r?.nextAttemptAt).not.toBeNull()
    await sim.clock.runToLastAsync()
    expect(r?.attempts.map((a) => a.trigger)).toEqual(['automatic', 'dashboard', 'retry'])
    expect(got).toHaveLength(3)
  })
})

describe.each(ENDPOINT_KINDS)('fault knobs on a $name', (kind) => {
  it('are off by default: one delivery per event, in emission order', async () => {
    const { sim, stripe } = setup()
    await kind.make(stripe, { url: URL_A })
    const got = collect(sim, URL_A)
    const ids = Array.from({ length: 20 }, () => sim.admin.trigger('customer.created', { synthetic: true }).id)
    await sim.settle()
    expect(got.map((g) => JSON.parse(g.raw).id)).toEqual(ids)
  })

  it('duplicate deliveries, reordering and redundant events follow the seed', async () => {
    const run = async () => {
      const { sim, stripe } = setup(3)
      await kind.make(stripe, { url: URL_A })
      const got = collect(sim, URL_A)
      Object.assign(sim.admin.deliveryFaults, { duplicateRate: 0.5, reorderWindowMs: 5_000, redundantEventRate: 0.5 })
      const emitted = Array.from({ length: 20 }, () => sim.admin.trigger('customer.created', { synthetic: true }))
      await sim.clock.tickAsync(10_000)
      return { sim, got: got.map((g) => JSON.parse(g.raw)), emitted }
    }
    const a = await run()
    const b = await run()
    expect(a.got.map((e) => e.id)).toEqual(b.got.map((e) => e.id))
    expect(a.sim.trace.hash()).toBe(b.sim.trace.hash())
    const ids = a.got.map((e) => e.id)
    expect(new Set(ids).size).toBeLessThan(ids.length) // duplicates of one event id
    const inOrder = [...ids].sort((x, y) => ids.indexOf(x) - ids.indexOf(y))
    const emittedOrder = a.sim.admin.events({ type: 'customer.created' }).map((e) => e.id)
    expect(ids.filter((x, i) => inOrder.indexOf(x) === i)).not.toEqual(emittedOrder.filter((x) => ids.includes(x)))
    // Redundant events: distinct ids, same data.object id and type.
    const byObject = new Map<string, Set<string>>()
    for (const e of a.got) byObject.set(e.data.object.id, (byObject.get(e.data.object.id) ?? new Set()).add(e.id))
    expect([...byObject.values()].some((s) => s.size === 2)).toBe(true)
    expect(a.sim.trace.filter('delivery.fault').length).toBeGreaterThan(0)
  })
})

describe('synchronous events', () => {
  it('delivers issuing_authorization.request while the trigger waits; the answer decides', async () => {
    const { sim, stripe } = setup()
    const { secret } = await destination(stripe, { url: URL_A, enabled_events: ['issuing_authorization.request'] })
    let approve = true
    sim.receivers.mount(URL_A, async (req) => {
      const raw = await req.text()
      stripe.webhooks.constructEvent(raw, req.headers.get('Stripe-Signature') ?? '', secret, 300, undefined, sim.clock.now)
      return Response.json({ approved: approve })
    })
    const yes = await sim.admin.triggerSync('issuing_authorization.request')
    expect(yes.approved).toBe(true)
    expect(yes.records[0]?.attempts[0]).toMatchObject({ trigger: 'synchronous', outcome: 'delivered' })
    approve = false
    expect((await sim.admin.triggerSync('issuing_authorization.request')).approved).toBe(false)
    sim.receivers.mount(URL_A, () => new Response('nope', { status: 500 }))
    expect((await sim.admin.triggerSync('issuing_authorization.request')).approved).toBe(false)
    await sim.clock.runToLastAsync()
    expect(sim.admin.deliveries().every((r) => r.attempts.length === 1)).toBe(true)
  })

  it('reads the answer as fetch would, whatever it is made of', async () => {
    const { sim, stripe } = setup()
    await destination(stripe, { url: URL_A, enabled_events: ['issuing_authorization.request'] })
    const approvedBy = async (answer: () => Response | Promise<Response>) => {
      sim.receivers.mount(URL_A, async () => answer())
      return (await sim.admin.triggerSync('issuing_authorization.request')).approved
    }
    expect(await approvedBy(() => new Response('{"approved":true,"note":"déjà vu 😀"}'))).toBe(true)
    const bytes = new TextEncoder().encode('{"approved":true}')
    expect(await approvedBy(() => new Response(new Blob([bytes])))).toBe(true)
    const stream = () =>
      new ReadableStream({
        start(c) {
          c.enqueue(bytes)
          c.close()
        },
      })
    expect(await approvedBy(() => new Response(stream()))).toBe(true)
    // A Response subclass is read through its own text().
    class Decided extends Response {
      override text(): Promise<string> {
        return Promise.resolve('{"approved":true}')
      }
    }
    expect(await approvedBy(() => new Decided('{"approved":false}'))).toBe(true)
    // A body the receiver read itself reaches the service empty; a lone surrogate is sent as U+FFFD.
    expect(
      await approvedBy(async () => {
        const res = Response.json({ approved: true })
        await res.text()
        return res
      }),
    ).toBe(false)
    expect(await approvedBy(() => new Response('{"approved\ud800":true}'))).toBe(false)
  })

  it('declines when no receiver answers in time', async () => {
    const { sim, stripe } = setup()
    await destination(stripe, { url: URL_A, enabled_events: ['*'] })
    sim.receivers.mount(URL_A, async () => {
      await new Promise((r) => sim.clock.setTimeout(r, 5_000))
      return Response.json({ approved: true })
    })
    const pending = sim.admin.triggerSync('issuing_authorization.request')
    await sim.clock.tickAsync(2_000)
    const outcome = await pending
    expect(outcome.approved).toBe(false)
    expect(outcome.records[0]?.attempts[0]?.outcome).toBe('timeout')
  })
})

describe('loopback HTTP receivers', () => {
  it('POSTs over the network to a real http://127.0.0.1 server, and counts a closed port as a connection failure', async () => {
    const bodies: string[] = []
    const server = createServer((req, res) => {
      let raw = ''
      req.on('data', (c) => {
        raw += c
      })
      req.on('end', () => {
        bodies.push(raw)
        res.writeHead(204).end()
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as AddressInfo).port
    try {
      const { sim, stripe } = setup()
      await destination(stripe, { url: `http://127.0.0.1:${port}/hooks` })
      const evt = sim.admin.trigger('customer.created', { synthetic: true })
      await sim.settle()
      expect(bodies.map((b) => JSON.parse(b).id)).toEqual([evt.id])
      expect(sim.admin.deliveries({ event: evt.id })[0]?.attempts[0]).toMatchObject({ outcome: 'delivered', status: 204 })
    } finally {
      await new Promise((r) => server.close(r))
    }
    const { sim, stripe } = setup()
    await destination(stripe, { url: `http://127.0.0.1:${port}/hooks` })
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    expect(sim.admin.deliveries({ event: evt.id })[0]?.attempts[0]?.outcome).toBe('connect_error')
  })
})
