import { verifySignature } from '#domain/index.js'
import type { FulfilmentClient, FulfilmentClientFactory, FulfilmentEnv } from '../flows/fulfilment-subject.js'

/** Mistakes a fulfilment client can make, each off in the reference. */
export interface FulfilmentFlaws {
  /** Fulfils on `checkout.session.completed` whatever its `payment_status`, and knows no async events. */
  readonly completedRegardless?: boolean
  /** Remembers fulfilled sessions in memory only: after a redeploy a duplicate or a reload fulfils again. */
  readonly memoryDedupe?: boolean
  /** Deduplicates webhook events by event id only: the success page and the webhook both fulfil. */
  readonly eventIdDedupe?: boolean
  /** No deduplication at all: each paid delivery or page visit fulfils. */
  readonly noDedupe?: boolean
  /** Ignores `checkout.session.async_payment_succeeded`: a delayed payment is never fulfilled. */
  readonly ignoresAsyncSucceeded?: boolean
  /** Fulfils a delayed payment on `completed` before it clears, and never reverses on `async_payment_failed`. */
  readonly neverReverses?: boolean
  /** The success page retrieves the session and fulfils when it is `complete`, without checking `payment_status`. */
  readonly pageUnchecked?: boolean
  /** The success page fulfils the session its URL names without retrieving it (reaching the page is taken as paid). */
  readonly trustsRedirect?: boolean
  /** Fulfils `payment`-mode sessions only: a subscription bought through checkout is never provisioned. */
  readonly paymentModeOnly?: boolean
  /** Throws on `checkout.session.expired`, a type it has no code for: answered 500, retried for days. */
  readonly refusesExpired?: boolean
  /** Answers 409 to an event it already processed, instead of a 2xx that stops the retries. */
  readonly conflictOnDuplicate?: boolean
  /** Fulfils only `payment_status: 'paid'`: a session that needs no payment (a trial, a full discount) is never fulfilled. */
  readonly paidOnly?: boolean
  /** On `checkout.session.async_payment_failed`, takes back every order of the session's customer, paid ones too. */
  readonly reversesCustomer?: boolean
}

interface Session {
  readonly id: string
  readonly mode?: string
  readonly status?: string
  readonly payment_status?: string
  readonly customer?: string | null
}

const paidNow = (s: Session) =>
  s.status === 'complete' && (s.payment_status === 'paid' || s.payment_status === 'no_payment_required')

/**
 * A fulfilment client with the given flaws (none: the reference). The reference verifies the
 * signature; fulfils a session when `checkout.session.completed` shows it paid, when
 * `checkout.session.async_payment_succeeded` comes, or when its success page retrieves the session
 * (`GET /v1/checkout/sessions/:id`, answering 503 if the read fails) and finds it paid; and
 * fulfils each session once, by an atomic insert into `env.store`, so duplicates, a redeploy and
 * the page racing the webhook change nothing.
 *
 * @example
 * const memoryOnly = makeFulfilmentClient({ memoryDedupe: true })
 */
export function makeFulfilmentClient(flaws: FulfilmentFlaws = {}): FulfilmentClientFactory {
  return (env: FulfilmentEnv): FulfilmentClient => {
    const inMemory = new Set<string>()
    async function fulfilOnce(session: Session, source: string): Promise<void> {
      if (flaws.paymentModeOnly && session.mode !== 'payment') return
      if (flaws.noDedupe || flaws.eventIdDedupe) {
        env.orders.fulfil(session.id, source)
        return
      }
      if (flaws.memoryDedupe) {
        if (inMemory.has(session.id)) return
        inMemory.add(session.id)
      } else if ((await env.store.update(`fulfilled:${session.id}`, (p) => p ?? source)) !== undefined) return
      env.orders.fulfil(session.id, source)
      if (flaws.reversesCustomer && typeof session.customer === 'string')
        await env.store.update(`orders:${session.customer}`, (p) => [...((p as string[] | undefined) ?? []), session.id])
    }
    async function reverseCustomer(session: Session, source: string): Promise<void> {
      if (typeof session.customer !== 'string') return
      for (const id of ((await env.store.get(`orders:${session.customer}`)) as string[] | undefined) ?? [])
        if ((await env.store.update(`reversed:${id}`, (p) => p ?? source)) === undefined) env.orders.reverse(id, source)
    }
    const ready = (s: Session) => (flaws.paidOnly ? s.status === 'complete' && s.payment_status === 'paid' : paidNow(s))
    async function retrieve(id: string): Promise<Session | undefined> {
      try {
        const res = await env.fetch(`${env.baseUrl}/v1/checkout/sessions/${encodeURIComponent(id)}`, {
          headers: { Authorization: `Bearer ${env.secretKey}` },
        })
        return res.status === 200 ? ((await res.json()) as Session) : undefined
      } catch {
        return undefined
      }
    }
    return {
      async handler(req) {
        const raw = await req.text()
        try {
          verifySignature(raw, req.headers.get(`${env.prefix}-Signature`), env.secrets(), { now: env.clock.now })
        } catch {
          return new Response('bad signature', { status: 400 })
        }
        const event = JSON.parse(raw) as { id: string; type: string; data: { object: Session } }
        if (flaws.eventIdDedupe && (await env.store.update(`event:${event.id}`, (p) => p ?? true)) !== undefined)
          return new Response('duplicate')
        if (flaws.conflictOnDuplicate && (await env.store.update(`event:${event.id}`, (p) => p ?? true)) !== undefined)
          return new Response('already processed', { status: 409 })
        if (flaws.refusesExpired && event.type === 'checkout.session.expired') throw new TypeError(`no handler for ${event.type}`)
        const session = event.data.object
        if (event.type === 'checkout.session.completed') {
          if (ready(session) || flaws.completedRegardless || flaws.neverReverses) await fulfilOnce(session, event.id)
        } else if (event.type === 'checkout.session.async_payment_succeeded') {
          if (!flaws.ignoresAsyncSucceeded && !flaws.completedRegardless) await fulfilOnce(session, event.id)
        } else if (event.type === 'checkout.session.async_payment_failed' && flaws.reversesCustomer)
          await reverseCustomer(session, event.id)
        return new Response('ok')
      },
      async successPage(url) {
        const id = new URL(url).searchParams.get('session_id')
        if (id === null) return new Response('no session', { status: 400 })
        if (flaws.trustsRedirect) {
          await fulfilOnce({ id, mode: 'payment' }, 'success_page')
          return new Response('thanks')
        }
        const session = await retrieve(id)
        if (session === undefined) return new Response('try again', { status: 503 })
        if (!(flaws.pageUnchecked ? session.status === 'complete' : ready(session))) return new Response('payment processing')
        await fulfilOnce(session, 'success_page')
        return new Response('thanks')
      },
    }
  }
}

/**
 * The correct fulfilment client: each paid session fulfilled once, by webhook or success page,
 * whichever comes first; nothing fulfilled before its payment clears.
 *
 * @example
 * const result = await checkFulfilment(referenceFulfilmentClient, { numRuns: 100 })
 */
export const referenceFulfilmentClient: FulfilmentClientFactory = makeFulfilmentClient()
