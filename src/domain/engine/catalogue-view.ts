import type { Field, Operation, Shape } from '#catalogue/types.js'

/**
 * What the engine reads from the operation catalogue: its operations and its named types. The
 * runtime catalogue (`src/catalogue/index.ts`) provides both; tests pass a small hand-written one.
 *
 * @example
 * const view: CatalogueView = { operations: () => ops, typeShape: (name) => types[name] }
 */
export interface CatalogueView {
  operations(): readonly Operation[]
  typeShape(name: string): Shape | undefined
  /**
   * Field names that hold an expandable id, with the types they name (generated beside the
   * catalogue). Without it the engine reads them off the returned types.
   */
  referenceNames?(): Readonly<Record<string, readonly string[]>>
}

/**
 * The shape behind refs (a ref to an unknown type is `any`).
 *
 * @example
 * resolve(view, { t: 'ref', name: 'Customer' }) // { t: 'object', fields: { ... } }
 */
export function resolve(view: CatalogueView, shape: Shape): Shape {
  let s = shape
  for (let i = 0; s.t === 'ref' && i < 16; i++) s = view.typeShape(s.name) ?? { t: 'any' }
  return s
}

/** The fields of an object type (none when the name is not an object type). */
export function fieldsOf(view: CatalogueView, type: string): Readonly<Record<string, Field>> {
  const s = resolve(view, { t: 'ref', name: type })
  return s.t === 'object' ? s.fields : {}
}

/** True for the v1 list envelope (`{ object: 'list', data: [...], has_more, url }`). */
export function isListShape(view: CatalogueView, shape: Shape): boolean {
  const s = resolve(view, shape)
  if (s.t !== 'object') return false
  const object = s.fields.object?.shape
  return object !== undefined && object.t === 'literal' && object.value === 'list' && s.fields.data !== undefined
}

/** The object shape under an `expandable`, a nullable union or a ref, if there is one. */
export function objectShape(view: CatalogueView, shape: Shape): Extract<Shape, { t: 'object' }> | undefined {
  const s = resolve(view, shape)
  if (s.t === 'object') return s
  if (s.t === 'expandable') return objectShape(view, s.object)
  if (s.t === 'union') {
    for (const m of s.of) {
      const o = objectShape(view, m)
      if (o !== undefined) return o
    }
  }
  return undefined
}
