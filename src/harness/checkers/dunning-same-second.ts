import type { TraceEntry } from '#kernel/index.js'
import type { RuleHistory } from '../rules/rule-history.js'

const DUNNING_TYPES = new Set(['invoice.payment_failed', 'invoice.paid', 'invoice.marked_uncollectible', 'invoice.voided'])

/**
 * What a dunning verdict adds when the event the app accepted (its `harness.flow.ack` entry) and then did nothing for was made in
 * the same second as an event about the same invoice (or of the same type) it had accepted before:
 * both carry one `created`, so an app that skips an event not newer than the last it applied, or
 * keys its deduplication on `created`, took the second for the first. Empty otherwise.
 *
 * @example
 * const hint = sameSecondHint(history, ack) // ', made in the same second as evt_1 (...) ...'
 */
export function sameSecondHint(history: RuleHistory, ack: TraceEntry): string {
  const accepted = history.accepted().find((a) => a.entry === ack)
  if (accepted === undefined) return ''
  const made = new Map<string, number>()
  for (const e of history.entries) if (e.kind === 'event.emitted') made.set(String(e.data.id), Math.floor(e.at / 1000))
  const second = made.get(accepted.event)
  if (second === undefined) return ''
  // Only the events dunning acts on: `invoice.payment_succeeded` always shares its second with
  // `invoice.paid`, and an app that never restores is no app that dropped the paid one.
  const earlier = history
    .accepted()
    .find(
      (a) =>
        a.entry.seq < accepted.entry.seq &&
        a.event !== accepted.event &&
        DUNNING_TYPES.has(a.type) &&
        made.get(a.event) === second &&
        (a.object === accepted.object || a.type === accepted.type),
    )
  if (earlier === undefined) return ''
  const same = earlier.object === accepted.object ? `about the same invoice` : `about ${String(earlier.object)}`
  return `, made in the same second as ${earlier.event} (${earlier.type}, ${same}), which it had accepted before: two events of one invoice (a retry failing as the customer pays or the invoice is written off), or of one type for one customer (two subscriptions renewing together), can share \`created\`, so an app that skips an event not newer than the last it applied, or deduplicates by \`created\`, drops the second; deduplicate by event id`
}
