import type { Operation, Shape } from '#catalogue/types.js'
import { declaredAt } from '#catalogue/versions.js'
import { invalidRequest } from '#domain/service-error.js'

type Resolve = (name: string) => Shape | undefined
type ObjectShape = Extract<Shape, { t: 'object' }>

/** An object shape a shape can stand for, with the type name it was reached by (when a ref named it). */
interface Named {
  readonly name: string | undefined
  readonly shape: ObjectShape
}

function named(shape: Shape | undefined, resolve: Resolve, name?: string, depth = 0): Named[] {
  if (shape === undefined || depth > 8) return []
  switch (shape.t) {
    case 'object':
      return [{ name, shape }]
    case 'ref':
      return named(resolve(shape.name), resolve, shape.name, depth + 1)
    case 'union':
      return shape.of.flatMap((s) => named(s, resolve, undefined, depth + 1))
    case 'array':
      return named(shape.of, resolve, undefined, depth + 1)
    case 'expandable':
      return named(shape.object, resolve, undefined, depth + 1)
    default:
      return []
  }
}

/**
 * Whether a field the current version has was absent at `version` on every object that has it now
 * (each known by its type's name there); an object whose type the version facts do not know, or
 * did not have then, is not taken as proof.
 */
function absentAt(version: string, holders: readonly Named[], seg: string): boolean {
  return holders.every((h) => {
    if (h.name === undefined) return false
    const then = declaredAt(version, h.name, 'objects')
    return then !== undefined && !then.has(seg)
  })
}

/**
 * Refuses, at a pinned older `version`, an `expand[]` path naming a field that version's objects
 * did not have (one added since: `latest_charge` of a payment intent at `2022-08-01`), as the
 * provider does: 400 `invalid_request_error` on `expand`, "This property cannot be expanded
 * (latest_charge)." Paths the current version itself refuses are left to its own check, and paths
 * the walk restores (fields removed since) are not passed here.
 *
 * @example
 * checkExpandAt(operation('paymentIntents.retrieve'), ['latest_charge'], typeShape, '2022-08-01') // throws 400
 * checkExpandAt(operation('paymentIntents.retrieve'), ['customer'], typeShape, '2022-08-01')      // passes
 */
export function checkExpandAt(op: Operation, paths: readonly string[], resolve: Resolve, version: string): void {
  const r = op.returns
  if (paths.length === 0 || (r.kind !== 'object' && r.kind !== 'list' && r.kind !== 'search')) return
  const listed = r.kind === 'list' || r.kind === 'search'
  for (const path of paths) {
    let segs = path.split('.')
    if (listed) {
      if (segs[0] !== 'data') continue
      segs = segs.slice(1)
    }
    let at = named({ t: 'ref', name: r.type }, resolve)
    for (const seg of segs) {
      const holders = at.filter((o) => Object.hasOwn(o.shape.fields, seg))
      if (holders.length === 0) break
      if (absentAt(version, holders, seg)) {
        throw invalidRequest(`This property cannot be expanded (${path}).`, { param: 'expand' })
      }
      at = holders.flatMap((o) => named(o.shape.fields[seg]?.shape, resolve))
    }
  }
}
