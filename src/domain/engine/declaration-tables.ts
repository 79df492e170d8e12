import type { CatalogueView } from './catalogue-view.js'
import type { ResourceDeclaration } from './declaration.js'
import { indexOperations, type Served } from './operation-index.js'
import type { Reference } from './reference-checks.js'

/**
 * What an engine reads of its declarations and catalogue and never changes: the declarations by
 * object and by id prefix, and each operation's reference parameters once worked out. Shared by
 * every engine over the same view and declarations, so a simulator (a fork per property run)
 * builds none of it again.
 *
 * @example
 * const { byObject } = tablesOf(view, declarations)
 */
export interface DeclarationTables {
  readonly byObject: ReadonlyMap<string, ResourceDeclaration>
  /** Declarations per id prefix, the later declaration first (as when the last finder won). */
  readonly byPrefix: ReadonlyMap<string, readonly ResourceDeclaration[]>
  readonly references: Map<string, readonly Reference[]>
}

const tables = new WeakMap<CatalogueView, WeakMap<readonly ResourceDeclaration[], DeclarationTables>>()

/**
 * The declaration tables of a view and declaration list, built on first ask and shared after.
 *
 * @example
 * tablesOf(view, declarations).byPrefix.get('cus')
 */
export function tablesOf(view: CatalogueView, declarations: readonly ResourceDeclaration[]): DeclarationTables {
  let byDeclarations = tables.get(view)
  if (byDeclarations === undefined) {
    byDeclarations = new WeakMap()
    tables.set(view, byDeclarations)
  }
  const known = byDeclarations.get(declarations)
  if (known !== undefined) return known
  const byPrefix = new Map<string, ResourceDeclaration[]>()
  for (const d of declarations) {
    for (const prefix of [d.idPrefix, ...(d.otherPrefixes ?? [])]) byPrefix.set(prefix, [d, ...(byPrefix.get(prefix) ?? [])])
  }
  const made = { byObject: new Map(declarations.map((d) => [d.object, d])), byPrefix, references: new Map() }
  byDeclarations.set(declarations, made)
  return made
}

const indexes = new WeakMap<CatalogueView, WeakMap<readonly ResourceDeclaration[], Map<string, Served>>>()

/**
 * The operations a view and declaration list serve, indexed on first ask and shared by every
 * engine over them.
 *
 * @example
 * servedIndexOf(view, declarations).has('customers.create') // true
 */
export function servedIndexOf<P>(view: CatalogueView, declarations: readonly ResourceDeclaration<P>[]): Map<string, Served> {
  let byDeclarations = indexes.get(view)
  if (byDeclarations === undefined) {
    byDeclarations = new WeakMap()
    indexes.set(view, byDeclarations)
  }
  const index = byDeclarations.get(declarations) ?? indexOperations(view, declarations)
  byDeclarations.set(declarations, index)
  return index
}

const objectTypeLists = new WeakMap<CatalogueView, readonly string[]>()

/**
 * The object types operations answer (returned, listed or searched), read once per catalogue.
 *
 * @example
 * objectTypesOf(view).includes('Customer') // true
 */
export function objectTypesOf(view: CatalogueView): readonly string[] {
  const known = objectTypeLists.get(view)
  if (known !== undefined) return known
  const out = new Set<string>()
  for (const op of view.operations()) if ('type' in op.returns && op.returns.type !== undefined) out.add(op.returns.type)
  const list = [...out].sort()
  objectTypeLists.set(view, list)
  return list
}
