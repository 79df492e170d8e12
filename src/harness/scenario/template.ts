const WHOLE = /^\{\{\s*([\w.-]+)\s*\}\}$/
const PART = /\{\{\s*([\w.-]+)\s*\}\}/g

/** Raised when a template names a value the run does not have. */
export class TemplateError extends Error {}

function lookup(vars: Readonly<Record<string, unknown>>, path: string): unknown {
  let v: unknown = vars
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v as object, part)) {
      throw new TemplateError(
        `{{${path}}} names nothing: '${part}' is not defined (known: ${Object.keys(vars).sort().join(', ')})`,
      )
    }
    v = (v as Record<string, unknown>)[part]
  }
  return v
}

/**
 * Fills `{{name.field}}` templates from the run's variables (accounts, destinations, meters and
 * saved responses), at every depth. A string that is one whole template keeps the value's type.
 *
 * @example
 * fill({ id: '{{shop.id}}' }, { shop: { id: 'acct_1' } }) // { id: 'acct_1' }
 */
export function fill<T>(value: T, vars: Readonly<Record<string, unknown>>): T {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value)
    if (whole) return lookup(vars, whole[1] as string) as T
    return value.replace(PART, (_, path: string) => {
      const v = lookup(vars, path)
      return typeof v === 'string' ? v : JSON.stringify(v)
    }) as T
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars)) as T
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = fill(v, vars)
    return out as T
  }
  return value
}
