// The checks of single values (strings, enums, numbers, booleans, literals), shared by every
// compiled params type: most are one module constant each, never rebuilt.
import { type Check, FORM, JSON_, type Mode, mismatch, ParamFault, tagged } from './param-fault.js'

export const INTEGER = /^-?\d+$/
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/
const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)$/

export const anyCheck = tagged('any', (v) => v)

/**
 * A string, or one of `values` when given (an enum).
 *
 * @example
 * stringCheck(['card', 'us_bank_account'])('card', FORM) // 'card'
 */
export function stringCheck(values: readonly string[] | undefined): Check {
  if (values === undefined || values.length === 0) {
    return tagged('scalar', (v, mode) => {
      if (typeof v === 'string') return v
      throw mismatch('string', v, mode)
    })
  }
  const allowed = new Set(values)
  return tagged('scalar', (v, mode) => {
    if (typeof v === 'string') {
      if (allowed.has(v)) return v
      if (v === '' && mode !== JSON_) throw new ParamFault('empty')
      throw new ParamFault('enum', v, values)
    }
    throw mismatch('enum', v, mode)
  })
}

export const integerCheck = tagged('scalar', (v, mode) => {
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) return v
  } else if (typeof v === 'string') {
    if (INTEGER.test(v)) {
      const n = Number(v)
      if (Number.isSafeInteger(n)) return n
    } else if (v === '' && mode !== JSON_) throw new ParamFault('empty')
  } else throw mismatch('integer', v, mode)
  throw new ParamFault('integer', v)
})

export const numberCheck = tagged('scalar', (v, mode) => {
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return v
  } else if (typeof v === 'string') {
    if (NUMBER.test(v)) return Number(v)
    if (v === '' && mode !== JSON_) throw new ParamFault('empty')
  } else throw mismatch('number', v, mode)
  throw new ParamFault('number', v)
})

/** A decimal stays a string (the client's `Decimal` travels as one); a JSON number becomes its text. */
export const decimalCheck = tagged('scalar', (v, mode) => {
  if (typeof v === 'string') {
    if (DECIMAL.test(v)) return v
    if (v === '' && mode !== JSON_) throw new ParamFault('empty')
  } else if (typeof v === 'number') {
    if (Number.isFinite(v)) return String(v)
  } else throw mismatch('decimal', v, mode)
  throw new ParamFault('decimal', v)
})

function readBoolean(v: unknown, mode: Mode): boolean | undefined {
  if (typeof v === 'boolean') return v
  if (typeof v !== 'string' || mode === JSON_) return undefined
  if (v === 'true') return true
  if (v === 'false') return false
  if (mode === FORM) {
    if (v === 'True') return true
    if (v === 'False') return false
  }
  return undefined
}

export const booleanCheck = tagged('scalar', (v, mode) => {
  const b = readBoolean(v, mode)
  if (b !== undefined) return b
  if (v === '' && mode !== JSON_) throw new ParamFault('empty')
  if (typeof v === 'object' && v !== null) throw mismatch('boolean', v, mode)
  throw new ParamFault('boolean', v)
})

/**
 * Exactly one value; in form encoding its text (`'true'`, `'5'`) and `''` for `null` count too.
 *
 * @example
 * literalCheck(true)('true', FORM) // true
 */
export function literalCheck(value: string | number | boolean | null): Check {
  if (value === null) {
    return tagged('scalar', (v, mode) => {
      if (v === null || (v === '' && mode !== JSON_)) return null
      throw mismatch('literal', v, mode)
    })
  }
  if (typeof value === 'boolean') {
    return tagged('scalar', (v, mode) => {
      if (readBoolean(v, mode) === value) return value
      if (typeof v === 'object' && v !== null) throw mismatch('literal', v, mode)
      throw new ParamFault('literal', v, [value])
    })
  }
  const text = String(value)
  return tagged('scalar', (v, mode) => {
    if (v === value || (mode !== JSON_ && v === text)) return value
    if (typeof v === 'object' && v !== null) throw mismatch('literal', v, mode)
    throw new ParamFault('literal', v, [value])
  })
}
