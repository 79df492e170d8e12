import type { Resource } from '../engine/resource.js'
import { type Scope, scopeKey } from '../mode.js'
import type { Meter } from './meter.js'

/** The `object` value under which the engine stores meters. */
export const METER_OBJECT = 'billing.meter'

/**
 * Read access to the billing meters the engine stores, as the metering behaviours need it. An
 * event name belongs to at most one meter of a scope (meter create refuses a second), so an event
 * finds its meter by name.
 *
 * @example
 * const meters = createMeters(() => engine.resource('billing.meter'))
 * meters.byEventName({ account, mode: 'test' }, 'api_call')?.id // 'mtr_test_…'
 */
export interface Meters {
  find(scope: Scope, id: string): Meter | undefined
  byEventName(scope: Scope, eventName: string): Meter | undefined
  /** Meters of the scope, newest first. */
  list(scope: Scope): readonly Meter[]
}

export function createMeters(resource: () => Resource): Meters {
  const list = (scope: Scope) => resource().list(scope) as unknown as readonly Meter[]
  const find = (scope: Scope, id: string) => resource().get(scope, id) as Meter | undefined
  // Every meter event looks its meter up by name: the id found last time is tried first. A meter's
  // event name never changes, so a hit that still names the event is the answer; anything else
  // (a new meter, a loaded snapshot) falls back to the scan, which refreshes the entry.
  const idByName = new Map<string, string>()
  return {
    find,
    byEventName(scope, eventName) {
      const key = `${scopeKey(scope)}|${eventName}`
      const known = idByName.get(key)
      const hit = known === undefined ? undefined : find(scope, known)
      if (hit !== undefined && hit.event_name === eventName) return hit
      for (const m of list(scope)) {
        if (m.event_name !== eventName) continue
        idByName.set(key, m.id)
        return m
      }
      return undefined
    },
    list,
  }
}
