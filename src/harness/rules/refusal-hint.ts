import type { RuleHistory } from './rule-history.js'

type Effect = ReturnType<RuleHistory['effects']>[number]

/**
 * When two effects were made while handling the same event and the app refused that event between
 * them (its handler threw or answered 5xx, often because a later API call failed), says so: the
 * provider sent it again, and nothing the app kept stopped the effect from happening twice. Empty
 * otherwise (a duplicate delivery of an event the app accepted is another mistake).
 *
 * @example
 * refusalHint(history.entries, [first, second]) // '; both while handling evt_1, which the app refused (answered 500 ...) ...'
 */
export function refusalHint(entries: RuleHistory['entries'], effects: readonly [Effect, Effect]): string {
  const [first, second] = effects
  const id = first.event?.id
  if (id === undefined || second.event?.id !== id) return ''
  const refused = entries.find(
    (e) => e.kind === 'harness.rule.refused' && e.data.event === id && e.seq > first.entry.seq && e.seq < second.entry.seq,
  )
  if (refused === undefined) return ''
  const failed = Number(refused.data.failedReads) > 0 ? ' after one of its API calls failed' : ''
  return `; both while handling ${id}, which the app refused (answered ${String(refused.data.status)}${failed}) and the provider sent again: the first was made before the handling failed and nothing durable kept it from being made again; make it once the handling can no longer fail, or keep a durable claim on it through the refusal`
}
