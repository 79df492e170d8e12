import { verifySignature } from '#domain/index.js'
import type { DunningClient, DunningClientFactory, DunningEnv } from '../flows/dunning-subject.js'

/** Mistakes a dunning client can make, each off in the reference. */
export interface DunningFlaws {
  /** A notice for every failed attempt (each retry), not one per invoice. */
  readonly noticeEveryAttempt?: boolean
  /** Notifies on each delivery of a first attempt's failure (`attempt_count` 1), without deduplicating events. */
  readonly noDedup?: boolean
  /** Notifies when a subscription turns `past_due` (not on the invoice's failure): a first invoice that fails, or a second while past due, gets none. */
  readonly noticeOnPastDue?: boolean
  /** Restores on every `invoice.paid`, failed before or not. */
  readonly restoreEveryPaid?: boolean
  /** Restores on `invoice.payment_succeeded` too (the provider sends both). */
  readonly restoreOnSucceededToo?: boolean
  /** Never restores. */
  readonly neverRestores?: boolean
  /** Keeps one dunning flag per customer: a second failing invoice while the first is open gets no notice. */
  readonly perCustomer?: boolean
  /** Tells the customer only once retries are exhausted (`next_payment_attempt` null). */
  readonly onlyFinalAttempt?: boolean
  /** Keeps what it knows in memory only: a redeploy forgets the events it processed and the notices it sent. */
  readonly memoryOnly?: boolean
  /** Never checks whether the invoice is paid before noticing: a failure delivered late notifies a paid invoice. */
  readonly forgetsPaid?: boolean
  /** Throws on event types it has no handler for: answered 500, the provider retries them for days. */
  readonly refusesUnhandled?: boolean
  /** Answers 2xx at once and does the work afterwards: what a crash in between loses is never resent. */
  readonly answersFirst?: boolean
  /** Never restricts an account whose invoice collection gave up on. */
  readonly neverRestricts?: boolean
  /** Reinstates on any paid invoice of the customer, though another is still written off. */
  readonly reinstatesOnAnyPaid?: boolean
  /** Lifts a restriction only when the written-off invoice is paid, never when it is voided. */
  readonly ignoresVoid?: boolean
  /** Restricts on every `invoice.marked_uncollectible`, one delivered after the invoice was paid too. */
  readonly restrictsLateWriteOff?: boolean
}

type Json = Record<string, unknown>
type Row = { seen?: boolean; paid?: boolean; noticed?: boolean; restored?: boolean }
interface SubscriptionEvent {
  readonly id: string
  readonly data: { readonly object: Json; readonly previous_attributes?: Json }
}

/**
 * The app's table of invoices (and of customers, events): each change one atomic read-modify-write,
 * in `env.store` or, for the memory-only flaw, in the instance's memory.
 */
function table(env: DunningEnv, memoryOnly: boolean) {
  const memory = new Map<string, Row>()
  return async (key: string, change: (row: Row) => Row): Promise<Row> => {
    if (memoryOnly) {
      const before = memory.get(key) ?? {}
      memory.set(key, change(before))
      return before
    }
    const before = await env.store.update(key, (p) => change((p ?? {}) as Row) as Record<string, boolean>)
    return (before ?? {}) as Row
  }
}

/**
 * The account standing part of a dunning client: the customer's invoices written off and not yet
 * paid, as one row in `env.store`; restricted while it is not empty.
 */
function accountStanding(env: DunningEnv, flaws: DunningFlaws, row: ReturnType<typeof table>) {
  // The customer's invoices written off and not yet paid, as one row: restricted while it is not empty.
  async function writtenOff(customer: string, change: (off: Record<string, boolean>) => Record<string, boolean>) {
    const before = await env.store.update(`standing:${customer}`, (p) => change({ ...((p ?? {}) as Record<string, boolean>) }))
    return Object.keys((before ?? {}) as Record<string, boolean>)
  }
  async function onUncollectible(event: string, invoice: Json): Promise<void> {
    if (flaws.neverRestricts) return
    // Delivered late, after the invoice was paid: the write-off is over already.
    if (!flaws.restrictsLateWriteOff && (await row(`invoice:${String(invoice.id)}`, (r) => r)).paid) return
    const customer = String(invoice.customer)
    const before = await writtenOff(customer, (off) => ({ ...off, [String(invoice.id)]: true }))
    if (before.length === 0) env.notices.restricted(customer, event)
  }
  async function liftOnPaid(event: string, invoice: Json): Promise<void> {
    const customer = String(invoice.customer)
    const id = String(invoice.id)
    const any = flaws.reinstatesOnAnyPaid === true
    const before = await writtenOff(customer, ({ [id]: _paid, ...rest }) => (any ? {} : rest))
    const left = any ? [] : before.filter((k) => k !== id)
    if ((before.includes(id) || (any && before.length > 0)) && left.length === 0) env.notices.reinstated(customer, event)
  }
  // A voided invoice is owed no more: settled as a payment is (a write-off delivered late must not
  // restrict again), with nothing to restore.
  async function onVoided(event: string, invoice: Json): Promise<void> {
    if (flaws.ignoresVoid) return
    await row(`invoice:${String(invoice.id)}`, (r) => ({ ...r, paid: true }))
    await liftOnPaid(event, invoice)
  }
  return { onUncollectible, liftOnPaid, onVoided }
}

/**
 * A dunning client with the given flaws (none: the reference). The reference verifies the
 * signature, ignores events it already processed, remembers per invoice whether it is paid, was
 * noticed and was restored: a failure of an unpaid, not yet noticed invoice sends one notice;
 * `invoice.paid` marks it paid and restores a noticed invoice once. What it remembers lives in
 * `env.store` (its database), each decision one atomic update, so a redeploy and concurrent
 * deliveries change nothing.
 *
 * @example
 * const everyRetry = makeDunningClient({ noticeEveryAttempt: true })
 */
export function makeDunningClient(flaws: DunningFlaws = {}): DunningClientFactory {
  return (env: DunningEnv): DunningClient => {
    const row = table(env, flaws.memoryOnly === true)
    async function onFailed(event: string, invoice: Json): Promise<void> {
      const id = String(invoice.id)
      const customer = String(invoice.customer)
      if (flaws.onlyFinalAttempt && invoice.next_payment_attempt !== null) return
      if (flaws.perCustomer) {
        if ((await row(`invoice:${id}`, (r) => r)).paid) return
        const c = await row(`customer:${customer}`, (r) => ({ ...r, noticed: true }))
        if (!c.noticed) env.notices.paymentFailed(id, customer, event)
        return
      }
      const every = flaws.noticeEveryAttempt === true || flaws.noDedup === true
      const paid = (r: { paid?: boolean }) => r.paid === true && !flaws.forgetsPaid
      const before = await row(`invoice:${id}`, (r) => (paid(r) ? r : { ...r, noticed: true }))
      if (paid(before) || (before.noticed && !every)) return
      if (flaws.noDedup && invoice.attempt_count !== 1) return
      env.notices.paymentFailed(id, customer, event)
    }
    async function pastDue(event: SubscriptionEvent): Promise<void> {
      const sub = event.data.object
      if (sub.status !== 'past_due' || event.data.previous_attributes?.status === undefined) return
      const invoice = String(sub.latest_invoice)
      const before = await row(`invoice:${invoice}`, (r) => (r.paid ? r : { ...r, noticed: true }))
      if (before.paid || before.noticed) return
      env.notices.paymentFailed(invoice, String(sub.customer), event.id)
    }
    async function onPaid(event: string, invoice: Json): Promise<void> {
      const [id, customer] = [String(invoice.id), String(invoice.customer)]
      const every = flaws.restoreEveryPaid === true
      const before = await row(`invoice:${id}`, (r) => ({ ...r, paid: true, restored: r.restored || r.noticed || every }))
      if (flaws.perCustomer) await row(`customer:${customer}`, () => ({}))
      if (flaws.neverRestores) return
      const restore = every || (before.noticed === true && (!before.restored || flaws.noDedup === true))
      if (restore) env.notices.restored(id, customer, event)
    }
    const { onUncollectible, liftOnPaid, onVoided } = accountStanding(env, flaws, row)
    async function dispatch(event: { id: string; type: string; data: { object: Json } }): Promise<void> {
      if (flaws.noticeOnPastDue) {
        if (event.type === 'customer.subscription.updated') await pastDue(event as unknown as SubscriptionEvent)
      } else if (event.type === 'invoice.payment_failed') await onFailed(event.id, event.data.object)
      if (event.type === 'invoice.paid') {
        if (!flaws.noticeOnPastDue) await onPaid(event.id, event.data.object)
        else await row(`invoice:${String(event.data.object.id)}`, (r) => ({ ...r, paid: true }))
        await liftOnPaid(event.id, event.data.object)
      } else if (event.type === 'invoice.marked_uncollectible') await onUncollectible(event.id, event.data.object)
      else if (event.type === 'invoice.voided') await onVoided(event.id, event.data.object)
      else if (event.type === 'invoice.payment_succeeded' && flaws.restoreOnSucceededToo) {
        const id = String(event.data.object.id)
        if ((await row(`invoice:${id}`, (r) => r)).noticed) env.notices.restored(id, String(event.data.object.customer), event.id)
      } else if (flaws.refusesUnhandled && event.type !== 'invoice.payment_failed')
        throw new TypeError(`no handler for ${event.type}`)
    }
    return {
      async handler(req) {
        const raw = await req.text()
        try {
          verifySignature(raw, req.headers.get(`${env.prefix}-Signature`), env.secrets(), { now: env.clock.now })
        } catch {
          return new Response('bad signature', { status: 400 })
        }
        const event = JSON.parse(raw) as { id: string; type: string; data: { object: Json } }
        if (!flaws.noDedup && (await row(`event:${event.id}`, () => ({ seen: true }))).seen) return new Response('duplicate')
        if (flaws.answersFirst) {
          // Answer fast, then process (fetching the event again first): the work outlives the answer,
          // and nothing holds the provider back from counting it done.
          const later = async () => {
            await env.fetch(`${env.baseUrl}/v1/events/${event.id}`, { headers: { Authorization: `Bearer ${env.secretKey}` } })
            await dispatch(event)
          }
          void later().catch(() => undefined)
          return new Response('ok')
        }
        await dispatch(event)
        return new Response('ok')
      },
    }
  }
}

/**
 * The correct dunning client: one notice per failed invoice, none once paid, one restore on payment.
 *
 * @example
 * const result = await checkDunning(referenceDunningClient, { numRuns: 100 })
 */
export const referenceDunningClient: DunningClientFactory = makeDunningClient()
