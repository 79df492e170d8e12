import { type Destination, type DestinationKeys, ENDPOINT_OBJECT } from './destination.js'

/**
 * A stored v1 webhook endpoint as delivery reads it: a snapshot destination of its owner's events
 * (`@self`), or of its connected accounts' events alone when made with `connect: true`
 * (`@accounts`), as the provider routes them; `api_version` pins the version its events are
 * structured for, `null` leaves them at the account's version when each event occurred.
 *
 * @example
 * endpointViewOf(storedJson, keys).eventsFrom // ['@self']
 */
export function endpointViewOf(json: Readonly<Record<string, unknown>>, keys: DestinationKeys): Destination {
  const created = (json.created as number) * 1000
  return {
    id: keys.id,
    object: ENDPOINT_OBJECT,
    account: keys.account,
    mode: keys.mode,
    created,
    updated: created,
    name: '',
    description: (json.description as string | null) ?? '',
    type: 'webhook_endpoint',
    eventsFrom: keys.connect === true ? ['@accounts'] : ['@self'],
    eventPayload: 'snapshot',
    enabledEvents: json.enabled_events as string[],
    url: json.url as string,
    snapshotApiVersion: (json.api_version as string | null) ?? undefined,
    metadata: (json.metadata ?? {}) as Record<string, string>,
    status: json.status === 'disabled' ? 'disabled' : 'enabled',
    get secrets() {
      return keys.secrets
    },
    get badCertificate() {
      return keys.badCertificate
    },
    deleted: false,
  }
}
