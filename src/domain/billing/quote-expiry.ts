import type { Json } from '../engine/list.js'
import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { type Ref, scopeOf, sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import type { BillingJobs } from './jobs.js'
import type { Timeline } from './timelines.js'

/**
 * Quotes that expire: an open quote not accepted by its `expires_at` is canceled then, with
 * `quote.canceled`, on its customer's timeline (a test clock's when the customer has one, so
 * advancing the clock expires it). The job is data (survives snapshots); when it runs it looks the
 * quote up and does nothing if it was accepted, canceled or given a later expiry meanwhile.
 *
 * @example
 * billing.quoteExpiry.schedule(scope, quote.id, quote.expires_at)
 */
export type QuoteExpiry = ReturnType<typeof createQuoteExpiry>

export function createQuoteExpiry(
  ctx: BillingContext,
  jobs: BillingJobs,
  timelineOfCustomer: (scope: Scope, customer: Json) => Timeline,
) {
  const { engine } = ctx
  const timelineOf = (scope: Scope, quote: Json): Timeline => {
    const customer = typeof quote.customer === 'string' ? engine.resource('customer').get(scope, quote.customer) : undefined
    return customer === undefined ? ctx.simLine : timelineOfCustomer(scope, customer)
  }
  const expire = jobs.jobKind(
    'quote.expire',
    (a: Ref) => {
      const scope = scopeOf(a)
      const quotes = engine.resource('quote')
      const quote = quotes.get(scope, a.id)
      if (quote === undefined || quote.status !== 'open') return
      const now = sec(timelineOf(scope, quote).now())
      if (Number(quote.expires_at) > now) return
      const transitions = (quote.status_transitions as Record<string, unknown> | null) ?? {}
      const canceled = quotes.put(scope, a.id, {
        status: 'canceled',
        status_transitions: { ...transitions, canceled_at: now },
      })
      engine.emit('quote.canceled', scope, canceled, NO_ORIGIN)
    },
    // The quote is looked up when the job runs: nothing holds its handle.
    () => undefined,
  )
  return {
    /** Cancels the quote at its `expires_at` unless something else settles it first. */
    schedule(scope: Scope, id: string, expiresAt: number): void {
      const quote = engine.resource('quote').get(scope, id)
      const timeline = quote === undefined ? ctx.simLine : timelineOf(scope, quote)
      timeline.at(expiresAt * 1000, expire, { account: scope.account, mode: scope.mode, id })
    },
  }
}
