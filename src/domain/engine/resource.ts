import { seal, sealedAnswer } from '#kernel/sealed.js'
import { emitSnapshot, type Origin } from '../events/emit-snapshot.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel-parts.js'
import type { Scope } from '../mode.js'
import { resourceMissing, tableError } from '../service-error.js'
import { applyParams } from './apply-params.js'
import { type BuildContext, buildObject } from './build-object.js'
import { type CatalogueView, fieldsOf } from './catalogue-view.js'
import { checkMetadata } from './checks.js'
import type { Fixed, ResourceDeclaration } from './declaration.js'
import type { Json } from './list.js'
import { createScopedStore, type ScopedStore, type ScopedStoreCopy } from './scoped-store.js'
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

/** What a resource spells from its declaration alone: worked out once per declaration, not per simulator. */
interface Spelled {
  readonly touch: ReadonlySet<string>
  readonly eventTypes: { readonly created: string; readonly updated: string; readonly deleted: string }
  readonly createdKind: 'customer.created'
  readonly deletedKind: 'customer.deleted'
  readonly collection: string
  readonly v2: boolean
  readonly noun: string
  readonly part: string
}
const spellings = new WeakMap<ResourceDeclaration, Spelled>()

function spelledOf(d: ResourceDeclaration): Spelled {
  let s = spellings.get(d)
  if (s === undefined) {
    // Made once: a name built per call is a new rope that every event and trace entry would keep.
    s = {
      touch: new Set(d.touch ?? []),
      eventTypes: {
        created: `${d.eventPrefix ?? d.object}.created`,
        updated: `${d.eventPrefix ?? d.object}.updated`,
        deleted: `${d.eventPrefix ?? d.object}.deleted`,
      },
      createdKind: `${d.object}.created` as 'customer.created',
      deletedKind: `${d.object}.deleted` as 'customer.deleted',
      collection: `/v1/${d.object.replace(/\./g, '/')}s`,
      v2: isV2(d),
      noun: nounOf(d),
      part: `${ENGINE_PART}${d.object}`,
    }
    spellings.set(d, s)
  }
  return s
}

/**
 * A resource's snapshot part. A class: a resource is made per fork (a property run), and its
 * methods on the prototype cost nothing per instance.
 */
class ResourcePart {
  constructor(
    private readonly store: ScopedStore<Json>,
    private readonly deleted: ScopedStore<Stub>,
  ) {}
  // An empty resource saves nothing: a snapshot does not depend on which resources a run
  // touched (a refused request may make one) but only on what they hold.
  save(): unknown {
    return this.store.isEmpty() && this.deleted.isEmpty()
      ? undefined
      : { objects: this.store.save(), deleted: this.deleted.save() }
  }
  load(data: unknown): void {
    const saved = data as { objects: Record<string, Json[]>; deleted: Record<string, Stub[]> }
    for (const objects of Object.values(saved.objects)) for (const o of objects) seal(o)
    this.store.load(saved.objects)
    this.deleted.load(saved.deleted)
  }
  copy(): unknown {
    return this.store.isEmpty() && this.deleted.isEmpty()
      ? undefined
      : { objects: this.store.copy(), deleted: this.deleted.copy() }
  }
  loadCopy(data: unknown): void {
    const copied = data as { objects: ScopedStoreCopy<Json>; deleted: ScopedStoreCopy<Stub> }
    this.store.loadCopy(copied.objects)
    this.deleted.loadCopy(copied.deleted)
  }
}

/**
 * Creates the store and operations of one declared resource (and registers its snapshot part).
 *
 * @example
 * const customers = createResource({ kernel, events, view, declaration, isEventType: (t) => known.has(t) })
 * customers.create({ account: 'acct_1', mode: 'test' }, { email: 'a@b.c' }, origin)
 */
export function createResource(options: ResourceOptions): Resource {
  return new EngineResource(options)
}

/**
 * One declared resource's objects and verbs. A class rather than an object of closures: a
 * resource is made per fork (a property run), and a dev-time transform that keeps function names
 * (tsx) names each closure at every creation.
 */
class EngineResource implements Resource {
  readonly declaration: ResourceDeclaration
  private readonly options: ResourceOptions
  private readonly kernel: Kernel
  private readonly spelled: Spelled
  private readonly store = createScopedStore<Json>()
  private readonly deleted = createScopedStore<Stub>()

  constructor(options: ResourceOptions) {
    this.options = options
    this.kernel = options.kernel
    this.declaration = options.declaration
    this.spelled = spelledOf(options.declaration)
    // Objects are replaced on update, never changed in place (sealed: the test suite freezes them):
    // a snapshot and the events share them, which keeps fork() of a large store and every event
    // cheap, and each object's JSON text is made once for every answer that returns it.
    if (!this.declaration.ephemeral) this.kernel.state.register(this.spelled.part, new ResourcePart(this.store, this.deleted))
  }

  /** `created`, `updated` and other touched fields: unix seconds on v1, ISO 8601 on v2. */
  private stamp(): number | string {
    return timestampOf(this.spelled.v2, this.kernel.clock.now)
  }

  /** Sets the declaration's touched fields (`updated` and the like) to now. */
  private touch(obj: Json): void {
    if (this.spelled.touch.size === 0) return
    const at = this.stamp()
    for (const f of this.spelled.touch) obj[f] = at
  }

  private emit(
    verb: 'created' | 'updated' | 'deleted',
    scope: Scope,
    obj: Json,
    origin: Origin,
    previous?: Record<string, unknown>,
  ) {
    const type = this.spelled.eventTypes[verb]
    // Every object emitted here is the stored one, sealed: the event holds it without a copy.
    if (this.options.isEventType(type)) emitSnapshot(this.options.events, type, scope, obj, origin, previous, true)
  }

  private finder(scope: Scope) {
    const find = this.options.find
    return find === undefined ? undefined : (id: string) => find(scope, id)
  }

  /** Sets the fields that follow from the others (`ResourceDeclaration.derive`). */
  private derive(obj: Json): Json {
    const d = this.declaration
    if (d.derive !== undefined) Object.assign(obj, d.derive(obj))
    return obj
  }

  private replaceWith(scope: Scope, current: Json, next: Json, origin: Origin): Json {
    const touch = this.spelled.touch
    const previous: Record<string, unknown> = {}
    for (const k of Object.keys(next)) {
      // A member still holding the current object's value (`set` shares them) is unchanged.
      const was = current[k]
      if (next[k] !== was && !touch.has(k) && JSON.stringify(next[k]) !== JSON.stringify(was)) previous[k] = was
    }
    if (Object.keys(previous).length === 0) return current
    this.touch(next)
    this.store.replace(scope, seal(next))
    this.emit('updated', scope, next, origin, previous)
    return next
  }

  get(scope: Scope, id: string): Json | undefined {
    return this.store.get(scope, id)
  }

  require(scope: Scope, id: string): Json {
    const o = this.store.get(scope, id)
    if (o === undefined) throw resourceMissing(this.spelled.noun, id)
    return o
  }

  build(scope: Scope, id: string, params: Readonly<Record<string, unknown>>): Json {
    const d = this.declaration
    const { view } = this.options
    const now = Math.floor(this.kernel.clock.now / 1000)
    const livemode = scope.mode === 'live'
    const ctx: BuildContext = { id, object: d.object, livemode, created: now, url: `${this.spelled.collection}/${id}` }
    const obj = buildObject(view, d.type, ctx, d.defaults?.({ id, created: now, livemode, scope, params })) as Json
    // A v2 `created` is a string in the catalogue, so the build left it empty.
    if (this.spelled.v2 && 'created' in obj) obj.created = this.stamp()
    applyParams(view, fieldsOf(view, d.type), obj, params, ctx, this.finder(scope))
    this.touch(obj)
    return obj
  }

  retrieve(scope: Scope, id: string): Json {
    const o = this.store.get(scope, id)
    // Answered again and again: its JSON text is made once.
    if (o !== undefined) return sealedAnswer(o)
    const stub = this.declaration.deleted === 'stub' ? this.deleted.get(scope, id) : undefined
    if (stub !== undefined) return stub as unknown as Json
    throw resourceMissing(this.spelled.noun, id)
  }

  requireParam(scope: Scope, id: string, param: string): Json {
    const o = this.store.get(scope, id)
    // A body parameter naming a missing object is a 400 (a path's is the 404 of `require`).
    if (o === undefined) throw tableError('resource_missing', { kind: this.spelled.noun, id }, { param, status: 400 })
    return o
  }

  list(scope: Scope): Json[] {
    return this.store.list(scope)
  }

  create(
    scope: Scope,
    params: Readonly<Record<string, unknown>>,
    origin: Origin,
    fixed: Fixed = {},
    chosenId: string | undefined = undefined,
  ): Json {
    const d = this.declaration
    checkMetadata(params.metadata)
    let id: string
    if (chosenId !== undefined) id = chosenId
    else if (d.callerId && typeof params.id === 'string' && params.id !== '') {
      id = params.id
      if (this.store.get(scope, id) !== undefined || this.deleted.get(scope, id) !== undefined) {
        const kind = `${d.object[0]?.toUpperCase()}${d.object.slice(1)}`
        throw tableError('resource_already_exists', { kind, id }, { param: 'id' })
      }
    } else id = this.kernel.ids.next(d.idPrefix, d.idLength ?? 24)
    const obj = this.build(scope, id, params)
    Object.assign(obj, typeof fixed === 'function' ? fixed(obj) : fixed)
    this.derive(obj)
    if (d.ephemeral) return obj
    this.store.add(scope, seal(obj))
    // Every declared resource records the ObjectChange shape customers declare in the trace kinds.
    this.kernel.trace.append(this.spelled.createdKind, { id, account: scope.account, mode: scope.mode })
    this.emit('created', scope, obj, origin)
    return obj
  }

  update(scope: Scope, id: string, params: Readonly<Record<string, unknown>>, origin: Origin, extra?: Fixed): Json {
    const d = this.declaration
    const { view } = this.options
    const current = this.require(scope, id)
    checkMetadata(params.metadata)
    // A shallow copy: params replace members (a nested merge copies the nested object), never
    // change the sealed object's members in place.
    const next = { ...current }
    const ctx: BuildContext = {
      id,
      object: d.object,
      livemode: scope.mode === 'live',
      created: Math.floor(this.kernel.clock.now / 1000),
      url: `${this.spelled.collection}/${id}`,
    }
    applyParams(view, fieldsOf(view, d.type), next, params, ctx, this.finder(scope))
    if (extra !== undefined) Object.assign(next, structuredClone(typeof extra === 'function' ? extra(next) : extra))
    this.derive(next)
    return this.replaceWith(scope, current, next, origin)
  }

  put(scope: Scope, id: string, values: Readonly<Record<string, unknown>>): Json {
    const next = { ...this.require(scope, id) }
    for (const k of Object.keys(values)) {
      const v = values[k]
      if (v === undefined) delete next[k]
      else next[k] = v
    }
    this.derive(next)
    this.store.replace(scope, seal(next))
    return next
  }

  insert(scope: Scope, obj: Json): Json {
    this.store.add(scope, seal(obj))
    return obj
  }

  set(scope: Scope, id: string, values: Readonly<Record<string, unknown>>, origin: Origin): Json {
    const current = this.require(scope, id)
    // A shallow copy: the members it keeps are the sealed object's, never changed in place.
    return this.replaceWith(scope, current, this.derive({ ...current, ...values }), origin)
  }

  delete(scope: Scope, id: string, origin: Origin): { id: string; object: string; deleted: true } {
    const current = this.require(scope, id)
    const stub: Stub = { id, object: this.declaration.object, deleted: true }
    this.store.remove(scope, id)
    this.deleted.add(scope, stub)
    this.kernel.trace.append(this.spelled.deletedKind, { id, account: scope.account, mode: scope.mode })
    this.emit('deleted', scope, current, origin)
    return { ...stub }
  }

  discard(scope: Scope, id: string): void {
    this.store.remove(scope, id)
  }

  each(visit: (scope: Scope, obj: Json) => void): void {
    for (const [key, objects] of Object.entries(this.store.save())) {
      const cut = key.lastIndexOf('|')
      const scope: Scope = { account: key.slice(0, cut), mode: key.slice(cut + 1) as Scope['mode'] }
      for (const o of objects) visit(scope, o)
    }
  }
}
