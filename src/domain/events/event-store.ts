import type { Accounts } from '../connect/accounts.js'
import type { Kernel } from '../kernel-parts.js'
import { type Scope, scopeKey } from '../mode.js'
import type { EmitSnapshot, EmitThin, StoredEvent } from './event.js'
import { eventById, eventLog, registerEventLog } from './event-log.js'
import { emitSnapshotEvent, eventBodyAt } from './snapshot-event.js'
import { emitThinEvent } from './thin-event.js'

/**
 * Every event the service has emitted, per account and mode, newest last. Delivery subscribes to
 * it; `/v1/events` and `/v2/core/events` read it.
 *
 * @example
 * const evt = events.snapshot({ type: 'customer.created', account, mode: 'test', object: customer })
 * events.get({ account, mode: 'test' }, evt.id)
 */
export interface EventStore {
  snapshot(input: EmitSnapshot): StoredEvent
  thin(input: EmitThin): StoredEvent
  get(scope: Scope, id: string): StoredEvent | undefined
  /** Events of a scope, oldest first. */
  list(scope: Scope, kind: StoredEvent['kind']): readonly StoredEvent[]
  /** Every event of every scope, in emission order. */
  all(): readonly StoredEvent[]
  subscribe(listener: (event: StoredEvent) => void): () => void
  /**
   * The event's body structured for `version` (a destination's or endpoint's pinned version):
   * `data.object` rendered at that version from the object as it was when the event occurred, the
   * `api_version` stamp to match. The stored body when the version is the event's own.
   */
  bodyAt(event: StoredEvent, version: string): Readonly<Record<string, unknown>>
}

/** Reads other objects for a walk back (the engine, bound once the service has built it). */
export type ObjectFinder = () =>
  | {
      find(scope: Scope, id: string): Record<string, unknown> | undefined
      /** The invoice payment records are read for which invoice a payment intent pays. */
      resource(object: 'invoice_payment'): { list(scope: Scope): readonly Record<string, unknown>[] }
    }
  | undefined

/**
 * Creates the event store of one service (see {@link EventStore}).
 *
 * @example
 * const events = createEventStore(kernel, accounts, () => engine)
 */
export function createEventStore(kernel: Kernel, accounts: Accounts, finder: ObjectFinder = () => undefined): EventStore {
  const log = eventLog(kernel, accounts, finder)
  registerEventLog(log)
  // Members are plain functions over the log, so a caller may hand one on alone (`bodyAt`).
  return {
    snapshot: (input) => emitSnapshotEvent(log, input),
    thin: (input) => emitThinEvent(log, input),
    bodyAt: (event, version) => eventBodyAt(log, event, version),
    get: (scope, id) => eventById(log, scope, id),
    list: (scope, kind) => log.scopes.get(scopeKey(scope))?.[kind] ?? [],
    all: () => log.everything,
    subscribe(listener) {
      log.listeners.add(listener)
      return () => log.listeners.delete(listener)
    },
  }
}
