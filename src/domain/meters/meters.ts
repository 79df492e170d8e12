import type { Resource } from '../engine/resource.js'
import type { Scope } from '../mode.js'
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
  return {
    find: (scope, id) => resource().get(scope, id) as Meter | undefined,
    byEventName(scope, eventName) {
      for (const m of list(scope)) if (m.event_name === eventName) return m
      return undefined
    },
    list,
  }
}
