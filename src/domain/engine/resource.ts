import { cloneData } from '#kernel/clone-data.js'
import { seal, sealedAnswer } from '#kernel/sealed.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel.js'
import type { Scope } from '../mode.js'
import { createScopedStore, type ScopedStoreCopy } from '../scoped-store/scoped-store.js'
import { resourceMissing, tableError } from '../service-error.js'
import { emitSnapshot, type Origin } from '../v1-events/emit.js'
import { applyParams } from './apply-params.js'
import { type BuildContext, buildObject } from './build-object.js'
import { type CatalogueView, fieldsOf } from './catalogue-view.js'
import { checkMetadata } from './checks.js'
import type { Fixed, ResourceDeclaration } from './declaration.js'
import type { Json } from './list.js'
import { isV2, nounOf, timestampOf } from './v2-object.js'

/**
 * The objects of one declared resource, per account and mode, as wire JSON. Every check runs
 * before any change, so a refused call changes nothing; each change emits its declared event.
 *
 * @example
 * const c = resource.create(scope, { email: 'a@b.c' }, origin)
 * resource.update(scope, c.id, { metadata: { plan: 'pro' } }, origin)
 * resource.delete(scope, c.id, origin) // { id, object: 'customer', deleted: true }
 */
export interface Resource {
  readonly declaration: ResourceDeclaration
  /** A live object of the scope. */
  get(scope: Scope, id: string): Json | undefined
  /** A live object, else 404 `resource_missing` (on `param`, default `id`); a deleted `stub` resource answers its stub. */
  retrieve(scope: Scope, id: string): Json
  /** A live object, else 404 `resource_missing`. */
  require(scope: Scope, id: string): Json
  /** A live object named by a request parameter, else 400 `resource_missing` on that param. */
  requireParam(scope: Scope, id: string, param: string): Json
  /** Live objects, newest first. */
  list(scope: Scope): Json[]
  /**
   * Creates and stores an object from params (`fixed` fields are set after params: parents,
   * behaviours' values); `id` when a behaviour drew the id beforehand (an object that must be named
   * before it exists, like a subscription's first invoice).
   */
  create(scope: Scope, params: Readonly<Record<string, unknown>>, origin: Origin, fixed?: Fixed, id?: string): Json
  /**
   * Applies params (metadata merge, `''` clears), then `fields` as given (or computed from the
   * object with params applied: fields that follow from others), and emits `*.updated` with
   * `previous_attributes` when something changed.
   */
  update(scope: Scope, id: string, params: Readonly<Record<string, unknown>>, origin: Origin, fields?: Fixed): Json
  /**
   * Sets fields without an event (a field set to `undefined` is removed): for behaviours that emit
   * their own events (`invoice.finalized`) or change fields the provider changes silently.
   */
  put(scope: Scope, id: string, fields: Readonly<Record<string, unknown>>): Json
  /**
   * Stores an object made by `build` without an event or a trace entry: an object that exists
   * before any request makes it (an account's own record, made when a request first needs it).
   */
  insert(scope: Scope, obj: Json): Json
  /** Sets fields as given (behaviours: status changes), emitting `*.updated` like `update`. */
  set(scope: Scope, id: string, fields: Readonly<Record<string, unknown>>, origin: Origin): Json
  delete(scope: Scope, id: string, origin: Origin): { id: string; object: string; deleted: true }
  /** Removes an object without an event, a trace entry or a stub: one the provider forgets silently. */
  discard(scope: Scope, id: string): void
  /** Visits every stored object of every scope (in insertion order): for indexes derived from the store. */
  each(visit: (scope: Scope, obj: Json) => void): void
  /** A new object with defaults and params, not stored. */
  build(scope: Scope, id: string, params: Readonly<Record<string, unknown>>): Json
}

export interface ResourceOptions {
  readonly kernel: Kernel
  readonly events: EventStore
  readonly view: CatalogueView
  readonly declaration: ResourceDeclaration
  /** Whether the catalogue knows an event type: an event is emitted only where its type exists. */
  readonly isEventType: (type: string) => boolean
  /** Any object of the scope by id: a param naming an object where the field holds the object. */
  readonly find?: (scope: Scope, id: string) => Record<string, unknown> | undefined
}

interface Stub {
  readonly id: string
  readonly object: string
  readonly deleted: true
}

/** The prefix of the snapshot part of each resource (`engine.customer`). */
export const ENGINE_PART = 'engine.'

export function createResource(options: ResourceOptions): Resource {
  const { kernel, events, view, declaration: d } = options
  const store = createScopedStore<Json>()
  const deleted = createScopedStore<Stub>()
  const touch = new Set(d.touch ?? [])
  // Objects are replaced on update, never changed in place (sealed: the test suite freezes them):
  // a snapshot and the events share them, which keeps fork() of a large store and every event
  // cheap, and each object's JSON text is made once for every answer that returns it.
  // Here, methods rather than named closures: a resource is made per fork (a property run) and a
  // dev-time transform that keeps function names (tsx) names each named closure at every creation.
  if (!d.ephemeral) {
    // An empty resource saves nothing: a snapshot does not depend on which resources a run
    // touched (a refused request may make one) but only on what they hold.
    kernel.state.register(`${ENGINE_PART}${d.object}`, {
      save() {
        return store.isEmpty() && deleted.isEmpty() ? undefined : { objects: store.save(), deleted: deleted.save() }
      },
      load(data) {
        const saved = data as { objects: Record<string, Json[]>; deleted: Record<string, Stub[]> }
        for (const objects of Object.values(saved.objects)) for (const o of objects) seal(o)
        store.load(saved.objects)
        deleted.load(saved.deleted)
      },
      copy() {
        return store.isEmpty() && deleted.isEmpty() ? undefined : { objects: store.copy(), deleted: deleted.copy() }
      },
      loadCopy(data) {
        const copied = data as { objects: ScopedStoreCopy<Json>; deleted: ScopedStoreCopy<Stub> }
        store.loadCopy(copied.objects)
        deleted.loadCopy(copied.deleted)
      },
    })
  }
  // Made once: a name built per call is a new rope that every event and trace entry would keep.
  const eventTypes = {
    created: `${d.eventPrefix ?? d.object}.created`,
    updated: `${d.eventPrefix ?? d.object}.updated`,
    deleted: `${d.eventPrefix ?? d.object}.deleted`,
  }
  const createdKind = `${d.object}.created` as 'customer.created'
  const collection = `/v1/${d.object.replace(/\./g, '/')}s`
  const v2 = isV2(d)
  const noun = nounOf(d)
  const own = {
    /** `created`, `updated` and other touched fields: unix seconds on v1, ISO 8601 on v2. */
    stamp(): number | string {
      return timestampOf(v2, kernel.clock.now)
    },
    emit(verb: 'created' | 'updated' | 'deleted', scope: Scope, obj: Json, origin: Origin, previous?: Record<string, unknown>) {
      const type = eventTypes[verb]
      // Every object emitted here is the stored one, sealed: the event holds it without a copy.
      if (options.isEventType(type)) emitSnapshot(events, type, scope, obj, origin, previous, true)
    },
    finder(scope: Scope) {
      const find = options.find
      return find === undefined ? undefined : (id: string) => find(scope, id)
    },
    /** Sets the fields that follow from the others (`ResourceDeclaration.derive`). */
    derive(obj: Json): Json {
      if (d.derive !== undefined) Object.assign(obj, d.derive(obj))
      return obj
    },
    replaceWith(scope: Scope, current: Json, next: Json, origin: Origin): Json {
      const previous: Record<string, unknown> = {}
      for (const k of Object.keys(next)) {
        if (!touch.has(k) && JSON.stringify(next[k]) !== JSON.stringify(current[k])) previous[k] = current[k]
      }
      if (Object.keys(previous).length === 0) return current
      if (touch.size > 0) {
        const at = own.stamp()
        for (const f of touch) next[f] = at
      }
      store.replace(scope, seal(next))
      own.emit('updated', scope, next, origin, previous)
      return next
    },
  }

  const resource: Resource = {
    declaration: d,
    get(scope, id) {
      return store.get(scope, id)
    },
    require(scope, id) {
      const o = store.get(scope, id)
      if (o === undefined) throw resourceMissing(noun, id)
      return o
    },
    build(scope, id, params) {
      const now = Math.floor(kernel.clock.now / 1000)
      const livemode = scope.mode === 'live'
      const ctx: BuildContext = { id, object: d.object, livemode, created: now, url: `${collection}/${id}` }
      const obj = buildObject(view, d.type, ctx, d.defaults?.({ id, created: now, livemode, scope, params })) as Json
      // A v2 `created` is a string in the catalogue, so the build left it empty.
      if (v2 && 'created' in obj) obj.created = own.stamp()
      applyParams(view, fieldsOf(view, d.type), obj, params, ctx, own.finder(scope))
      if (touch.size > 0) {
        const at = own.stamp()
        for (const f of touch) obj[f] = at
      }
      return obj
    },
    retrieve(scope, id) {
      const o = store.get(scope, id)
      // Answered again and again: its JSON text is made once.
      if (o !== undefined) return sealedAnswer(o)
      const stub = d.deleted === 'stub' ? deleted.get(scope, id) : undefined
      if (stub !== undefined) return stub as unknown as Json
      throw resourceMissing(noun, id)
    },
    requireParam(scope, id, param) {
      const o = store.get(scope, id)
      // A body parameter naming a missing object is a 400 (a path's is the 404 of `require`).
      if (o === undefined) throw tableError('resource_missing', { kind: noun, id }, { param, status: 400 })
      return o
    },
    list(scope) {
      return store.list(scope)
    },
    create(scope, params, origin, fixed = {}, chosenId = undefined) {
      checkMetadata(params.metadata)
      let id: string
      if (chosenId !== undefined) id = chosenId
      else if (d.callerId && typeof params.id === 'string' && params.id !== '') {
        id = params.id
        if (store.get(scope, id) !== undefined || deleted.get(scope, id) !== undefined) {
          const kind = `${d.object[0]?.toUpperCase()}${d.object.slice(1)}`
          throw tableError('resource_already_exists', { kind, id }, { param: 'id' })
        }
      } else id = kernel.ids.next(d.idPrefix, d.idLength ?? 24)
      const obj = resource.build(scope, id, params)
      Object.assign(obj, typeof fixed === 'function' ? fixed(obj) : fixed)
      own.derive(obj)
      if (d.ephemeral) return obj
      store.add(scope, seal(obj))
      // Every declared resource records the ObjectChange shape customers declare in the trace kinds.
      kernel.trace.append(createdKind, { id, account: scope.account, mode: scope.mode })
      own.emit('created', scope, obj, origin)
      return obj
    },
    update(scope, id, params, origin, extra) {
      const current = resource.require(scope, id)
      checkMetadata(params.metadata)
      const next = cloneData(current)
      const ctx: BuildContext = {
        id,
        object: d.object,
        livemode: scope.mode === 'live',
        created: Math.floor(kernel.clock.now / 1000),
        url: `${collection}/${id}`,
      }
      applyParams(view, fieldsOf(view, d.type), next, params, ctx, own.finder(scope))
      if (extra !== undefined) Object.assign(next, structuredClone(typeof extra === 'function' ? extra(next) : extra))
      own.derive(next)
      return own.replaceWith(scope, current, next, origin)
    },
    put(scope, id, values) {
      const next = { ...resource.require(scope, id) }
      for (const [k, v] of Object.entries(values)) {
        if (v === undefined) delete next[k]
        else next[k] = v
      }
      own.derive(next)
      store.replace(scope, seal(next))
      return next
    },
    insert(scope, obj) {
      store.add(scope, seal(obj))
      return obj
    },
    set(scope, id, values, origin) {
      const current = resource.require(scope, id)
      return own.replaceWith(scope, current, own.derive({ ...cloneData(current), ...values }), origin)
    },
    delete(scope, id, origin) {
      const current = resource.require(scope, id)
      const stub: Stub = { id, object: d.object, deleted: true }
      store.remove(scope, id)
      deleted.add(scope, stub)
      kernel.trace.append(`${d.object}.deleted` as 'customer.deleted', { id, account: scope.account, mode: scope.mode })
      own.emit('deleted', scope, current, origin)
      return { ...stub }
    },
    discard(scope, id) {
      store.remove(scope, id)
    },
    each(visit) {
      for (const [key, objects] of Object.entries(store.save())) {
        const cut = key.lastIndexOf('|')
        const scope: Scope = { account: key.slice(0, cut), mode: key.slice(cut + 1) as Scope['mode'] }
        for (const o of objects) visit(scope, o)
      }
    },
  }
  return resource
}
