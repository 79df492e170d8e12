import { errorMessage } from '#catalogue/errors.js'
import { invalidRequest } from '../service-error.js'
import { isPlainObject } from './apply-params.js'

/**
 * 400 `parameter_invalid` on `param`, saying why.
 *
 * @example
 * throw invalidParam('line_items[0][amount]', 'must be an integer')
 */
export const invalidParam = (param: string, detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail }), { code: 'parameter_invalid', param })

/**
 * 400 `parameter_missing` on `param`.
 *
 * @example
 * throw missingParam('currency')
 */
export const missingParam = (param: string) =>
  invalidRequest(errorMessage('parameter_missing', { param }), { code: 'parameter_missing', param })

/**
 * The entries of an array param as the form decoder gives it: an array, or an object indexed
 * `0`, `1`, … (`line_items[0][amount]`); anything else is no entries.
 *
 * @example
 * entriesOf({ 0: { amount: 100 } }) // [{ amount: 100 }]
 */
export function entriesOf(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw
  return isPlainObject(raw) ? Object.values(raw) : []
}

/**
 * An integer param (the form encoding sends numbers as strings), else 400 `parameter_invalid`.
 *
 * @example
 * integerParam('5', 'quantity', 0) // 5
 */
export function integerParam(value: unknown, param: string, min: number): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(n) || n < min) throw invalidParam(param, `must be an integer of at least ${min}`)
  return n
}
