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
  /** Never checks whether the invoice is paid before noticing: a failure delivered late notifies a paid invoice. */
  readonly forgetsPaid?: boolean
  /** Answers 400 to event types it does not handle (the provider retries them for days). */
  readonly refusesUnhandled?: boolean
}

type Json = Record<string, unknown>
interface SubscriptionEvent {
  readonly id: string
  readonly data: { readonly object: Json; readonly previous_attributes?: Json }
}

/**
 * A dunning client with the given flaws (none: the reference). The reference verifies the
 * signature, ignores events it already processed, remembers per invoice whether it is paid, was
 * noticed and was restored: a failure of an unpaid, not yet noticed invoice sends one notice;
 * `invoice.paid` marks it paid and restores a noticed invoice once.
 *
 * @example
 * const everyRetry = makeDunningClient({ noticeEveryAttempt: true })
 */
export function makeDunningClient(flaws: DunningFlaws = {}): DunningClientFactory {
  return (env: DunningEnv): DunningClient => {
    const seen = new Set<string>()
    const paid = new Set<string>()
    const noticed = new Set<string>()
    const restored = new Set<string>()
    const dunningCustomers = new Set<string>()
    function onFailed(event: string, invoice: Json): void {
      const id = String(invoice.id)
      const customer = String(invoice.customer)
      if (paid.has(id) && !flaws.forgetsPaid) return
      if (flaws.onlyFinalAttempt && invoice.next_payment_attempt !== null) return
      if (flaws.noDedup) {
        if (invoice.attempt_count !== 1) return
      } else if (flaws.perCustomer) {
        if (dunningCustomers.has(customer)) return
        dunningCustomers.add(customer)
      } else if (noticed.has(id) && !flaws.noticeEveryAttempt) return
      noticed.add(id)
      env.notices.paymentFailed(id, customer, event)
    }
    function pastDue(event: SubscriptionEvent): void {
      const sub = event.data.object
      if (sub.status !== 'past_due' || event.data.previous_attributes?.status === undefined) return
      const invoice = String(sub.latest_invoice)
      if (paid.has(invoice) || noticed.has(invoice)) return
      noticed.add(invoice)
      env.notices.paymentFailed(invoice, String(sub.customer), event.id)
    }
    function onPaid(event: string, invoice: Json): void {
      const id = String(invoice.id)
      const customer = String(invoice.customer)
      paid.add(id)
      if (flaws.neverRestores) return
      if (flaws.perCustomer) dunningCustomers.delete(customer)
      if (!flaws.restoreEveryPaid && (!noticed.has(id) || (restored.has(id) && !flaws.noDedup))) return
      restored.add(id)
      env.notices.restored(id, customer, event)
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
        if (seen.has(event.id) && !flaws.noDedup) return new Response('duplicate')
        seen.add(event.id)
        if (flaws.noticeOnPastDue) {
          if (event.type === 'customer.subscription.updated') pastDue(event as unknown as SubscriptionEvent)
        } else if (event.type === 'invoice.payment_failed') onFailed(event.id, event.data.object)
        else if (event.type === 'invoice.paid') onPaid(event.id, event.data.object)
        else if (event.type === 'invoice.payment_succeeded' && flaws.restoreOnSucceededToo) {
          const id = String(event.data.object.id)
          if (noticed.has(id)) env.notices.restored(id, String(event.data.object.customer), event.id)
        } else if (flaws.refusesUnhandled) return new Response('unhandled event type', { status: 400 })
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
