import { ERRORS, type ErrorCode, errorDocUrl } from '#catalogue/errors.js'
import { type ServiceError, tableError } from '#domain/service-error.js'

/**
 * The provider's refusals of a request's parameters, in its own words (docs/decisions/parameters.md):
 * the catalogue's error table where it has the code, the provider's known
 * messages otherwise (`Invalid boolean: x`, `Invalid array`, enum violations, which the provider
 * sends under no documented code: here the table's generic `parameter_invalid`). Every refusal
 * carries its code's `doc_url`.
 */

function refuse(row: ErrorCode, values: Readonly<Record<string, string>>, param: string): ServiceError {
  const code: string = ERRORS[row].code ?? row
  return tableError(row, values, { param, extra: { doc_url: errorDocUrl(code) } })
}

/** How a refused value is shown in a message: as the client sent it, shortened when long. */
export function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  return text.length > 100 ? `${text.slice(0, 100)}...` : text
}

/** The kinds of refusal a parameter check produces; the message and code follow from the kind. */
export type FaultKind =
  | 'unknown'
  | 'missing'
  | 'integer'
  | 'number'
  | 'decimal'
  | 'boolean'
  | 'string'
  | 'enum'
  | 'array'
  | 'object'
  | 'empty'
  | 'literal'

/**
 * The refusal of one parameter, as the provider words it.
 *
 * @example
 * paramError('integer', 'amount', 'abc') // 400 parameter_invalid_integer "Invalid integer: abc"
 * paramError('enum', 'capture_method', 'x', ['automatic', 'manual'])
 * // 400 parameter_invalid "Invalid capture_method: must be one of automatic or manual"
 */
export function paramError(kind: FaultKind, param: string, value?: unknown, allowed?: readonly unknown[]): ServiceError {
  switch (kind) {
    case 'unknown':
      return refuse('parameter_unknown', { param }, param)
    case 'missing':
      return refuse('parameter_missing', { param }, param)
    case 'integer':
      return refuse('parameter_invalid_integer', { value: shown(value) }, param)
    case 'number':
      return refuse('parameter_invalid_number', { value: shown(value) }, param)
    case 'decimal':
      return refuse('parameter_invalid_decimal', { value: shown(value) }, param)
    case 'boolean':
      return refuse('parameter_invalid_boolean', { value: shown(value) }, param)
    case 'string':
      return refuse('parameter_invalid_string', { value: shown(value) }, param)
    case 'array':
      return refuse('parameter_invalid_array', {}, param)
    case 'object':
      return refuse('parameter_invalid_object', {}, param)
    case 'enum':
    case 'literal':
      return refuse('parameter_invalid', { param, detail: `must be one of ${oneOf((allowed ?? []).map(String))}` }, param)
    case 'empty':
      return refuse('parameter_invalid_empty', { param }, param)
  }
}

/** `a`, `a or b`, `a, b, or c`: the provider's list of allowed values. */
function oneOf(values: readonly string[]): string {
  if (values.length <= 2) return values.join(' or ')
  return `${values.slice(0, -1).join(', ')}, or ${values[values.length - 1]}`
}
