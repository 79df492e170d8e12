import type { Mode } from '../../mode.js'

/**
 * The catalogue's object value of a v2 event destination (the engine resource that stores them).
 *
 * @example
 * engine.resource(DESTINATION_OBJECT).require(scope, id)
 */
export const DESTINATION_OBJECT = 'v2.core.event_destination'

/**
 * The catalogue's object value of a v1 webhook endpoint: delivered to like a destination.
 *
 * @example
 * engine.resource(ENDPOINT_OBJECT).require(scope, 'we_1')
 */
export const ENDPOINT_OBJECT = 'webhook_endpoint'

/**
 * Where a destination takes events from (the spec's `events_from` scopes).
 *
 * @example
 * const from: EventsFrom[] = ['@self', '@accounts']
 */
export type EventsFrom = '@self' | '@accounts' | '@organization_members' | '@organization_members/@accounts'

/**
 * Every `events_from` scope, in the spec's order.
 *
 * @example
 * EVENTS_FROM.includes('@self') // true
 */
export const EVENTS_FROM: readonly EventsFrom[] = [
  '@self',
  '@accounts',
  '@organization_members',
  '@organization_members/@accounts',
]

/**
 * The scopes that make a destination an organisation destination.
 *
 * @example
 * d.eventsFrom.some((s) => ORGANISATION_SCOPES.includes(s))
 */
export const ORGANISATION_SCOPES: readonly EventsFrom[] = ['@organization_members', '@organization_members/@accounts']

/**
 * One signing secret of a destination; `expiresAt` is set on a rolled (old) secret.
 *
 * @example
 * const rolled: SigningSecret = { secret: 'whsec_old', expiresAt: now + 3_600_000 }
 */
export interface SigningSecret {
  readonly secret: string
  readonly expiresAt: number | undefined
}

/**
 * What the service keeps of a destination beside its API object: its owner, its signing secrets
 * (the API never shows them after create) and the simulated certificate fault.
 *
 * @example
 * const keys: DestinationKeys = { id: 'ed_1', account, mode: 'test', secrets: [], badCertificate: false }
 */
export interface DestinationKeys {
  readonly id: string
  readonly account: string
  readonly mode: Mode
  /** The engine object it is stored as; absent on a v2 destination (and in states saved before v1 endpoints delivered). */
  readonly object?: typeof ENDPOINT_OBJECT
  /** A v1 endpoint's `connect` (its object does not show it): it takes its connected accounts' events. */
  readonly connect?: boolean
  /** Active secrets, newest first; a delivery carries one `v1` per secret still active. */
  secrets: SigningSecret[]
  /** Simulates a receiver presenting an invalid certificate: every attempt is a TLS failure. */
  badCertificate: boolean
}

/**
 * An event destination (`v2.core.event_destination`) as delivery reads
 * it: which events it takes (mode, `events_from`, payload kind, `enabled_events`), where they go
 * and how they are signed. A read-only view of the stored API object and its keys.
 *
 * @example
 * sim.admin.destinations()[0] // { id: 'ed_…', url: 'https://…', eventPayload: 'snapshot', status: 'enabled', ... }
 */
export interface Destination {
  readonly id: string
  /** Which API made it: a v2 event destination or a v1 webhook endpoint. */
  readonly object: typeof DESTINATION_OBJECT | typeof ENDPOINT_OBJECT
  readonly account: string
  readonly mode: Mode
  /** Epoch ms. */
  readonly created: number
  readonly updated: number
  readonly name: string
  readonly description: string
  /** A webhook endpoint is sent HTTP requests; an EventBridge destination puts events on its virtual bus. */
  readonly type: 'webhook_endpoint' | 'amazon_eventbridge'
  readonly eventsFrom: readonly EventsFrom[]
  readonly eventPayload: 'snapshot' | 'thin'
  readonly enabledEvents: readonly string[]
  readonly url: string
  /** A version pinned at creation: snapshot events are sent structured for it. */
  readonly snapshotApiVersion: string | undefined
  readonly metadata: Readonly<Record<string, string>>
  readonly status: 'enabled' | 'disabled'
  readonly secrets: readonly SigningSecret[]
  readonly badCertificate: boolean
  /** Always false for a view: a deleted destination is no longer found. */
  readonly deleted: boolean
}

/**
 * The view of a stored destination object and its keys.
 *
 * @example
 * viewOf(storedJson, keys).url // 'https://hooks.example.test/a'
 */
export function viewOf(json: Readonly<Record<string, unknown>>, keys: DestinationKeys): Destination {
  const endpoint = (json.webhook_endpoint ?? {}) as { url?: string }
  return {
    id: keys.id,
    object: DESTINATION_OBJECT,
    account: keys.account,
    mode: keys.mode,
    created: Date.parse(json.created as string),
    updated: Date.parse(json.updated as string),
    name: json.name as string,
    description: json.description as string,
    type: json.type === 'amazon_eventbridge' ? 'amazon_eventbridge' : 'webhook_endpoint',
    eventsFrom: (json.events_from ?? ['@self']) as EventsFrom[],
    eventPayload: json.event_payload as 'snapshot' | 'thin',
    enabledEvents: json.enabled_events as string[],
    url: endpoint.url ?? '',
    snapshotApiVersion: json.snapshot_api_version as string | undefined,
    metadata: (json.metadata ?? {}) as Record<string, string>,
    status: json.status as 'enabled' | 'disabled',
    get secrets() {
      return keys.secrets
    },
    get badCertificate() {
      return keys.badCertificate
    },
    deleted: false,
  }
}
