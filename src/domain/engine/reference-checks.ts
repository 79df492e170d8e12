import type { Shape } from '#catalogue/types.js'
import type { Scope } from '../mode.js'
import { tableError } from '../service-error.js'
import { isPlainObject } from './apply-params.js'
import { type CatalogueView, fieldsOf, resolve } from './catalogue-view.js'
import type { ResourceDeclaration } from './declaration.js'

/** A parameter that names another object: where it sits in the params and what it must name. */
export interface Reference {
  /** Keys from the params' root; `[]` stands for every element of an array. */
  readonly path: readonly string[]
  readonly declaration: ResourceDeclaration
}

/**
 * Types whose ids are not looked up in the caller's scope: a connected account belongs to its
 * platform, not to the account that names it, so its references are checked by the accounts area.
 */
const OTHER_SCOPE = new Set(['Account'])

/** Params of this depth or deeper are not walked (the catalogue's param types end well before). */
const MAX_DEPTH = 6

const dictionaries = new WeakMap<CatalogueView, WeakMap<readonly ResourceDeclaration[], Map<string, ResourceDeclaration>>>()

/**
 * The declared resource a field name stands for across the catalogue: every returned object type
 * whose field of that name is an expandable id of one declared type (`price` → prices, `test_clock`
 * → test clocks). A name that stands for two declared types (or none) names nothing.
 */
function dictionaryOf(
  view: CatalogueView,
  declarations: readonly ResourceDeclaration[],
  types: readonly string[],
): Map<string, ResourceDeclaration> {
  let byDeclarations = dictionaries.get(view)
  if (byDeclarations === undefined) {
    byDeclarations = new WeakMap()
    dictionaries.set(view, byDeclarations)
  }
  const known = byDeclarations.get(declarations)
  if (known !== undefined) return known
  // Accounts count when telling whether a name is ambiguous (`account` also names a financial
  // connections account), and are left out only at the end.
  const byType = new Map(declarations.map((d) => [d.type, d]))
  const seen = new Map<string, Set<ResourceDeclaration>>()
  const generated = view.referenceNames?.()
  if (generated !== undefined) {
    for (const [name, targets] of Object.entries(generated)) {
      const set = new Set(targets.flatMap((t) => byType.get(t) ?? []))
      if (set.size > 0) seen.set(name, set)
    }
    return finish(byDeclarations, declarations, seen)
  }
  // Returned types and the types nested in them (`Discount.coupon` names a coupon too).
  const visited = new Set<string>()
  const queue = [...types]
  for (let type = queue.shift(); type !== undefined; type = queue.shift()) {
    if (visited.has(type)) continue
    visited.add(type)
    for (const [name, field] of Object.entries(fieldsOf(view, type))) {
      for (const target of expandTargets(field.shape)) {
        const d = byType.get(target)
        if (d === undefined) continue
        const set = seen.get(name) ?? new Set()
        set.add(d)
        seen.set(name, set)
      }
      queue.push(...refsIn(field.shape))
    }
  }
  return finish(byDeclarations, declarations, seen)
}

/** The names that stand for exactly one declared resource, kept for the declaration list. */
function finish(
  cache: WeakMap<readonly ResourceDeclaration[], Map<string, ResourceDeclaration>>,
  declarations: readonly ResourceDeclaration[],
  seen: ReadonlyMap<string, ReadonlySet<ResourceDeclaration>>,
): Map<string, ResourceDeclaration> {
  const out = new Map<string, ResourceDeclaration>()
  for (const [name, all] of seen) {
    // A name shared by a hand-written declaration and generic ones (`product`: products and
    // climate products) stands for the hand-written one.
    const written = [...all].filter((d) => !d.generic)
    const set = written.length > 0 ? written : [...all]
    const only = set[0]
    if (set.length === 1 && only !== undefined && !OTHER_SCOPE.has(only.type)) out.set(name, only)
  }
  cache.set(declarations, out)
  return out
}

/** The named types a field's shape holds directly (not through an expandable id). */
function refsIn(shape: Shape): string[] {
  switch (shape.t) {
    case 'ref':
      return [shape.name]
    case 'array':
    case 'map':
      return refsIn(shape.of)
    case 'union':
      return shape.of.flatMap(refsIn)
    default:
      return []
  }
}

/** The type names an expandable id (or an array of them) may stand for. */
function expandTargets(shape: Shape): string[] {
  const s = shape.t === 'array' ? shape.of : shape
  if (s.t !== 'expandable') return []
  const o = s.object
  if (o.t === 'ref') return [o.name]
  return o.t === 'union' ? o.of.flatMap((m) => (m.t === 'ref' ? [m.name] : [])) : []
}

/** Whether a params shape takes an array of strings (ids), perhaps or `''` (clear). */
function takesStrings(view: CatalogueView, shape: Shape): boolean {
  const s = resolve(view, shape)
  if (s.t === 'array') return takesString(view, s.of)
  return s.t === 'union' && s.of.some((m) => takesStrings(view, m))
}

/** Whether a params shape takes a string (an id) here. */
function takesString(view: CatalogueView, shape: Shape): boolean {
  const s = resolve(view, shape)
  if (s.t === 'string') return s.enum === undefined
  return s.t === 'union' && s.of.some((m) => takesString(view, m))
}

/** The object shape (or array element's object shape) a params shape nests. */
function nested(
  view: CatalogueView,
  shape: Shape,
): { fields: Extract<Shape, { t: 'object' }>['fields']; array: boolean } | undefined {
  const s = resolve(view, shape)
  if (s.t === 'object') return { fields: s.fields, array: false }
  if (s.t === 'array') {
    const e = resolve(view, s.of)
    if (e.t === 'object') return { fields: e.fields, array: true }
  }
  if (s.t === 'union') {
    for (const m of s.of) {
      const n = nested(view, m)
      if (n !== undefined) return n
    }
  }
  return undefined
}

/**
 * The parameters of an operation that name other objects, read from the catalogue: a param whose
 * name is a field of the answered type holding an expandable id of a declared resource, or (nested
 * params, `items[][price]`) whose name stands for one declared resource across the catalogue.
 *
 * @example
 * referencesOf(view, declarations, 'PriceCreateParams', 'Price')
 * // [{ path: ['product'], declaration: products }, { path: ['product_data', ...] }, ...]
 */
export function referencesOf(
  view: CatalogueView,
  declarations: readonly ResourceDeclaration[],
  paramsType: string | undefined,
  answered: string,
  objectTypes: () => readonly string[],
): Reference[] {
  if (paramsType === undefined) return []
  const dictionary = dictionaryOf(view, declarations, objectTypes())
  const own = fieldsOf(view, answered)
  // Accounts count when telling whether a name is ambiguous (`account` also names a financial
  // connections account), and are left out only at the end.
  const byType = new Map(declarations.map((d) => [d.type, d]))
  const out: Reference[] = []
  const walk = (fields: Extract<Shape, { t: 'object' }>['fields'], path: string[], depth: number) => {
    for (const [name, field] of Object.entries(fields)) {
      if (name === 'expand' || name === 'metadata') continue
      const top = depth === 0 ? own[name] : undefined
      const targets = top === undefined ? [] : expandTargets(top.shape).flatMap((t) => byType.get(t) ?? [])
      const one = targets.length === 1 ? targets[0] : targets.length === 0 ? dictionary.get(name) : undefined
      // A connected account is checked by the accounts area (it is not in the caller's scope).
      const d = one !== undefined && OTHER_SCOPE.has(one.type) ? undefined : one
      const s = resolve(view, field.shape)
      if (d !== undefined && takesString(view, s)) out.push({ path: [...path, name], declaration: d })
      else if (d !== undefined && takesStrings(view, s)) out.push({ path: [...path, name, '[]'], declaration: d })
      else if (depth < MAX_DEPTH) {
        const n = nested(view, field.shape)
        if (n !== undefined) walk(n.fields, n.array ? [...path, name, '[]'] : [...path, name], depth + 1)
      }
    }
  }
  walk(fieldsOf(view, paramsType), [], 0)
  return out
}

/**
 * Refuses a call whose params name an object the scope does not have (400 `resource_missing` on
 * the param, `items[0][price]`), before anything changes. Empty strings (a field cleared) pass.
 *
 * @example
 * checkReferences(refs, { product: 'prod_missing' }, (d, scope, id) => engine.resource(d.object).get(scope, id), scope) // throws "No such product: 'prod_missing'"
 */
export function checkReferences(
  refs: readonly Reference[],
  params: Readonly<Record<string, unknown>>,
  find: (d: ResourceDeclaration, scope: Scope, id: string) => Record<string, unknown> | undefined,
  scope: Scope,
): void {
  for (const ref of refs) {
    // Most calls name none of the params that are references: they cost one lookup each.
    if (params[ref.path[0] as string] === undefined) continue
    visit(params, ref, 0, '', (id, param) => check(ref.declaration, id, param, find, scope))
  }
}

function visit(at: unknown, ref: Reference, i: number, param: string, onId: (id: string, param: string) => void): void {
  const key = ref.path[i]
  if (key === undefined) {
    if (typeof at === 'string' && at !== '') onId(at, param)
    return
  }
  if (key === '[]') {
    // The form decoder may give an array as an object with numeric keys.
    const items = Array.isArray(at) ? at.entries() : isPlainObject(at) ? Object.entries(at) : []
    for (const [k, v] of items) visit(v, ref, i + 1, `${param}[${k}]`, onId)
    return
  }
  if (!isPlainObject(at) || !Object.hasOwn(at, key)) return
  visit(at[key], ref, i + 1, param === '' ? key : `${param}[${key}]`, onId)
}

function check(
  d: ResourceDeclaration,
  id: string,
  param: string,
  find: (d: ResourceDeclaration, scope: Scope, id: string) => Record<string, unknown> | undefined,
  scope: Scope,
): void {
  if (d.tokens?.(id) === true || find(d, scope, id) !== undefined) return
  // A body parameter naming a missing object is a 400, not the row's 404 of a path.
  throw tableError('resource_missing', { kind: d.object.replace(/\./g, ' '), id }, { param, status: 400 })
}
