import type { Operation } from '#catalogue/types.js'
import { type CatalogueView, fieldsOf } from './catalogue-view.js'
import type { ResourceDeclaration, Verb } from './declaration.js'
import { isV2 } from './v2-object.js'

/** How the engine serves one catalogue operation. */
export interface Served {
  readonly operation: Operation
  /** `action`: an operation only a behaviour serves (`setupIntents.confirm`). */
  readonly verb: Verb | 'action'
  readonly declaration: ResourceDeclaration
  /** Placeholders naming parent objects (`customer` in `/v1/customers/:customer/tax_ids`). */
  readonly parents: readonly string[]
  /**
   * Parents that are fields of the object (set on create, checked on reads): the placeholder
   * (`id`, `customerId`) and the field named by the collection before it (`customers` → `customer`).
   */
  readonly parentFields: readonly { readonly param: string; readonly field: string }[]
  /** The placeholder of the object's own id (retrieve, update, delete). */
  readonly idParam: string | undefined
  /** List params that are also fields of the object: equality filters. */
  readonly filters: readonly string[]
  /**
   * List params that name a field in the plural (`lookup_keys` for `lookup_key`, `ids` for `id`):
   * the object's field must be one of the values given.
   */
  readonly memberFilters: readonly { readonly param: string; readonly field: string }[]
}

const VERBS: Readonly<Record<string, Verb>> = {
  create: 'create',
  retrieve: 'retrieve',
  update: 'update',
  del: 'delete',
  delete: 'delete',
  list: 'list',
  search: 'search',
}
const METHOD: Readonly<Record<Verb, Operation['method']>> = {
  create: 'POST',
  retrieve: 'GET',
  update: 'POST',
  delete: 'DELETE',
  list: 'GET',
  search: 'GET',
}
const NOT_FILTERS = new Set(['limit', 'starting_after', 'ending_before', 'expand', 'created', 'page', 'query', 'include'])

/**
 * The verb of an operation from its client name: `create`, `retrieve`, `update`, `del`, `list`,
 * `search`, or a nested one (`createTaxId`) whose noun is the path's last literal segment
 * (`tax_ids`), so `invoices.createPreview` (`/v1/invoices/create_preview`) is not a create.
 *
 * @example
 * verbOf({ name: 'customers.listTaxIds', method: 'GET', path: '/v1/customers/:customer/tax_ids', ... }) // 'list'
 */
export function verbOf(op: Operation): Verb | undefined {
  const last = op.name.slice(op.name.lastIndexOf('.') + 1)
  const m = /^(create|retrieve|update|del|delete|list|search)([A-Z]\w*)?$/.exec(last)
  if (m === null) return undefined
  const verb = VERBS[m[1] as string] as Verb
  if (op.method !== METHOD[verb]) return undefined
  const segs = op.path.split('/').filter((s) => s !== '')
  const literal = [...segs].reverse().find((s) => !s.startsWith(':')) ?? ''
  if (m[2] !== undefined) {
    const noun = m[2].replace(/[A-Z]/g, (c, i: number) => (i === 0 ? '' : '_') + c.toLowerCase())
    if (literal !== noun && literal !== `${noun}s` && `${literal}s` !== noun && literal !== noun.replace(/y$/, 'ies'))
      return undefined
  }
  const lastSeg = segs[segs.length - 1] ?? ''
  const onId = lastSeg.startsWith(':')
  if ((verb === 'retrieve' || verb === 'update' || verb === 'delete') !== onId) return undefined
  if (verb === 'search' && lastSeg !== 'search') return undefined
  return verb
}

/**
 * The object type an operation answers, `Deleted*` read as its live type
 * (`TestHelpers.DeletedTestClock`); a v2 delete answers the generic `V2.DeletedObject`, read as
 * the operation's resource.
 */
function typeOf(op: Operation): string | undefined {
  if (op.returns.type === 'V2.DeletedObject') return op.resource
  return op.returns.type?.replace(/(^|\.)Deleted(?=[A-Z])/, '$1')
}

/**
 * The field a parent placeholder stands for: the collection segment before it, singular.
 *
 * @example
 * parentFieldOf('/v1/customers/:customer/tax_ids', 'customer') // 'customer'
 */
export function parentFieldOf(path: string, param: string): string {
  const segs = path.split('/')
  const at = segs.indexOf(`:${param}`)
  const collection = at > 0 ? (segs[at - 1] ?? '') : ''
  return collection.replace(/ies$/, 'y').replace(/s$/, '')
}

/**
 * The declaration and verb serving an operation, from the operation list alone (no types): the
 * router uses it to know which operations the engine answers without loading the types table.
 *
 * @example
 * servingOf(operation('customers.search'), byType) // { declaration: customers, verb: 'search' }
 */
export function servingOf(
  op: Operation,
  byType: ReadonlyMap<string, ResourceDeclaration>,
): { declaration: ResourceDeclaration; verb: Verb | 'action' } | undefined {
  const type = typeOf(op)
  const declaration = type === undefined ? byType.get(op.resource) : byType.get(type)
  // A behaviour written for the operation by its owner (`billing.meters.listEventSummaries` on
  // meters) wins over a generic declaration of the type it answers.
  const owner = byType.get(op.resource)
  if (declaration?.generic && owner !== undefined && !owner.generic && owner.behaviours?.[op.name] !== undefined) {
    return { declaration: owner, verb: 'action' }
  }
  // A v2 operation is served only by a v2 declaration (and a v1 one by a v1 declaration).
  if (declaration !== undefined && isV2(declaration) === (op.api === 'v2')) {
    const crud = verbOf(op)
    if (crud !== undefined && (declaration.only?.includes(crud) ?? true)) return { declaration, verb: crud }
    if (declaration.behaviours?.[op.name] !== undefined) return { declaration, verb: 'action' }
    if (declaration.generic && op.method === 'GET' && op.returns.kind === 'list') return { declaration, verb: 'list' }
  }
  // An operation of a declared resource that answers another type (`invoices.listLineItems`
  // lists line items, `v2.core.eventDestinations.ping` answers an event) is served by that
  // resource's behaviour when it has one.
  return owner?.behaviours?.[op.name] === undefined ? undefined : { declaration: owner, verb: 'action' }
}

type Serving = NonNullable<ReturnType<typeof servingOf>>

const servingTables = new WeakMap<readonly Operation[], WeakMap<readonly ResourceDeclaration[], ReadonlyMap<string, Serving>>>()

/**
 * The declaration and verb of every operation a declaration list serves, by operation name, worked
 * out once per operation list and declaration list: the router and the engine's index both read it,
 * so a fresh process walks the catalogue's operations once.
 *
 * @example
 * servingsOf(operations(), servedDeclarations).get('customers.create')?.verb // 'create'
 */
export function servingsOf(
  ops: readonly Operation[],
  declarations: readonly ResourceDeclaration[],
): ReadonlyMap<string, Serving> {
  let byDeclarations = servingTables.get(ops)
  if (byDeclarations === undefined) {
    byDeclarations = new WeakMap()
    servingTables.set(ops, byDeclarations)
  }
  const known = byDeclarations.get(declarations)
  if (known !== undefined) return known
  const byType = byTypeOf(declarations)
  const out = new Map<string, Serving>()
  for (const op of ops) {
    const serving = servingOf(op, byType)
    if (serving !== undefined) out.set(op.name, serving)
  }
  byDeclarations.set(declarations, out)
  return out
}

/** Declarations by catalogue type name. */
export function byTypeOf(declarations: readonly ResourceDeclaration[]): Map<string, ResourceDeclaration> {
  return new Map(declarations.map((d) => [d.type, d]))
}

/**
 * Every catalogue operation the declared resources serve, by name. Built once per catalogue and
 * declaration list, so no request pays for the catalogue's size; which declaration and verb serve
 * an operation comes from the operation list alone, and the fields that need the object's type
 * (filters, parent fields) are worked out when that operation is first run, so the first request
 * of a fresh process reads the types of its own resource, not of every declared one.
 *
 * @example
 * indexOperations(view, declarations).get('customers.list')?.filters // ['email', ...]
 */
export function indexOperations(view: CatalogueView, declarations: readonly ResourceDeclaration[]): Map<string, Served> {
  const ops = view.operations()
  const servings = servingsOf(ops, declarations)
  const out = new Map<string, Served>()
  for (const op of ops) {
    const serving = servings.get(op.name)
    if (serving !== undefined) out.set(op.name, new ServedOperation(view, op, serving.declaration, serving.verb))
  }
  return out
}

/** One served operation; its type-dependent fields are read from the catalogue on first use. */
class ServedOperation implements Served {
  readonly parents: readonly string[]
  readonly idParam: string | undefined
  #typed: Pick<Served, 'parentFields' | 'filters' | 'memberFilters'> | undefined

  constructor(
    private readonly view: CatalogueView,
    readonly operation: Operation,
    readonly declaration: ResourceDeclaration,
    readonly verb: Verb | 'action',
  ) {
    const onId = verb === 'retrieve' || verb === 'update' || verb === 'delete' || verb === 'action'
    this.parents = onId ? operation.pathParams.slice(0, -1) : [...operation.pathParams]
    this.idParam = onId ? operation.pathParams.at(-1) : undefined
  }

  get parentFields(): Served['parentFields'] {
    return this.typed().parentFields
  }

  get filters(): Served['filters'] {
    return this.typed().filters
  }

  get memberFilters(): Served['memberFilters'] {
    return this.typed().memberFilters
  }

  private typed(): Pick<Served, 'parentFields' | 'filters' | 'memberFilters'> {
    if (this.#typed !== undefined) return this.#typed
    const { view, operation: op, verb } = this
    const objectFields = fieldsOf(view, this.declaration.type)
    const params = verb === 'list' && op.params !== undefined ? Object.keys(fieldsOf(view, op.params)) : []
    this.#typed = {
      filters: params.filter((k) => !NOT_FILTERS.has(k) && k in objectFields),
      memberFilters: params
        .filter((k) => k.endsWith('s') && !(k in objectFields) && k.slice(0, -1) in objectFields)
        .map((param) => ({ param, field: param.slice(0, -1) })),
      parentFields:
        verb === 'action'
          ? []
          : this.parents.map((param) => ({ param, field: parentFieldOf(op.path, param) })).filter((p) => p.field in objectFields),
    }
    return this.#typed
  }
}
