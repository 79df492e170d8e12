import { LayeredMap } from '#kernel/layered-map.js'
import type { Accounts } from '../connect/accounts.js'
import type { Kernel } from '../kernel-parts.js'
import { type Scope, scopeKey } from '../mode.js'
import { intentInvoices } from '../versions/intent-invoices.js'
import type { StoredEvent } from './event.js'
import type { ObjectFinder } from './event-store.js'

// `byId` is made on the first lookup by id and kept up to date from then on: a run that never
// reads an event by id (a load test of creates) pays no insert into a map of every event.
interface Bucket {
  snapshot: StoredEvent[]
  thin: StoredEvent[]
  byId: LayeredMap<string, StoredEvent> | undefined
}

/**
 * What an event store holds: its events per scope and in emission order, its listeners, and how
 * it reads the objects a walk back to an older version needs.
 *
 * @example
 * const log = eventLog(kernel, accounts, () => engine)
 * appendEvent(log, event)
 */
export interface EventLog {
  readonly kernel: Kernel
  readonly accounts: Accounts
  /** Reads other objects of a scope by id, for a walk back. */
  readonly findIn: (scope: Scope) => (id: string) => Record<string, unknown> | undefined
  /** Which invoice a payment intent pays, in a scope, for a walk back. */
  readonly invoicesIn: (scope: Scope) => (paymentIntent: string) => string | null
  readonly scopes: Map<string, Bucket>
  everything: StoredEvent[]
  readonly listeners: Set<(event: StoredEvent) => void>
}

/**
 * An empty event log.
 *
 * @example
 * const log = eventLog(kernel, accounts, () => undefined)
 */
export function eventLog(kernel: Kernel, accounts: Accounts, finder: ObjectFinder): EventLog {
  return {
    kernel,
    accounts,
    findIn: (scope) => (id) => finder()?.find(scope, id),
    invoicesIn: (scope) => intentInvoices(() => finder()?.resource('invoice_payment').list(scope) ?? []),
    scopes: new Map(),
    everything: [],
    listeners: new Set(),
  }
}

function bucketOf(log: EventLog, scope: Scope): Bucket {
  const key = scopeKey(scope)
  let b = log.scopes.get(key)
  if (b === undefined) {
    b = { snapshot: [], thin: [], byId: undefined }
    log.scopes.set(key, b)
  }
  return b
}

/**
 * Stores a new event, traces it and tells every listener.
 *
 * @example
 * return appendEvent(log, { id, kind: 'thin', type, account, mode, at, apiVersion, body, objectId })
 */
export function appendEvent(log: EventLog, event: StoredEvent): StoredEvent {
  const b = bucketOf(log, event)
  b[event.kind].push(event)
  b.byId?.set(event.id, event)
  log.everything.push(event)
  log.kernel.trace.append('event.emitted', { id: event.id, type: event.type, account: event.account, mode: event.mode })
  for (const l of log.listeners) l(event)
  return event
}

/**
 * An event of a scope by id; the scope's id index is built on the first lookup.
 *
 * @example
 * eventById(log, { account, mode: 'test' }, 'evt_1')
 */
export function eventById(log: EventLog, scope: Scope, id: string): StoredEvent | undefined {
  const b = log.scopes.get(scopeKey(scope))
  if (b === undefined) return undefined
  if (b.byId === undefined) {
    const byId = new LayeredMap<string, StoredEvent>()
    for (const e of b.snapshot) byId.set(e.id, e)
    for (const e of b.thin) byId.set(e.id, e)
    b.byId = byId
  }
  return b.byId.get(id)
}

/**
 * Registers the log as the `events` part of a snapshot. Stored events are never changed: a
 * snapshot shares them. `objectId` is spelled again on load, since JSON drops an undefined member.
 *
 * @example
 * registerEventLog(log)
 */
export function registerEventLog(log: EventLog): void {
  const { scopes } = log
  log.kernel.state.register('events', {
    save() {
      return log.everything.slice()
    },
    load(data) {
      scopes.clear()
      log.everything.length = 0
      for (const e of data as StoredEvent[]) {
        const event = e.objectId === undefined ? { ...e, objectId: undefined } : e
        const b = bucketOf(log, event)
        b[event.kind].push(event)
        log.everything.push(event)
      }
    },
    // A fork shares the events and copies the lists as it loads them (one copy may be loaded by
    // many forks while this store is unchanged); the id indexes fork without a rebuild.
    copy() {
      return { everything: log.everything, scopes }
    },
    loadCopy(data) {
      const copied = data as { everything: StoredEvent[]; scopes: Map<string, Bucket> }
      scopes.clear()
      for (const [k, b] of copied.scopes)
        scopes.set(k, { snapshot: b.snapshot.slice(), thin: b.thin.slice(), byId: b.byId?.fork() })
      log.everything = copied.everything.slice()
    },
  })
}
