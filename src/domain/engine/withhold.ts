import { isPlainObject } from './apply-params.js'
import type { ResourceDeclaration } from './declaration.js'

/** Withheld fields by `object` value, for the declarations that have any. */
export type WithheldFields = ReadonlyMap<string, readonly string[]>

/**
 * The withheld fields of a declaration list by `object` value (`price` → `['tiers']`).
 *
 * @example
 * withheldOf([prices]).get('price') // ['tiers', 'currency_options']
 */
export function withheldOf(declarations: readonly ResourceDeclaration[]): WithheldFields {
  const out = new Map<string, readonly string[]>()
  for (const d of declarations) if (d.withheld !== undefined && d.withheld.length > 0) out.set(d.object, d.withheld)
  return out
}

/**
 * An answer without the stored includable fields `expand[]` does not name: a copy of the object
 * (or of a list's items) that has any, else the answer itself, so answers of other resources
 * cost one map lookup.
 *
 * @example
 * withhold(price, [], withheldOf(declarations)) // the price without `tiers`
 * withhold(price, ['tiers'], withheldOf(declarations)) // the price as stored
 */
export function withhold(answer: unknown, paths: readonly string[], withheld: WithheldFields): unknown {
  if (withheld.size === 0 || !isPlainObject(answer)) return answer
  if (Array.isArray(answer.data)) {
    const named = paths.flatMap((p) => (p.startsWith('data.') ? [p.slice(5)] : []))
    let changed = false
    const data = answer.data.map((item) => {
      const out = withholdOne(item, named, withheld)
      changed ||= out !== item
      return out
    })
    return changed ? { ...answer, data } : answer
  }
  return withholdOne(answer, paths, withheld)
}

function withholdOne(object: unknown, paths: readonly string[], withheld: WithheldFields): unknown {
  if (!isPlainObject(object) || typeof object.object !== 'string') return object
  const fields = withheld.get(object.object)
  if (fields === undefined) return object
  const drop = fields.filter((f) => f in object && !paths.some((p) => p === f || p.startsWith(`${f}.`)))
  if (drop.length === 0) return object
  const out = { ...object }
  for (const f of drop) delete out[f]
  return out
}
