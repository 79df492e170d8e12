import type { RuleHistory } from './rule-history.js'

type Effect = ReturnType<RuleHistory['effects']>[number]

/**
 * When two of the effects were made while handling two distinct events the service made for one
 * change (a redundant event, traced with both ids), says so: the app keyed the effect by the event,
 * which the provider warns is not enough. Empty otherwise.
 *
 * @example
 * twinHint(history.entries, [first, second]) // '; evt_a and evt_b are two distinct events for one change ...'
 */
export function twinHint(entries: RuleHistory['entries'], effects: readonly Effect[]): string {
  const ids = new Set(effects.flatMap((f) => (f.event === null ? [] : [f.event.id])))
  if (ids.size < 2) return ''
  for (const e of entries) {
    if (e.kind !== 'delivery.fault' || e.data.kind !== 'redundant_event') continue
    const a = String(e.data.event)
    const b = String(e.data.twin)
    if (ids.has(a) && ids.has(b))
      return `; ${a} and ${b} are two distinct events for one change (the provider may send both): an effect keyed by the event id happens twice`
  }
  return ''
}
