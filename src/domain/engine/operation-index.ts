import type { Operation } from '../../catalogue/types.js'
import { type CatalogueView, fieldsOf } from './catalogue-view.js'
import type { ResourceDeclaration, Verb } from './declaration.js'

/** How the engine serves one catalogue operation. */
export interface Served {
  readonly operation: Operation
  readonly verb: Verb
  readonly declaration: ResourceDeclaration
  /** Placeholders naming parent objects (`customer` in `/v1/customers/:customer/tax_ids`). */
  readonly parents: readonly string[]
  /** The parents that are also fields of the object (set on create, checked on reads). */
  readonly parentFields: readonly string[]
  /** The placeholder of the object's own id (retrieve, update, delete). */
  readonly idParam: string | undefined
  /** List params that are also fields of the object: equality filters. */
  readonly filters: readonly string[]
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
const NOT_FILTERS = new Set(['limit', 'starting_after', 'ending_before', 'expand', 'created', 'page', 'query'])

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

function typeOf(op: Operation): string | undefined {
  const t = op.returns.type
  if (t === undefined) return undefined
  return t.startsWith('Deleted') ? t.slice('Deleted'.length) : t
}

/**
 * Every catalogue operation the declared resources serve, by name. Built once per catalogue and
 * declaration list, so no request pays for the catalogue's size.
 */
export function indexOperations(view: CatalogueView, declarations: readonly ResourceDeclaration[]): Map<string, Served> {
  const byType = new Map(declarations.map((d) => [d.type, d]))
  const out = new Map<string, Served>()
  for (const op of view.operations()) {
    if (op.api !== 'v1') continue
    const declaration = byType.get(typeOf(op) ?? '') ?? byType.get(op.resource)
    if (declaration === undefined) continue
    const verb = verbOf(op)
    if (verb === undefined) continue
    const onId = verb === 'retrieve' || verb === 'update' || verb === 'delete'
    const parents = onId ? op.pathParams.slice(0, -1) : [...op.pathParams]
    const objectFields = fieldsOf(view, declaration.type)
    const filters =
      verb === 'list' && op.params !== undefined
        ? Object.keys(fieldsOf(view, op.params)).filter((k) => !NOT_FILTERS.has(k) && k in objectFields)
        : []
    const parentFields = parents.filter((p) => p in objectFields)
    out.set(op.name, {
      operation: op,
      verb,
      declaration,
      parents,
      parentFields,
      idParam: onId ? op.pathParams.at(-1) : undefined,
      filters,
    })
  }
  return out
}
