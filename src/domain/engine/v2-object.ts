import { isoTime } from '#kernel/time.js'
import type { ResourceDeclaration } from './declaration.js'

/**
 * True for a resource of the `/v2` namespace: its catalogue type is `V2.…`
 * (`V2.Core.EventDestination`). A v2 object carries its timestamps as ISO 8601 strings with
 * milliseconds, its `object` value is namespaced (`v2.core.event_destination`) and its lists are
 * v2 lists (`{ data, next_page_url, previous_page_url }`).
 *
 * @example
 * isV2({ type: 'V2.Core.EventDestination', object: 'v2.core.event_destination', idPrefix: 'ed' }) // true
 */
export function isV2(declaration: Pick<ResourceDeclaration, 'type'>): boolean {
  return declaration.type.startsWith('V2.')
}

/**
 * A timestamp as a resource of this namespace shows it: unix seconds on `/v1`, ISO 8601 UTC with
 * milliseconds on `/v2` (the spec's `timestamp` type).
 *
 * @example
 * timestampOf(false, 1_700_000_000_123) // 1700000000
 * timestampOf(true, 1_700_000_000_123)  // '2023-11-14T22:13:20.123Z'
 */
export function timestampOf(v2: boolean, ms: number): number | string {
  return v2 ? isoTime(ms) : Math.floor(ms / 1000)
}

/**
 * The noun of a resource in refusals (`No such event destination: 'ed_1'`): the declaration's
 * `noun`, else its `object` value.
 *
 * @example
 * nounOf({ object: 'v2.core.event_destination', noun: 'event destination' }) // 'event destination'
 */
export function nounOf(declaration: Pick<ResourceDeclaration, 'object' | 'noun'>): string {
  return declaration.noun ?? declaration.object
}
