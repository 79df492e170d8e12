import type { StoredEvent } from '../event.js'

const cache = new WeakMap<StoredEvent, { snapshot?: string; thin?: string }>()
const pinned = new WeakMap<StoredEvent, Map<string, string>>()

// The latest full bodies rendered, with their events: a receiver in the same process that reads
// the event a body is the JSON of (the harness's receiver) takes it from here instead of parsing the
// kilobytes again. The body it is handed is the very string rendered here (cached per event), so
// finding it is a pointer compare; a ring, not a map keyed by the text, which would hash every body.
const RENDERED = 256
const renderedText: string[] = []
const renderedOf: StoredEvent[] = []
let nextRendered = 0

/**
 * The event whose full body (`JSON.stringify(event.body, null, 2)`) is `text`, when this process
 * rendered it lately for a delivery; undefined otherwise (a version-pinned or thin body, a forged
 * or tampered one, one rendered long ago): the caller parses it then. The event is the provider's
 * own: read it, never change it.
 *
 * @example
 * const event = renderedEvent(await request.text()) // its body is the delivery's JSON, parsed
 */
export function renderedEvent(text: string): StoredEvent | undefined {
  // Newest first: a delivery mostly reads a body rendered a moment ago.
  for (let k = 1; k <= renderedText.length; k++) {
    const i = (nextRendered - k + RENDERED) % RENDERED
    if (renderedText[i] === text) return renderedOf[i]
  }
  return undefined
}

function remember(text: string, event: StoredEvent): void {
  renderedText[nextRendered] = text
  renderedOf[nextRendered] = event
  nextRendered = (nextRendered + 1) % RENDERED
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
  const full = kind === 'snapshot' || event.kind === 'snapshot'
  const text = full
    ? JSON.stringify(b, null, 2)
    : JSON.stringify(
        {
          id: b.id,
          object: 'v2.core.event',
          type: b.type,
          created: b.created,
          livemode: b.livemode,
          ...(b.context === undefined || b.context === null ? {} : { context: b.context }),
          ...(b.related_object ? { related_object: b.related_object } : {}),
        },
        null,
        2,
      )
  entry[kind] = text
  if (full) remember(text, event)
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
    text = JSON.stringify(bodyAt === undefined ? { ...event.body, api_version: version } : bodyAt(event, version), null, 2)
    byVersion.set(version, text)
  }
  return text
}
