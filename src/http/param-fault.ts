/**
 * What every compiled params check shares: how values are read (the mode), the refusal raised
 * inside a check, and its translation into the provider's 400 once it leaves the validator.
 */
import type { ServiceError } from '#domain/service-error.js'
import { type FaultKind, paramError } from './param-errors.js'

// How a compiled check reads its values (see `ParamSource` in catalogue-params.ts): numbers, not
// strings, so a check compares small integers on the hot path.
export const FORM = 0
export const QUERY = 1
export const JSON_ = 2
export type Mode = typeof FORM | typeof QUERY | typeof JSON_

/** A refused value, raised inside the compiled checks; `keys` gathers the path on the way out, innermost first. */
export class ParamFault {
  readonly keys: string[] = []
  constructor(
    readonly kind: FaultKind,
    readonly value?: unknown,
    readonly allowed?: readonly unknown[],
  ) {}
}

/** What JSON type a check wants, so a union can try the fitting branch first and report its refusal. */
export type Want = 'scalar' | 'object' | 'array' | 'any'

/**
 * A compiled check: returns the coerced value or throws a {@link ParamFault}; `want` says which JSON
 * type it takes.
 *
 * @example
 * const check: Check = tagged('scalar', (v) => v)
 */
export interface Check {
  (value: unknown, mode: Mode): unknown
  want?: Want
}

/**
 * Marks a check with the JSON type it wants.
 *
 * @example
 * const anything = tagged('any', (v) => v)
 */
export function tagged(want: Want, check: (value: unknown, mode: Mode) => unknown): Check {
  const c = check as Check
  c.want = want
  return c
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function wantOf(value: unknown): Want {
  return Array.isArray(value) ? 'array' : isObject(value) ? 'object' : 'scalar'
}

/**
 * The refusal of a value of the wrong JSON type. In form encoding an object where a scalar is
 * expected is a nested key nobody declared (`metadata[x][y]=1`): it is named as unknown, as the
 * provider does.
 */
export function mismatch(kind: FaultKind, value: unknown, mode: Mode): ParamFault {
  if (mode !== JSON_ && typeof value === 'object' && value !== null) {
    const keys: string[] = []
    let v: unknown = value
    while (typeof v === 'object' && v !== null) {
      const first = Object.keys(v)[0]
      if (first === undefined) break
      keys.push(first)
      v = (v as Record<string, unknown>)[first]
    }
    if (keys.length > 0) {
      const fault = new ParamFault('unknown')
      fault.keys.push(...keys.reverse())
      return fault
    }
  }
  return new ParamFault(kind, value)
}

/**
 * Runs a child check with its key added to the path of any refusal; returns the coerced value.
 *
 * @example
 * at(integerCheck, '5', FORM, 'quantity') // 5
 */
export function at(check: Check, value: unknown, mode: Mode, key: string): unknown {
  try {
    return check(value, mode)
  } catch (error) {
    if (error instanceof ParamFault) error.keys.push(key)
    throw error
  }
}

/**
 * The provider's 400 for a refusal, its parameter named the way the namespace names nested keys
 * (`a[b][0]` on `/v1`, `a.b.0` on `/v2`).
 *
 * @example
 * toServiceError(fault, 'v1') // 400 parameter_invalid_integer, param 'items[0][quantity]'
 */
export function toServiceError(fault: ParamFault, style: 'v1' | 'v2'): ServiceError {
  const keys = fault.keys.slice().reverse()
  const param = style === 'v2' ? keys.join('.') : keys.map((k, i) => (i === 0 ? k : `[${k}]`)).join('')
  return paramError(fault.kind, param, fault.value, fault.allowed)
}
