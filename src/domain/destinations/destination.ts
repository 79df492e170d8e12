import type { Mode } from '../mode.js'

/** Where a destination takes events from (the spec's `events_from` scopes). */
export type EventsFrom = '@self' | '@accounts' | '@organization_members' | '@organization_members/@accounts'

/** The scopes that make a destination an organisation destination. */
export const ORGANISATION_SCOPES: readonly EventsFrom[] = ['@organization_members', '@organization_members/@accounts']

/** One signing secret of a destination; `expiresAt` is set on a rolled (old) secret. */
export interface SigningSecret {
  readonly secret: string
  readonly expiresAt: number | undefined
}

/**
 * An event destination (`v2.core.event_destination`) of type `webhook_endpoint`: which events it
 * takes (mode, `events_from`, payload kind, `enabled_events`), where they go and how they are
 * signed. Owned by one account in one mode.
 *
 * @example
 * destinations.create({ account: 'acct_1', mode: 'test' }, { name: 'hooks', type: 'webhook_endpoint',
 *   event_payload: 'snapshot', enabled_events: ['*'], webhook_endpoint: { url: 'https://x.test/h' } })
 */
export interface Destination {
  readonly id: string
  readonly account: string
  readonly mode: Mode
  readonly created: number
  updated: number
  name: string
  description: string
  readonly type: 'webhook_endpoint'
  readonly eventsFrom: readonly EventsFrom[]
  readonly eventPayload: 'snapshot' | 'thin'
  enabledEvents: string[]
  url: string
  /** A version pinned at creation: snapshot events are sent structured for it. */
  readonly snapshotApiVersion: string | undefined
  metadata: Record<string, string>
  status: 'enabled' | 'disabled'
  /** Active secrets, newest first; a delivery carries one `v1` per secret still active. */
  secrets: SigningSecret[]
  /** Simulates a receiver presenting an invalid certificate: every attempt is a TLS failure. */
  badCertificate: boolean
  deleted: boolean
}
