import { isIncludable } from '#catalogue/includable.js'
import { emitSnapshot, type Origin } from '../events/emit-snapshot.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel-parts.js'
import type { Scope } from '../mode.js'
import { resourceMissing } from '../service-error.js'
import { buildObject, emptyOf } from './build-object.js'
import { type CatalogueView, fieldsOf, resolve } from './catalogue-view.js'
import type { BehaviourEnv, Fixed, OperationCall, ResourceDeclaration } from './declaration.js'
import { type DeclarationTables, objectTypesOf, servedIndexOf, tablesOf } from './declaration-tables.js'
import { isEventType } from './event-types.js'
import { expand } from './expand.js'
import type { Json } from './list.js'
import { parentFieldOf, type Served } from './operation-index.js'
import { checkReferences, type Reference, referencesOf } from './reference-checks.js'
import { createResource, ENGINE_PART, type Resource } from './resource.js'
import { runVerb } from './verbs.js'
import { withheldOf, withhold } from './withhold.js'

/**
 * The resource engine: serves every CRUD operation of the declared resources from the catalogue
 * (create with every declared field, retrieve, update with metadata merge and
 * `previous_attributes`, delete, list, search), expands ids into objects, and lets behaviours wrap
 * any of its operations.
 *
 * @example
 * const engine = createEngine({ kernel, events, view, declarations, ports })
 * engine.run('customers.create', { scope, origin, path: {}, params: { email: 'a@b.c' } })
 * engine.resource('customer').list(scope)
 */
export interface Engine {
  /** The operation names the engine serves (declared resources' CRUD operations). */
  served(): ReadonlyMap<string, Served>
  serves(operation: string): boolean
  /** Runs an operation: its behaviour if the declaration has one, else the engine's verb. */
  run(operation: string, call: OperationCall): unknown
  /** A declared resource by `object` value (`customer`). */
  resource(object: string): Resource
  /** The object with this id in a scope, from any declared resource (stored, or read by its `find`). */
  find(scope: Scope, id: string): Record<string, unknown> | undefined
  /** A copy of an answer with `expand` paths replaced by the objects their ids name. */
  expand(scope: Scope, answer: unknown, paths: readonly string[]): unknown
  /**
   * An answer as the API shows it: stored includable fields `expand[]` does not name left out
   * (see `ResourceDeclaration.withheld`), then `expand` applied.
   */
  render(scope: Scope, answer: unknown, paths: readonly string[]): unknown
  /**
   * Emits a snapshot event of an object (`treasury.inbound_transfer.succeeded`) where the
   * catalogue has that event type; for behaviours whose change has an event of its own.
   */
  emit(type: string, scope: Scope, object: Json, origin: Origin): void
  /** The virtual time in unix seconds (what `created` and other timestamps hold). */
  now(): number
  /** A new object of any catalogue object type with every non-optional field (not stored). */
  build(type: string, object: string, scope: Scope, overrides?: Readonly<Record<string, unknown>>): Json
  /** The catalogue the engine serves from (object types' fields, for checks such as search fields). */
  readonly view: CatalogueView
}

export interface EngineOptions<P> {
  readonly kernel: Kernel
  readonly events: EventStore
  readonly view: CatalogueView
  readonly declarations: readonly ResourceDeclaration<P>[]
  /** Handed to behaviours (the service's other areas). */
  readonly ports: P
}

/**
 * Creates the resource engine of one service (see {@link Engine}).
 *
 * @example
 * const engine = createEngine({ kernel, events, view: catalogueView, declarations, ports: {} })
 */
export function createEngine<P>(options: EngineOptions<P>): Engine {
  return new ResourceEngine(options)
}

type Lookup = (d: ResourceDeclaration, scope: Scope, id: string) => Record<string, unknown> | undefined

/** The engine of one service: its made resources over the shared declaration tables. */
class ResourceEngine<P> implements Engine {
  readonly view: CatalogueView
  readonly #kernel: Kernel
  readonly #events: EventStore
  readonly #declarations: readonly ResourceDeclaration<P>[]
  readonly #ports: P
  readonly #resources = new Map<string, Resource>()
  #index: Map<string, Served> | undefined
  readonly #withheld: ReturnType<typeof withheldOf>
  readonly #tables: DeclarationTables
  // What every behaviour is handed besides its call: the same two members each time, made once.
  readonly #env: BehaviourEnv<P>
  /** An object of a declared resource by id (caller-chosen ids have no prefix to find them by). */
  readonly #lookup: Lookup = (d, scope, id) => this.resource(d.object).get(scope, id)

  constructor(options: EngineOptions<P>) {
    const { kernel, events, view, declarations, ports } = options
    this.view = view
    this.#kernel = kernel
    this.#events = events
    this.#declarations = declarations
    this.#ports = ports
    this.#withheld = withheldOf(declarations)
    this.#tables = tablesOf(view, declarations as readonly ResourceDeclaration[])
    this.#env = { engine: this, ports }
    // Called for parts not registered yet, so only for resources not made yet.
    kernel.state.provide(ENGINE_PART, (object) => void this.#make(object))
  }

  served(): Map<string, Served> {
    this.#index ??= servedIndexOf(this.view, this.#declarations)
    return this.#index
  }

  serves(operation: string): boolean {
    return this.served().has(operation)
  }

  run(operation: string, call: OperationCall): unknown {
    const s = this.served().get(operation)
    if (s === undefined) throw new Error(`engine: ${operation} is not an engine operation`)
    // Every object the call names must exist in its scope, checked before anything changes.
    this.#checkParents(s, call)
    if (s.operation.method === 'POST') {
      const refs = this.#tables.references.get(operation) ?? this.#referencesFor(s)
      if (refs.length > 0) checkReferences(refs, call.params, this.#lookup, call.scope)
    }
    const resource = this.resource(s.declaration.object)
    const behaviour = s.declaration.behaviours?.[operation]
    // No `next` at all for an operation without behaviour: the verb runs directly.
    if (behaviour === undefined) return runVerb(s, resource, call, undefined)
    const next: Next = runNext.bind(undefined, s, resource, call)
    return behaviour(call, next, this.#env)
  }

  resource(object: string): Resource {
    const r = this.#resources.get(object) ?? this.#make(object)
    if (r === undefined) throw new Error(`engine: no declared resource '${object}'`)
    return r
  }

  find(scope: Scope, id: string): Record<string, unknown> | undefined {
    const cut = id.lastIndexOf('_')
    if (cut <= 0) return undefined
    // Several resources may share a prefix (v1 and v2 meter events; a generic one and a written one).
    // Nothing to find in a resource not made yet, unless a fork holds its objects for it.
    for (const d of this.#tables.byPrefix.get(id.slice(0, cut)) ?? []) {
      const r =
        this.#resources.get(d.object) ??
        (this.#kernel.state.holds(`${ENGINE_PART}${d.object}`) ? this.#make(d.object) : undefined)
      const found = r?.get(scope, id)
      if (found !== undefined) return found
    }
    return undefined
  }

  expand(scope: Scope, answer: unknown, paths: readonly string[]): unknown {
    return expand(
      answer,
      paths,
      (id) => this.find(scope, id),
      (object, field) => this.#include(scope, object, field),
    )
  }

  render(scope: Scope, answer: unknown, paths: readonly string[]): unknown {
    const shown = withhold(answer, paths, this.#withheld)
    return paths.length === 0 ? shown : this.expand(scope, shown, paths)
  }

  emit(type: string, scope: Scope, object: Json, origin: Origin): void {
    if (isEventType(this.view, type)) emitSnapshot(this.#events, type, scope, object, origin, undefined, true)
  }

  now(): number {
    return Math.floor(this.#kernel.clock.now / 1000)
  }

  build(type: string, object: string, scope: Scope, overrides: Readonly<Record<string, unknown>> = {}): Json {
    const id = typeof overrides.id === 'string' ? overrides.id : this.#kernel.ids.next(idPrefixOf(object), 24)
    const declared = this.#declarations.find((d) => d.type === type)
    const r = declared === undefined ? undefined : this.resource(declared.object)
    const now = Math.floor(this.#kernel.clock.now / 1000)
    const base =
      r?.build(scope, id, {}) ??
      (buildObject(this.view, type, {
        id,
        object,
        livemode: scope.mode === 'live',
        created: now,
        url: `/v1/${object}s/${id}`,
      }) as Json)
    return Object.assign(base, overrides)
  }

  /** The parameters of an operation that name other objects, worked out on its first call. */
  #referencesFor(s: Served): readonly Reference[] {
    const view = this.view
    const refs = referencesOf(view, this.#declarations, s.operation.params, s.declaration.type, () => objectTypesOf(view))
    this.#tables.references.set(s.operation.name, refs)
    return refs
  }

  /** The value of an includable field of a declared resource's object (see `ResourceDeclaration.includes`). */
  #include(scope: Scope, object: Record<string, unknown>, field: string): unknown {
    const view = this.view
    const d = typeof object.object === 'string' ? this.#tables.byObject.get(object.object) : undefined
    if (d === undefined) return undefined
    const declared = fieldsOf(view, d.type)[field]
    if (declared === undefined || !isIncludable(field, declared)) return undefined
    const includer = d.includes?.[field]
    if (includer !== undefined) return includer(object as Json, { engine: this, ports: this.#ports, scope })
    if (declared.nullable) return null
    const ctx = { id: String(object.id), object: d.object, livemode: scope.mode === 'live', created: 0, url: '' }
    return resolve(view, declared.shape).t === 'any' ? undefined : emptyOf(view, declared.shape, field, ctx, 1)
  }

  /** The parent objects a nested path names (`/v1/customers/:customer/tax_ids`): 404 when missing. */
  #checkParents(s: Served, call: OperationCall): void {
    for (const p of s.parents) {
      const parent = call.path[p] ?? ''
      if (this.find(call.scope, parent) === undefined) throw resourceMissing(parentFieldOf(s.operation.path, p), parent, p)
    }
  }

  // A resource (its stores, its snapshot part) is made on first use: a simulation touches a few
  // of the hundred-odd declared ones, and a simulator (or a fork) is made for every property run.
  #make(object: string): Resource | undefined {
    const d = this.#tables.byObject.get(object)
    if (d === undefined) return undefined
    const view = this.view
    const r = createResource({
      kernel: this.#kernel,
      events: this.#events,
      view,
      declaration: d,
      isEventType(type) {
        return isEventType(view, type)
      },
      find: (scope, id) => this.find(scope, id),
    })
    this.#resources.set(d.object, r)
    return r
  }
}

type Next = (params?: Readonly<Record<string, unknown>>, fixed?: Fixed) => unknown

/** A behaviour's `next`: the engine's verb, with other params when given (bound per call, not a closure). */
function runNext(
  s: Served,
  resource: Resource,
  call: OperationCall,
  params?: Readonly<Record<string, unknown>>,
  fixed?: Fixed,
): unknown {
  return runVerb(s, resource, params === undefined ? call : { ...call, params }, fixed)
}

/** An id prefix for an object value without a declaration (`issuing.authorization` → `issuin`). */
function idPrefixOf(object: string): string {
  return object.replace(/[^a-z]/g, '').slice(0, 6) || 'obj'
}

export type { Origin }
