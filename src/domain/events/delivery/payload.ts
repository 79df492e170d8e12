import type { StoredEvent } from '../event.js'

const cache = new WeakMap<StoredEvent, { snapshot?: string; thin?: string }>()
const pinned = new WeakMap<StoredEvent, Map<string, string>>()

// The latest bodies rendered, with the value each was serialised from (oldest first). A receiver in
// the process that needs the event (the harness, to note what the app acknowledged) takes the value
// instead of parsing kilobytes of JSON once more per attempt.
const sources = new Map<string, Readonly<Record<string, unknown>>>()
const MAX_SOURCES = 64

function rendered(text: string, value: Readonly<Record<string, unknown>>): string {
  if (sources.size >= MAX_SOURCES) sources.delete(sources.keys().next().value as string)
  sources.set(text, value)
  return text
}

/**
 * The value a delivery body among the latest rendered was serialised from (undefined for any other
 * text): what `JSON.parse(body)` answers, for plain data, without parsing it. Read it, never change
 * it: the stored event is shared.
 *
 * @example
 * const event = renderedFrom(raw) ?? JSON.parse(raw)
 */
export function renderedFrom(body: string): Readonly<Record<string, unknown>> | undefined {
  return sources.get(body)
}

/**
 * The exact JSON a destination receives for an event, serialised once per event and kind (events
 * are immutable), pretty-printed with two-space indentation as the real provider sends it: a
 * receiver that verifies a re-serialised body instead of the raw bytes fails. Snapshot: the full event. Thin: the notification `{ id, object, type, created,
 * livemode, context, related_object }` without `data` (`context` only for an event of
 * another account); the receiver fetches the rest.
 *
 * @example
 * deliveryBody(event, 'thin') // '{\n  "id": "evt_test_…",\n  "object": "v2.core.event",…'
 */
export function deliveryBody(
  event: StoredEvent,
  kind: 'snapshot' | 'thin',
  version?: string,
  bodyAt?: (event: StoredEvent, version: string) => Readonly<Record<string, unknown>>,
): string {
  if (version !== undefined && kind === 'snapshot' && event.kind === 'snapshot' && version !== event.apiVersion) {
    return pinnedBody(event, version, bodyAt)
  }
  let entry = cache.get(event)
  if (entry === undefined) {
    entry = {}
    cache.set(event, entry)
  }
  const hit = entry[kind]
  if (hit !== undefined) return hit
  const b = event.body
  const value =
    kind === 'snapshot' || event.kind === 'snapshot'
      ? b
      : {
          id: b.id,
          object: 'v2.core.event',
          type: b.type,
          created: b.created,
          livemode: b.livemode,
          ...(b.context === undefined || b.context === null ? {} : { context: b.context }),
          ...(b.related_object ? { related_object: b.related_object } : {}),
        }
  const text = rendered(JSON.stringify(value, null, 2), value)
  entry[kind] = text
  return text
}

/**
 * A snapshot event as sent to a destination pinned to another API version: structured for that
 * version (by `bodyAt`, the event store's rendering), rendered once per event and version and kept;
 * the stored event (what `/v1/events` returns) is unchanged.
 */
function pinnedBody(
  event: StoredEvent,
  version: string,
  bodyAt?: (event: StoredEvent, version: string) => Readonly<Record<string, unknown>>,
): string {
  let byVersion = pinned.get(event)
  if (byVersion === undefined) {
    byVersion = new Map()
    pinned.set(event, byVersion)
  }
  let text = byVersion.get(version)
  if (text === undefined) {
    const value = bodyAt === undefined ? { ...event.body, api_version: version } : bodyAt(event, version)
    text = rendered(JSON.stringify(value, null, 2), value)
    byVersion.set(version, text)
  }
  return text
}
