// The check of a union of shapes: an enum when all are strings, else the branch that fits the
// value's JSON type first, reporting the refusal that explains the value best.
import type { Shape } from '#catalogue/types.js'
import { type Check, JSON_, ParamFault, tagged, wantOf } from './param-fault.js'
import { stringCheck } from './scalar-checks.js'

function isEmptyLiteral(s: Shape): boolean {
  return s.t === 'literal' && (s.value === '' || s.value === null)
}

/**
 * Whether a refusal from another fitting branch of a union explains the value better than `best`:
 * it got further into the value, or it is a type's refusal where `best` only listed a literal
 * (`up_to: 'abc'` is "Invalid integer: abc", not "must be one of inf": the literal is the exception).
 */
function deeperOrPlainer(error: ParamFault, best: ParamFault): boolean {
  if (error.keys.length !== best.keys.length) return error.keys.length > best.keys.length
  return best.kind === 'literal' && error.kind !== 'literal'
}

/**
 * The check of a union; `compile` compiles one branch.
 *
 * @example
 * unionCheck([{ t: 'integer' }, { t: 'literal', value: 'inf' }], (s) => compiler.compile(s))
 */
export function unionCheck(branches: readonly Shape[], compile: (s: Shape) => Check): Check {
  const emptyable = branches.some(isEmptyLiteral)
  const rest = branches.filter((b) => !isEmptyLiteral(b))
  // A union of string literals is an enum: one set lookup, one message listing every value.
  if (rest.length > 0 && rest.every((b) => b.t === 'literal' && typeof b.value === 'string')) {
    const values = rest.map((b) => (b as { value: string }).value)
    const check = stringCheck(values)
    if (!emptyable) return check
    return tagged('scalar', (v, mode) => (v === null || (v === '' && mode !== JSON_) ? null : check(v, mode)))
  }
  const compiled = rest.map(compile)
  if (compiled.length === 1 && compiled[0] !== undefined) {
    const only = compiled[0]
    if (!emptyable) return only
    return tagged(only.want ?? 'any', (v, mode) => (v === null || (v === '' && mode !== JSON_) ? null : only(v, mode)))
  }
  return tagged('any', (v, mode) => {
    if (emptyable && (v === null || (v === '' && mode !== JSON_))) return null
    const want = wantOf(v)
    let best: ParamFault | undefined
    let bestFits = false
    // Branches that want this JSON type first, so a union of an object and an integer reports the
    // object's refusal for an object and the integer's for a string.
    for (const pass of [true, false]) {
      for (const branch of compiled) {
        const fits = branch.want === want || branch.want === 'any'
        if (fits !== pass) continue
        try {
          return branch(v, mode)
        } catch (error) {
          if (!(error instanceof ParamFault)) throw error
          if (best === undefined || (fits && (!bestFits || deeperOrPlainer(error, best)))) {
            best = error
            bestFits = fits
          }
        }
      }
    }
    throw best ?? new ParamFault('string', v)
  })
}
