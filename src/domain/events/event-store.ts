import { cloneData } from '#kernel/clone-data.js'
import { LayeredMap } from '#kernel/layered-map.js'
import type { Accounts } from '../connect/accounts.js'
import type { Kernel } from '../kernel-parts.js'
import { type Scope, scopeKey } from '../mode.js'
import { intentInvoices } from '../versions/intent-invoices.js'
import { previousAt } from '../versions/previous-at.js'
import { needsWalk, renderAt } from '../versions/render-at.js'
import type { EmitSnapshot, EmitThin, StoredEvent } from './event.js'

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

export function createEventStore(kernel: Kernel, accounts: Accounts, finder: ObjectFinder = () => undefined): EventStore {
  const findIn = (scope: Scope) => (id: string) => finder()?.find(scope, id)
  const invoicesIn = (scope: Scope) => intentInvoices(() => finder()?.resource('invoice_payment').list(scope) ?? [])
  // `byId` is made on the first lookup by id and kept up to date from then on: a run that never
  // reads an event by id (a load test of creates) pays no insert into a map of every event.
  type Bucket = { snapshot: StoredEvent[]; thin: StoredEvent[]; byId: LayeredMap<string, StoredEvent> | undefined }
  const scopes = new Map<string, Bucket>()
  let everything: StoredEvent[] = []
  const listeners = new Set<(event: StoredEvent) => void>()

  // Stored events are never changed: a snapshot shares them. `objectId` is spelled again on load,
  // since JSON drops an undefined member.
  kernel.state.register('events', {
    save() {
      return everything.slice()
    },
    load(data) {
      scopes.clear()
      everything.length = 0
      for (const e of data as StoredEvent[]) {
        const event = e.objectId === undefined ? { ...e, objectId: undefined } : e
        const b = own_.bucket(event)
        b[event.kind].push(event)
        everything.push(event)
      }
    },
    // A fork shares the events and copies the lists as it loads them (one copy may be loaded by
    // many forks while this store is unchanged); the id indexes fork without a rebuild.
    copy() {
      return { everything, scopes }
    },
    loadCopy(data) {
      const copied = data as { everything: StoredEvent[]; scopes: Map<string, Bucket> }
      scopes.clear()
      for (const [k, b] of copied.scopes)
        scopes.set(k, { snapshot: b.snapshot.slice(), thin: b.thin.slice(), byId: b.byId?.fork() })
      everything = copied.everything.slice()
    },
  })
  const own_ = {
    bucket(scope: Scope) {
      const key = scopeKey(scope)
      let b = scopes.get(key)
      if (b === undefined) {
        b = { snapshot: [], thin: [], byId: undefined }
        scopes.set(key, b)
      }
      return b
    },
    context(accountId: string): string | undefined {
      const account = accounts.get(accountId)
      return account?.organisation === undefined ? undefined : accountId
    },
    store(event: StoredEvent): StoredEvent {
      const b = own_.bucket(event)
      b[event.kind].push(event)
      b.byId?.set(event.id, event)
      everything.push(event)
      kernel.trace.append('event.emitted', { id: event.id, type: event.type, account: event.account, mode: event.mode })
      for (const l of listeners) l(event)
      return event
    },
  }

  return {
    snapshot(input) {
      const account = accounts.get(input.account)
      const apiVersion = account?.apiVersion ?? accounts.defaultVersion
      const id = kernel.ids.next('evt', 24)
      // A sealed object (the engine's) never changes: held as it is, not copied.
      const object = input.sealed === true ? input.object : cloneData(input.object)
      const connected = account?.platform !== undefined
      // Optional members are added after the literal, in the same order: a spread of a
      // conditional object costs about a microsecond per event on node 20.
      // Structured for the account's version when the event occurs, once; the object as it is now
      // is kept beside it for destinations pinned to another version.
      const walked = needsWalk(apiVersion)
      const find = walked ? findIn({ account: input.account, mode: input.mode }) : undefined
      const invoiceOf = walked ? invoicesIn({ account: input.account, mode: input.mode }) : undefined
      const rendered =
        find === undefined ? object : (renderAt(object, apiVersion, find, [], invoiceOf) as Record<string, unknown>)
      const data: Record<string, unknown> = { object: rendered }
      const previous = input.previousAttributes ? cloneData(input.previousAttributes) : undefined
      if (previous !== undefined) {
        data.previous_attributes =
          find === undefined ? previous : previousAt(object, rendered, previous, apiVersion, find, invoiceOf)
      }
      const body: Record<string, unknown> = {
        id,
        object: 'event',
        api_version: apiVersion,
        created: Math.floor(kernel.clock.now / 1000),
        data,
        livemode: input.mode === 'live',
        pending_webhooks: 0,
        request: input.request ?? { id: null, idempotency_key: null },
        type: input.type,
      }
      if (connected) body.account = input.account
      if (account?.organisation !== undefined) body.context = input.account
      return own_.store({
        id,
        kind: 'snapshot',
        type: input.type,
        account: input.account,
        mode: input.mode,
        at: kernel.clock.now,
        apiVersion,
        body,
        objectId: typeof object.id === 'string' ? object.id : undefined,
        ...(walked ? { current: object } : {}),
        ...(walked && previous !== undefined ? { previous } : {}),
      })
    },
    thin(input) {
      const account = accounts.get(input.account)
      const apiVersion = account?.apiVersion ?? accounts.defaultVersion
      const id = kernel.ids.next(`evt_${input.mode}`, 24)
      const body: Record<string, unknown> = {
        id,
        object: 'v2.core.event',
        type: input.type,
        created: new Date(kernel.clock.now).toISOString(),
        livemode: input.mode === 'live',
        context: account?.platform !== undefined || own_.context(input.account) !== undefined ? input.account : null,
        ...(input.relatedObject ? { related_object: { ...input.relatedObject } } : {}),
        data: cloneData(input.data ?? {}),
        ...(input.reason ? { reason: cloneData(input.reason) } : {}),
      }
      return own_.store({
        id,
        kind: 'thin',
        type: input.type,
        account: input.account,
        mode: input.mode,
        at: kernel.clock.now,
        apiVersion,
        body,
        objectId: input.relatedObject?.id,
      })
    },
    bodyAt(event, version) {
      if (version === event.apiVersion || event.kind !== 'snapshot') return event.body
      const data = event.body.data as Record<string, unknown>
      const now = event.current ?? (data.object as Record<string, unknown>)
      const find = findIn({ account: event.account, mode: event.mode })
      const invoiceOf = invoicesIn({ account: event.account, mode: event.mode })
      const walk = needsWalk(version)
      const object = walk ? (renderAt(now, version, find, [], invoiceOf) as Record<string, unknown>) : now
      // The previous attributes follow the object's shape: walked from the current version's ones.
      const previous = event.previous ?? (data.previous_attributes as Record<string, unknown> | undefined)
      if (previous === undefined) return { ...event.body, api_version: version, data: { ...data, object } }
      const previous_attributes = walk ? previousAt(now, object, previous, version, find, invoiceOf) : previous
      return { ...event.body, api_version: version, data: { ...data, object, previous_attributes } }
    },
    get(scope, id) {
      const b = scopes.get(scopeKey(scope))
      if (b === undefined) return undefined
      if (b.byId === undefined) {
        const byId = new LayeredMap<string, StoredEvent>()
        for (const e of b.snapshot) byId.set(e.id, e)
        for (const e of b.thin) byId.set(e.id, e)
        b.byId = byId
      }
      return b.byId.get(id)
    },
    list(scope, kind) {
      return scopes.get(scopeKey(scope))?.[kind] ?? []
    },
    all() {
      return everything
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
