import type { Accounts } from '../../connect/accounts.js'
import type { StoredEvent } from '../event.js'
import { type Destination, ORGANISATION_SCOPES } from './destination.js'
import { ORGANISATION_FORBIDDEN } from './destination-rules.js'

/** True when the destination takes events from at least one organisation scope. */
export function isOrganisationDestination(d: Destination): boolean {
  return d.eventsFrom.some((s) => ORGANISATION_SCOPES.includes(s))
}

/**
 * Which `events_from` scope of the destination (if any) covers an event of `eventAccount`:
 * `@self` the owner itself, `@accounts` its connected accounts, `@organization_members` the
 * accounts of its organisation, `@organization_members/@accounts` their connected accounts.
 *
 * @example
 * scopeMatches(destination, 'acct_connected', accounts) // '@accounts' or undefined
 */
export function scopeMatches(d: Destination, eventAccount: string, accounts: Accounts): string | undefined {
  const source = accounts.get(eventAccount)
  const owner = accounts.get(d.account)
  for (const scope of d.eventsFrom) {
    if (scope === '@self' && eventAccount === d.account) return scope
    if (scope === '@accounts' && source?.platform === d.account) return scope
    if (owner?.organisation === undefined || source === undefined) continue
    if (scope === '@organization_members' && source.organisation === owner.organisation) return scope
    if (scope === '@organization_members/@accounts' && source.platform !== undefined) {
      const platform = accounts.get(source.platform)
      if (platform?.organisation === owner.organisation) return scope
    }
  }
  return undefined
}

/**
 * Routing of one event to one destination: enabled, same mode, same payload kind, an
 * `events_from` scope that covers the event's account and an `enabled_events` entry (`*` or the
 * type). Organisation destinations never receive `issuing_authorization.request`, even with `*`.
 *
 * @example
 * destinations.all().filter((d) => routes(d, event, accounts))
 */
export function routes(d: Destination, event: StoredEvent, accounts: Accounts): boolean {
  if (d.status !== 'enabled' || d.mode !== event.mode || d.eventPayload !== event.kind) return false
  if (!d.enabledEvents.includes('*') && !d.enabledEvents.includes(event.type)) return false
  if (isOrganisationDestination(d) && ORGANISATION_FORBIDDEN.has(event.type)) return false
  return scopeMatches(d, event.account, accounts) !== undefined
}
