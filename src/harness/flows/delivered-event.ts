import { renderedEvent } from '#domain/index.js'

/** A delivery's body as the harness reads it (nothing for a body that is not an event). */
export interface DeliveredEvent {
  readonly id?: unknown
  readonly type?: unknown
  readonly created?: unknown
  readonly data?: { readonly object?: Record<string, unknown> }
}

// The latest bodies parsed, with what they parsed to: a forged or tampered body read by several
// parts of the harness in one delivery is parsed once. Only read, never changed.
const RECENT_BODIES = 8
const recentBodies: { raw: string; event: DeliveredEvent | undefined }[] = []
let nextBody = 0

/**
 * The event a delivered body is the JSON of, or undefined when it is not an object (a forgery's
 * body). A body the provider rendered lately is its event's own body, not parsed again: the same
 * data as `JSON.parse(raw)` (the body is that object's JSON), read only. Shared by the receiver,
 * its coverage, the causal recorder and a subject's own routing, so a delivery is parsed at most
 * once by the harness.
 *
 * @example
 * const event = deliveredEvent(await TextRequest.textOf(request))
 * if (typeof event?.id === 'string') acked.add(event.id)
 */
export function deliveredEvent(raw: string): DeliveredEvent | undefined {
  const known = renderedEvent(raw)
  if (known !== undefined) return known.body as DeliveredEvent
  for (const r of recentBodies) if (r.raw === raw) return r.event
  let event: DeliveredEvent | undefined
  try {
    const value = JSON.parse(raw) as unknown
    event = typeof value === 'object' && value !== null ? (value as DeliveredEvent) : undefined
  } catch {
    // Not an event (a forgery's body): nothing acknowledged.
    event = undefined
  }
  recentBodies[nextBody] = { raw, event }
  nextBody = (nextBody + 1) % RECENT_BODIES
  return event
}
