import { isIncludable } from '#catalogue/includable.js'
import type { Operation, Shape } from '#catalogue/types.js'
import { checkExpandDepth } from '#domain/engine/expand.js'
import { invalidRequest } from '#domain/service-error.js'

/** The object shapes a shape can stand for: refs resolved, unions, arrays and expandable ids opened. */
function objects(shape: Shape | undefined, resolve: (name: string) => Shape | undefined, depth = 0): Shape[] {
  if (shape === undefined || depth > 8) return []
  switch (shape.t) {
    case 'object':
      return [shape]
    case 'ref':
      return objects(resolve(shape.name), resolve, depth + 1)
    case 'union':
      return shape.of.flatMap((s) => objects(s, resolve, depth + 1))
    case 'array':
      return objects(shape.of, resolve, depth + 1)
    case 'expandable':
      return objects(shape.object, resolve, depth + 1)
    default:
      return []
  }
}

/** Whether `expand[]` can replace this field's id (or ids) with objects. */
function expandable(shape: Shape): boolean {
  if (shape.t === 'expandable') return true
  if (shape.t === 'array') return expandable(shape.of)
  if (shape.t === 'union') return shape.of.some(expandable)
  return false
}

/** Whether an answer's type is beyond what the catalogue can say (any, or a name it lacks). */
function unknowable(shape: Shape | undefined, resolve: (name: string) => Shape | undefined): boolean {
  return shape === undefined || shape.t === 'any' || (shape.t === 'ref' && resolve(shape.name) === undefined)
}

/**
 * Refuses an `expand[]` path the operation's answer cannot expand, as the provider does, before the
 * request changes anything: every segment must name a field of the object it reaches (lists and
 * search results through `data.`), and the last one a field that holds an id of another object
 * (`customer`, `latest_charge`, `invoice_settings.default_payment_method`) or an includable field
 * (one the client declares optional: `tiers`, `line_items`, `subscriptions`).
 *
 * @example
 * checkExpand(operation('paymentIntents.create'), ['customer'], typeShape)    // ok
 * checkExpand(operation('customers.retrieve'), ['email'], typeShape)           // throws 400 "This property cannot be expanded (email)."
 */
export function checkExpand(op: Operation, paths: readonly string[], resolve: (name: string) => Shape | undefined): void {
  const r = op.returns
  if (paths.length === 0 || (r.kind !== 'object' && r.kind !== 'list' && r.kind !== 'search')) return
  const root: Shape = { t: 'ref', name: r.type }
  if (unknowable(root, resolve)) return
  for (const path of paths) {
    let segs = path.split('.')
    const listed = r.kind === 'list' || r.kind === 'search'
    // The engine's limit, checked here too so a create refuses it before anything is made.
    checkExpandDepth(path, segs, listed)
    if (listed) {
      if (segs[0] !== 'data' || segs.length < 2) throw refused(path)
      segs = segs.slice(1)
    }
    let at = objects(root, resolve)
    segs.forEach((seg, i) => {
      const declared = at.map((o) => (o.t === 'object' && Object.hasOwn(o.fields, seg) ? o.fields[seg] : undefined))
      const found = declared.flatMap((f) => (f === undefined ? [] : [f.shape]))
      if (found.length === 0) {
        // A field the catalogue cannot see into (any) is left to the answer.
        if (at.length === 0) return
        throw refused(path)
      }
      if (found.some((f) => f.t === 'any')) {
        at = []
        return
      }
      if (i === segs.length - 1) {
        // An includable field (optional in the client's declarations: `Price.tiers`,
        // `Customer.subscriptions`) is one the provider answers only when asked.
        if (!found.some(expandable) && !declared.some((f) => isIncludable(seg, f))) throw refused(path)
        return
      }
      at = found.flatMap((f) => objects(f, resolve))
    })
  }
}

function refused(path: string) {
  return invalidRequest(`This property cannot be expanded (${path}).`, { param: 'expand' })
}
