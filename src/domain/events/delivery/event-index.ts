import { LayeredMap } from '#kernel/layered-map.js'
import type { StoredEvent } from '../event.js'
import type { EventStore } from '../event-store.js'

/**
 * Events by id, for what looks an event up again: those with a delivery record (their attempts)
 * and, from the first lookup of any other event (a resend) on, every event. A run with no
 * destination (a load test of creates) then adds nothing to a map of every event.
 *
 * @example
 * const index = createEventIndex(events)
 * index.remember(event) // it has a delivery record now
 * index.lookup(event.id)
 */
export interface EventIndex {
  lookup(id: string): StoredEvent | undefined
  /** An event that now has a delivery record. */
  remember(event: StoredEvent): void
  /** A new event: kept only once the index holds every event. */
  seen(event: StoredEvent): void
  /** The index as it is, for a fork (no rebuild). */
  fork(): { byId: LayeredMap<string, StoredEvent>; complete: boolean }
  /** Takes a saved or forked index; an empty one is built from the store on the first miss. */
  reset(byId: LayeredMap<string, StoredEvent>, complete: boolean): void
}

/**
 * The event index of one delivery area, empty until events get records.
 *
 * @example
 * const index = createEventIndex(events)
 */
export function createEventIndex(events: EventStore): EventIndex {
  let byId = new LayeredMap<string, StoredEvent>()
  let complete = false
  return {
    lookup(id) {
      const found = byId.get(id)
      if (found !== undefined || complete) return found
      for (const e of events.all()) byId.set(e.id, e)
      complete = true
      return byId.get(id)
    },
    remember(event) {
      byId.set(event.id, event)
    },
    seen(event) {
      if (complete) byId.set(event.id, event)
    },
    fork() {
      return { byId: byId.fork(), complete }
    },
    reset(index, all) {
      byId = index
      complete = all
    },
  }
}
