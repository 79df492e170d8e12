import { isIncludable } from '#catalogue/includable.js'
import { emitSnapshot, type Origin } from '../events/emit-snapshot.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel-parts.js'
import type { Scope } from '../mode.js'
import { resourceMissing } from '../service-error.js'
import { buildObject, emptyOf } from './build-object.js'
import { type CatalogueView, fieldsOf, resolve } from './catalogue-view.js'
import type { BehaviourEnv, Fixed, OperationCall, ResourceDeclaration } from './declaration.js'
import { expand } from './expand.js'
import type { Json } from './list.js'
import { indexOperations, parentFieldOf, type Served } from './operation-index.js'
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

const eventSets = new WeakMap<CatalogueView, ReadonlySet<string>>()

/**
 * The snapshot event types of the catalogue (the `type` literals of the `Event` union), read once:
 * every member's type resolved, so only for a type whose member is not named after it.
 *
 * @example
 * eventTypesOf(catalogueView).has('invoiceitem.created') // true
 */
function eventTypesOf(view: CatalogueView): ReadonlySet<string> {
  const known = eventSets.get(view)
  if (known !== undefined) return known
  const out = new Set<string>()
  for (const name of eventMembersOf(view)) {
    const literal = eventLiteralOf(view, name)
    if (literal !== undefined) out.add(literal)
  }
  eventSets.set(view, out)
  return out
}

const eventMembers = new WeakMap<CatalogueView, ReadonlySet<string>>()
const eventChecks = new WeakMap<CatalogueView, Map<string, boolean>>()

/** The type names of the `Event` union's members (`CustomerCreatedEvent`), from its one shape. */
function eventMembersOf(view: CatalogueView): ReadonlySet<string> {
  const known = eventMembers.get(view)
  if (known !== undefined) return known
  const event = view.typeShape('Event')
  const out = new Set<string>()
  for (const member of event?.t === 'union' ? event.of : []) if (member.t === 'ref') out.add(member.name)
  eventMembers.set(view, out)
  return out
}

/** The `type` literal of one event member type. */
function eventLiteralOf(view: CatalogueView, name: string): string | undefined {
  const s = resolve(view, { t: 'ref', name })
  const type = s.t === 'object' ? s.fields.type?.shape : undefined
  return type?.t === 'literal' && typeof type.value === 'string' ? type.value : undefined
}

/**
 * Whether the catalogue has a snapshot event of this type. Its member is looked up by the name
 * the type spells (`customer.created` → `CustomerCreatedEvent`), so an emit reads one event's type
 * instead of all of them (which a fresh process's first create would pay); a type spelled
 * otherwise (`invoiceitem.created`) falls back to the whole list.
 *
 * @example
 * isEventType(catalogueView, 'customer.created') // true
 * isEventType(catalogueView, 'customer.archived') // false
 */
export function isEventType(view: CatalogueView, type: string): boolean {
  let checked = eventChecks.get(view)
  if (checked === undefined) {
    checked = new Map()
    eventChecks.set(view, checked)
  }
  const known = checked.get(type)
  if (known !== undefined) return known
  const name = `${type.replace(/(?:^|[._])([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Event`
  const named = eventMembersOf(view).has(name) && eventLiteralOf(view, name) === type
  const is = named || eventTypesOf(view).has(type)
  checked.set(type, is)
  return is
}

const indexes = new WeakMap<CatalogueView, WeakMap<readonly ResourceDeclaration[], Map<string, Served>>>()

/**
 * What an engine reads of its declarations and catalogue and never changes: the declarations by
 * object and by id prefix, and each operation's reference parameters once worked out. Shared by
 * every engine over the same view and declarations, so a simulator (a fork per property run)
 * builds none of it again.
 */
interface DeclarationTables {
  readonly byObject: ReadonlyMap<string, ResourceDeclaration>
  /** Declarations per id prefix, the later declaration first (as when the last finder won). */
  readonly byPrefix: ReadonlyMap<string, readonly ResourceDeclaration[]>
  readonly references: Map<string, readonly Reference[]>
}

const tables = new WeakMap<CatalogueView, WeakMap<readonly ResourceDeclaration[], DeclarationTables>>()

function tablesOf(view: CatalogueView, declarations: readonly ResourceDeclaration[]): DeclarationTables {
  let byDeclarations = tables.get(view)
  if (byDeclarations === undefined) {
    byDeclarations = new WeakMap()
    tables.set(view, byDeclarations)
  }
  const known = byDeclarations.get(declarations)
  if (known !== undefined) return known
  const byPrefix = new Map<string, ResourceDeclaration[]>()
  for (const d of declarations) byPrefix.set(d.idPrefix, [d, ...(byPrefix.get(d.idPrefix) ?? [])])
  const made = { byObject: new Map(declarations.map((d) => [d.object, d])), byPrefix, references: new Map() }
  byDeclarations.set(declarations, made)
  return made
}

export function createEngine<P>(options: EngineOptions<P>): Engine {
  const { kernel, events, view, declarations, ports } = options
  const resources = new Map<string, Resource>()
  let index: Map<string, Served> | undefined
  const withheld = withheldOf(declarations)
  const { byObject, byPrefix, references } = tablesOf(view, declarations as readonly ResourceDeclaration[])

  function served(): Map<string, Served> {
    if (index !== undefined) return index
    let byDeclarations = indexes.get(view)
    if (byDeclarations === undefined) {
      byDeclarations = new WeakMap()
      indexes.set(view, byDeclarations)
    }
    index = byDeclarations.get(declarations) ?? indexOperations(view, declarations)
    byDeclarations.set(declarations, index)
    return index
  }

  const engine: Engine = {
    view,
    served,
    serves: (operation) => served().has(operation),
    run(operation, call) {
      const s = served().get(operation)
      if (s === undefined) throw new Error(`engine: ${operation} is not an engine operation`)
      // Every object the call names must exist in its scope, checked before anything changes.
      checkParents(s, call)
      if (s.operation.method === 'POST') {
        const refs = references.get(operation) ?? referencesFor(s)
        if (refs.length > 0) checkReferences(refs, call.params, lookup, call.scope)
      }
      const resource = engine.resource(s.declaration.object)
      const behaviour = s.declaration.behaviours?.[operation]
      // No `next` at all for an operation without behaviour: the verb runs directly.
      if (behaviour === undefined) return runVerb(s, resource, engine, call, undefined)
      const next: Next = runNext.bind(undefined, s, resource, engine, call)
      return behaviour(call, next, env)
    },
    resource(object) {
      const r = resources.get(object) ?? make(object)
      if (r === undefined) throw new Error(`engine: no declared resource '${object}'`)
      return r
    },
    find(scope, id) {
      const cut = id.lastIndexOf('_')
      if (cut <= 0) return undefined
      // Several resources may share a prefix (v1 and v2 meter events; a generic one and a written one).
      // Nothing to find in a resource not made yet, unless a fork holds its objects for it.
      for (const d of byPrefix.get(id.slice(0, cut)) ?? []) {
        const r = resources.get(d.object) ?? (kernel.state.holds(`${ENGINE_PART}${d.object}`) ? make(d.object) : undefined)
        const found = r?.get(scope, id)
        if (found !== undefined) return found
      }
      return undefined
    },
    expand(scope, answer, paths) {
      return expand(
        answer,
        paths,
        (id) => engine.find(scope, id),
        (object, field) => include(scope, object, field),
      )
    },
    render(scope, answer, paths) {
      const shown = withhold(answer, paths, withheld)
      return paths.length === 0 ? shown : engine.expand(scope, shown, paths)
    },
    emit(type, scope, object, origin) {
      if (isEventType(view, type)) emitSnapshot(events, type, scope, object, origin, undefined, true)
    },
    now: () => Math.floor(kernel.clock.now / 1000),
    build(type, object, scope, overrides = {}) {
      const id = typeof overrides.id === 'string' ? overrides.id : kernel.ids.next(idPrefixOf(object), 24)
      const declared = declarations.find((d) => d.type === type)
      const r = declared === undefined ? undefined : engine.resource(declared.object)
      const now = Math.floor(kernel.clock.now / 1000)
      const base =
        r?.build(scope, id, {}) ??
        (buildObject(view, type, {
          id,
          object,
          livemode: scope.mode === 'live',
          created: now,
          url: `/v1/${object}s/${id}`,
        }) as Json)
      return Object.assign(base, overrides)
    },
  }
  // What every behaviour is handed besides its call: the same two members each time, made once.
  const env: BehaviourEnv<P> = { engine, ports }
  /** The parameters of an operation that name other objects, worked out on its first call. */
  function referencesFor(s: Served): readonly Reference[] {
    const refs = referencesOf(view, declarations, s.operation.params, s.declaration.type, () => objectTypesOf(view))
    references.set(s.operation.name, refs)
    return refs
  }
  /** The value of an includable field of a declared resource's object (see `ResourceDeclaration.includes`). */
  function include(scope: Scope, object: Record<string, unknown>, field: string): unknown {
    const d = typeof object.object === 'string' ? byObject.get(object.object) : undefined
    if (d === undefined) return undefined
    const declared = fieldsOf(view, d.type)[field]
    if (declared === undefined || !isIncludable(field, declared)) return undefined
    const includer = d.includes?.[field]
    if (includer !== undefined) return includer(object as Json, { engine, ports, scope })
    if (declared.nullable) return null
    const ctx = { id: String(object.id), object: d.object, livemode: scope.mode === 'live', created: 0, url: '' }
    return resolve(view, declared.shape).t === 'any' ? undefined : emptyOf(view, declared.shape, field, ctx, 1)
  }
  /** An object of a declared resource by id (caller-chosen ids have no prefix to find them by). */
  function lookup(d: ResourceDeclaration, scope: Scope, id: string): Record<string, unknown> | undefined {
    return engine.resource(d.object).get(scope, id)
  }
  /** The parent objects a nested path names (`/v1/customers/:customer/tax_ids`): 404 when missing. */
  function checkParents(s: Served, call: OperationCall): void {
    for (const p of s.parents) {
      const parent = call.path[p] ?? ''
      if (engine.find(call.scope, parent) === undefined) throw resourceMissing(parentFieldOf(s.operation.path, p), parent, p)
    }
  }
  // A resource (its stores, its snapshot part) is made on first use: a simulation touches a few
  // of the hundred-odd declared ones, and a simulator (or a fork) is made for every property run.
  function make(object: string): Resource | undefined {
    const d = byObject.get(object)
    if (d === undefined) return undefined
    const r = createResource({
      kernel,
      events,
      view,
      declaration: d,
      isEventType(type) {
        return isEventType(view, type)
      },
      find(scope, id) {
        return engine.find(scope, id)
      },
    })
    resources.set(d.object, r)
    return r
  }
  // Called for parts not registered yet, so only for resources not made yet.
  kernel.state.provide(ENGINE_PART, (object) => void make(object))
  return engine
}

type Next = (params?: Readonly<Record<string, unknown>>, fixed?: Fixed) => unknown

/** A behaviour's `next`: the engine's verb, with other params when given (bound per call, not a closure). */
function runNext(
  s: Served,
  resource: Resource,
  engine: Engine,
  call: OperationCall,
  params?: Readonly<Record<string, unknown>>,
  fixed?: Fixed,
): unknown {
  return runVerb(s, resource, engine, params === undefined ? call : { ...call, params }, fixed)
}

const objectTypeLists = new WeakMap<CatalogueView, readonly string[]>()

/** The object types operations answer (returned, listed or searched), read once per catalogue. */
function objectTypesOf(view: CatalogueView): readonly string[] {
  const known = objectTypeLists.get(view)
  if (known !== undefined) return known
  const out = new Set<string>()
  for (const op of view.operations()) if ('type' in op.returns && op.returns.type !== undefined) out.add(op.returns.type)
  const list = [...out].sort()
  objectTypeLists.set(view, list)
  return list
}

/** An id prefix for an object value without a declaration (`issuing.authorization` → `issuin`). */
function idPrefixOf(object: string): string {
  return object.replace(/[^a-z]/g, '').slice(0, 6) || 'obj'
}

export type { Origin }
