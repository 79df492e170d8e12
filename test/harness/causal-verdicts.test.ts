import { verifySignature } from 'service-sim'
import {
  type FulfilmentClientFactory,
  fulfilmentSubject,
  makeFulfilmentClient,
  referenceFulfilmentClient,
  runFlow,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

// A delayed bank debit: the session completes unpaid and its payment clears at the same instant,
// so `checkout.session.completed` (showing it unpaid) and `async_payment_succeeded` arrive together.
const bankDebit = {
  seed: 4,
  faults: [],
  steps: [
    { kind: 'x:checkout', mode: 'payment', customer: -1, plan: 0 },
    { kind: 'x:pay', session: 0, payment: 4, returns: false },
  ],
} as const

interface Session {
  readonly id: string
  readonly status?: string
  readonly payment_status?: string
}
const paid = (s: Session) => s.status === 'complete' && s.payment_status === 'paid'

/**
 * A correct shop that trusts no event's payload: on every checkout event it reads the session
 * from the API and fulfils (once, by an atomic insert) when the read shows it paid. `inFlight`
 * counts its fulfilments from another event while a stale `completed` delivery is being handled
 * (`slowStale`: that handler looks at the order's line items first, so the others overtake it).
 */
function readingShop(probe: { overlapped: number }, slowStale: boolean): FulfilmentClientFactory {
  return (env) => {
    let staleInFlight = 0
    async function read(id: string): Promise<Session | undefined> {
      const res = await env.fetch(`${env.baseUrl}/v1/checkout/sessions/${id}`, {
        headers: { Authorization: `Bearer ${env.secretKey}` },
      })
      return res.status === 200 ? ((await res.json()) as Session) : undefined
    }
    async function fulfilIfPaid(id: string, source: string) {
      const s = await read(id)
      if (s === undefined || !paid(s)) return
      if ((await env.store.update(`fulfilled:${id}`, (p) => p ?? source)) !== undefined) return
      if (staleInFlight > 0 && source !== 'completed') probe.overlapped += 1
      env.orders.fulfil(id, source)
    }
    return {
      async handler(req) {
        const raw = await req.text()
        try {
          verifySignature(raw, req.headers.get(`${env.prefix}-Signature`), env.secrets(), { now: env.clock.now })
        } catch {
          return new Response('bad signature', { status: 400 })
        }
        const event = JSON.parse(raw) as { type: string; data: { object: Session } }
        const stale = event.type === 'checkout.session.completed' && !paid(event.data.object)
        if (stale) staleInFlight += 1
        try {
          // The stale event's handler looks at the order first: the other events' handlers run meanwhile.
          if (stale && slowStale) for (let i = 0; i < 3; i++) await read(`${event.data.object.id}/line_items`)
          if (event.type.startsWith('checkout.session.'))
            await fulfilIfPaid(event.data.object.id, stale ? 'completed' : event.type)
        } finally {
          if (stale) staleInFlight -= 1
        }
        return new Response('ok')
      },
      successPage: () => new Response('thanks'),
    }
  }
}

describe('causal verdicts', () => {
  it('passes a shop that fulfils on its API read showing the session paid, while handling the stale unpaid event', async () => {
    let orders: { event: { type: string; object: Session }; read: Session | null }[] = []
    const report = await runFlow(bankDebit as never, fulfilmentSubject(readingShop({ overlapped: 0 }, false), 'test'), {
      onTrace: (entries) => {
        orders = entries.filter((e) => e.kind === 'harness.rule.effect').map((e) => e.data as never)
      },
    })
    expect(report.violations).toEqual([])
    // The one fulfilment came from the stale event's own handler, on its read.
    expect(orders).toHaveLength(1)
    expect(orders[0]?.event.type).toBe('checkout.session.completed')
    expect(orders[0]?.event.object.payment_status).toBe('unpaid')
    expect(orders[0]?.read?.payment_status).toBe('paid')
  }, 60_000)

  it('passes a shop that fulfils from another handler while the stale unpaid event is being handled', async () => {
    const probe = { overlapped: 0 }
    const report = await runFlow(bankDebit as never, fulfilmentSubject(readingShop(probe, true), 'test'))
    expect(probe.overlapped).toBe(1)
    expect(report.violations).toEqual([])
  }, 60_000)

  it('names the action, the event handled and the provider state when a shop acts on the stale event itself', async () => {
    const report = await runFlow(
      bankDebit as never,
      fulfilmentSubject(makeFulfilmentClient({ completedRegardless: true }), 'test'),
    )
    const v = report.violations.find((x) => x.checker === 'fulfilment.unpaid')
    expect(v?.message).toMatch(/^cs_test_\w+: order\.fulfil though what it acted on showed it not paid/)
    expect(v?.message).toMatch(
      /while handling evt_\w+ \(checkout\.session\.completed, its cs_test_\w+ showing status complete, payment_status unpaid\)/,
    )
    expect(v?.message).toMatch(/provider then: status complete, payment_status (paid|unpaid)/)
  }, 60_000)

  it('passes the reference shop whichever of its handlers runs while the stale event is handled', async () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const report = await runFlow({ ...bankDebit, seed } as never, fulfilmentSubject(referenceFulfilmentClient, 'test'))
      expect(report.violations).toEqual([])
    }
  }, 60_000)
})
