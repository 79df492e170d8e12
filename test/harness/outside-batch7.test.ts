import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { verifySignature } from 'service-sim'
import {
  checkFulfilment,
  checkSubscriptionMirror,
  type DunningClientFactory,
  dunningSubject,
  type FlowProgram,
  type MirroredSubscription,
  mirroredFields,
  mirrorSubject,
  runFlow,
  type SubscriptionMirrorFactory,
  serveRuns,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

const DAY = 86_400_000
const subscribe = (customer: number, trialDays = 0) => ({ kind: 'subscribe', customer, plan: 0, quantity: 1, trialDays }) as const
const program = (steps: readonly unknown[], faults: readonly unknown[] = []) =>
  ({ seed: 1, steps, faults }) as unknown as FlowProgram

type Json = Record<string, unknown>

/**
 * A mirror that reads the subscription on the events that change it (created, updated, deleted)
 * and acknowledges the rest; `keep` says which of the read's fields an update copies, `grants`
 * which statuses grant access.
 */
function mirror(options: { keep?: 'all' | 'status-only'; grants?: readonly string[] } = {}): SubscriptionMirrorFactory {
  const grants = options.grants ?? ['active', 'trialing']
  return (env) => {
    const rows = new Map<string, MirroredSubscription>()
    const ready = env.store.keys('sub:').then(async (keys) => {
      for (const k of keys) rows.set(k.slice(4), (await env.store.get(k)) as unknown as MirroredSubscription)
    })
    const auth = { Authorization: `Bearer ${env.secretKey}` }
    return {
      subscriptions: () => Object.fromEntries(rows),
      hasAccess: (customer) => [...rows.values()].some((r) => r.customer === customer && grants.includes(r.status)),
      async handler(req) {
        await ready
        const raw = await req.text()
        try {
          verifySignature(raw, req.headers.get(`${env.prefix}-Signature`), env.secrets(), { now: env.clock.now })
        } catch {
          return new Response('bad signature', { status: 400 })
        }
        const event = JSON.parse(raw) as { type: string; data: { object: Json } }
        const changes = ['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted']
        if (!changes.includes(event.type)) return new Response('ok')
        const id = String(event.data.object.id)
        const res = await env.fetch(`${env.baseUrl}/v1/subscriptions/${id}`, { headers: auth })
        if (res.status !== 200) return new Response('retry', { status: 503 })
        const read = mirroredFields((await res.json()) as Json)
        const old = rows.get(id)
        const row =
          options.keep === 'status-only' && old !== undefined && event.type === 'customer.subscription.updated'
            ? { ...old, status: read.status, currentPeriodEnd: read.currentPeriodEnd, cancelAtPeriodEnd: read.cancelAtPeriodEnd }
            : read
        rows.set(id, row)
        await env.store.set(`sub:${id}`, row as never)
        return new Response('ok')
      },
    }
  }
}

describe('outside apps, batch 7', () => {
  it('does not hold a reminder (trial_will_end) against a mirror whose creation event is still on its way', async () => {
    // The subscription's creation delivered two hours late; its trial_will_end arrives first and is
    // acknowledged without a change: the mirror owes nothing until the creation arrives.
    const late = program([subscribe(0, 3)], [{ step: 1, fault: 'delay_delivery', count: 1, delay: 7_200_000 }])
    const report = await runFlow(late, mirrorSubject(mirror(), {}, 'test'))
    expect(report.violations).toEqual([])
  }, 60_000)

  it('pauses subscriptions in the mirror flows, so an app granting access to a paused one is caught', async () => {
    const paused = program([subscribe(0), { kind: 'x:pause', sub: -1 }])
    const grantsPaused = await runFlow(paused, mirrorSubject(mirror({ grants: ['active', 'trialing', 'paused'] }), {}, 'test'))
    expect(grantsPaused.violations.map((v) => v.checker)).toEqual(['mirror.access_granted'])
    expect(grantsPaused.violations[0]?.message).toMatch(/sub_\w+ paused/)
    const resumed = program([
      subscribe(0),
      { kind: 'x:pause', sub: -1 },
      { kind: 'advance', ms: 3 * DAY },
      { kind: 'x:unpause', sub: -1 },
    ])
    expect((await runFlow(resumed, mirrorSubject(mirror(), {}, 'test'))).violations).toEqual([])
  }, 60_000)

  it('finds the paused subscription granted access at the default runs', async () => {
    const result = await checkSubscriptionMirror(mirror({ grants: ['active', 'trialing', 'paused'] }), { seed: 2 })
    expect(result.violations?.[0]?.checker).toBe('mirror.access_granted')
  }, 300_000)

  it('names an update applied without its items when only the plan or the seats are wrong', async () => {
    const report = await runFlow(
      program([subscribe(0), { kind: 'change_plan', sub: -1, plan: 2 }]),
      mirrorSubject(mirror({ keep: 'status-only' }), {}, 'test'),
    )
    expect(report.violations[0]?.checker).toBe('mirror.converged')
    expect(report.violations[0]?.message).toMatch(
      /mirrored with price .*though the app acknowledged evt_\w+ \(customer\.subscription\.updated\) and its status and period follow the provider: a plan or seat change is an update of the subscription's items/,
    )
  }, 60_000)

  it('blames an app on a port for shipping after it answered, not for an order never shipped', async () => {
    const server = await serveRuns()
    const shipped = new Set<string>()
    // Answers every delivery at once and ships in the background ("the provider times out at 10 s").
    const app = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        if (req.url === '/reset') {
          shipped.clear()
          return void res.writeHead(204).end()
        }
        if (req.method !== 'POST') return void res.writeHead(200).end('thanks')
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string; data: { object: Json } }
        res.writeHead(200).end('ok')
        const session = event.data.object
        if (event.type !== 'checkout.session.completed' || session.payment_status !== 'paid') return
        if (shipped.has(String(session.id))) return
        shipped.add(String(session.id))
        setImmediate(() => {
          const body = JSON.stringify({ call: 'orders.fulfil', args: [session.id, event.id] })
          void fetch(server.recordUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        })
      })
    }).listen(0, '127.0.0.1')
    await new Promise((resolve) => app.once('listening', resolve))
    const url = `http://127.0.0.1:${(app.address() as AddressInfo).port}`
    try {
      const shop = server.app({ url, reset: async () => void (await fetch(`${url}/reset`, { method: 'POST' })) })
      const result = await checkFulfilment(shop, { numRuns: 5, workload: { faultKinds: [] } })
      expect(result.violations?.[0]?.checker).toBe('ack.before_durable')
      expect(result.violations?.[0]?.message).toMatch(
        /order\.fulfil recorded after the app had answered 200 to the delivery that caused it/,
      )
    } finally {
      app.close()
      await server.close()
    }
  }, 300_000)

  it('names a failure notice sent again because its claim was undone when a later call failed', async () => {
    // Claims the notice, sends it, then tags the customer through the API; a failed tag undoes the
    // claim and answers 500, so the provider's retry notices again.
    const undoes: DunningClientFactory = (env) => ({
      async handler(req) {
        const raw = await req.text()
        try {
          verifySignature(raw, req.headers.get(`${env.prefix}-Signature`), env.secrets(), { now: env.clock.now })
        } catch {
          return new Response('bad signature', { status: 400 })
        }
        const event = JSON.parse(raw) as { type: string; id: string; data: { object: Json } }
        if (event.type !== 'invoice.payment_failed') return new Response('ok')
        const invoice = event.data.object
        if ((await env.store.update(`noticed:${invoice.id}`, (p) => p ?? true)) !== undefined) return new Response('ok')
        env.notices.paymentFailed(String(invoice.id), String(invoice.customer), event.id)
        const tag = await env.fetch(`${env.baseUrl}/v1/customers/${String(invoice.customer)}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'metadata[dunning]=yes',
        })
        if (tag.status === 200) return new Response('ok')
        await env.store.delete(`noticed:${invoice.id}`)
        return new Response('retry', { status: 500 })
      },
    })
    const failing = program(
      [subscribe(0), { kind: 'fail_card', customer: 0 }, { kind: 'advance', ms: 32 * DAY }],
      [{ step: 3, fault: 'server_error', count: 1 }],
    )
    const report = await runFlow(failing, dunningSubject(undoes, 'test'))
    expect(report.violations[0]?.checker).toBe('dunning.notice_once')
    expect(report.violations[0]?.message).toMatch(
      /2 notice\(s\) for one failed attempt cycle \(expected 1\): both while handling evt_\w+, which the provider sent again after the app refused it/,
    )
  }, 60_000)
})
