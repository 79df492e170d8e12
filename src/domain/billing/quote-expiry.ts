import type { Scope } from '../mode.js'
import { NO_ORIGIN } from '../v1-events/emit.js'
import type { BillingContext } from './context.js'
import { type Ref, scopeOf } from './types.js'

/**
 * Quotes that expire: an open quote not accepted by its `expires_at` is canceled then, with
 * `quote.canceled`. The task is data (survives snapshots); when it runs it looks the quote up and
 * does nothing if it was accepted, canceled or given a later expiry meanwhile.
 *
 * @example
 * billing.quoteExpiry.schedule(scope, quote) // at quote.expires_at
 */
export type QuoteExpiry = ReturnType<typeof createQuoteExpiry>

export function createQuoteExpiry(ctx: BillingContext) {
  const { kernel, engine } = ctx
  const expire = kernel.scheduler.define<Ref>('quote.expire', (a) => {
    const scope = scopeOf(a)
    const quotes = engine.resource('quote')
    const quote = quotes.get(scope, a.id)
    if (quote === undefined || quote.status !== 'open' || Number(quote.expires_at) > engine.now()) return
    const transitions = (quote.status_transitions as Record<string, unknown> | null) ?? {}
    const canceled = quotes.put(scope, a.id, {
      status: 'canceled',
      status_transitions: { ...transitions, canceled_at: engine.now() },
    })
    engine.emit('quote.canceled', scope, canceled, NO_ORIGIN)
  })
  return {
    /** Cancels the quote at its `expires_at` unless something else settles it first. */
    schedule(scope: Scope, id: string, expiresAt: number): void {
      expire.at(expiresAt * 1000, { account: scope.account, mode: scope.mode, id })
    },
  }
}
