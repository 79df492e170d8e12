import { errorMessage } from '#catalogue/errors.js'
import { METADATA_LIMITS } from '#catalogue/rules.js'
import { invalidRequest, tableError } from '../service-error.js'
import { isPlainObject } from './apply-params.js'

/**
 * Refuses metadata over the provider's limits (50 keys, keys of 40 characters, values of 500),
 * naming the key; `''`/`null` (clear all) and keys set to `''` (remove) pass.
 *
 * @example
 * checkMetadata({ plan: 'pro' }) // fine
 * checkMetadata({ ['k'.repeat(41)]: 'v' }) // throws 400 on metadata[kkk…]
 */
export function checkMetadata(value: unknown): void {
  if (!isPlainObject(value)) return
  const keys = Object.keys(value)
  if (keys.length > METADATA_LIMITS.keys) {
    throw tableError(
      'parameter_invalid',
      { param: 'metadata', detail: `at most ${METADATA_LIMITS.keys} keys` },
      { param: 'metadata' },
    )
  }
  for (const key of keys) {
    const param = `metadata[${key}]`
    if (key.length > METADATA_LIMITS.keyLength) {
      throw tableError(
        'parameter_invalid',
        { param, detail: `keys must be at most ${METADATA_LIMITS.keyLength} characters` },
        { param },
      )
    }
    const v = value[key]
    if (typeof v === 'string') checkLength(v, param, METADATA_LIMITS.valueLength)
  }
}

/**
 * Refuses a string longer than `max` with `parameter_invalid_string_too_long`.
 *
 * @example
 * checkLength('x'.repeat(23), 'statement_descriptor', 22) // throws
 */
export function checkLength(value: unknown, param: string, max: number): void {
  if (typeof value === 'string' && value.length > max) {
    throw invalidRequest(errorMessage('parameter_invalid_string_too_long', { param, max, length: value.length }), {
      code: 'parameter_invalid_string_too_long',
      param,
    })
  }
}

/**
 * Refuses `''` where the provider wants a value (`parameter_invalid_empty`).
 *
 * @example
 * checkNotEmpty('', 'name') // throws
 */
export function checkNotEmpty(value: unknown, param: string): void {
  if (value === '' || value === null) {
    throw invalidRequest(errorMessage('parameter_invalid_empty', { param }), { code: 'parameter_invalid_empty', param })
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * Refuses an obviously malformed email address (`email_invalid`); `''` and `null` (clear) pass.
 *
 * @example
 * checkEmail('not-an-email', 'email') // throws 400 email_invalid on email
 */
export function checkEmail(value: unknown, param: string): void {
  if (typeof value === 'string' && value !== '' && !EMAIL.test(value)) {
    throw invalidRequest(errorMessage('email_invalid', { value }), { code: 'email_invalid', param })
  }
}
