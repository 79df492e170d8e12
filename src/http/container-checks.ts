// The checks of values that hold others (arrays, objects with declared fields, maps of one value
// type): each copies its input only when a member's check changed a value.
import { at, type Check, isObject, JSON_, ParamFault, QUERY, tagged } from './param-fault.js'
import { INTEGER } from './scalar-checks.js'

/**
 * An array of `of`; in form encoding an object with numeric keys is read as one.
 *
 * @example
 * arrayCheck(integerCheck)(['1', '2'], FORM) // [1, 2]
 */
export function arrayCheck(of: Check): Check {
  return tagged('array', (v, mode) => {
    let items: unknown[]
    if (Array.isArray(v)) items = v
    else if (mode !== JSON_ && isObject(v) && Object.keys(v).every((k) => INTEGER.test(k))) {
      // Past the decoder's array limit, `a[1001]=x` decodes to an object with numeric keys; they
      // enumerate in ascending order.
      items = Object.values(v)
    } else if (mode === QUERY && typeof v === 'string') items = [v]
    else if (v === '' && mode !== JSON_) throw new ParamFault('empty')
    else throw new ParamFault('array', v)
    let out: unknown[] | undefined = items === v ? undefined : items
    for (let i = 0; i < items.length; i++) {
      const item = items[i]
      const checked = at(of, item, mode, String(i))
      if (checked !== item) {
        out ??= items.slice()
        out[i] = checked
      }
    }
    return out ?? items
  })
}

export interface CompiledField {
  readonly check: Check
  readonly nullable: boolean
}

/**
 * An object of declared fields: an unknown key or a missing required one is refused.
 *
 * @example
 * objectCheck(new Map([['name', { check: anyCheck, nullable: false }]]), ['name'])({ name: 'x' }, JSON_)
 */
export function objectCheck(fields: ReadonlyMap<string, CompiledField>, required: readonly string[]): Check {
  return tagged('object', (v, mode) => {
    if (!isObject(v)) {
      if (v === '' && mode !== JSON_) throw new ParamFault('empty')
      throw new ParamFault('object', v)
    }
    let out: Record<string, unknown> | undefined
    for (const key in v) {
      const field = fields.get(key)
      if (field === undefined) {
        const fault = new ParamFault('unknown')
        fault.keys.push(key)
        throw fault
      }
      const raw = v[key]
      let checked: unknown
      if (field.nullable && (raw === null || (raw === '' && mode !== JSON_))) checked = null
      else checked = at(field.check, raw, mode, key)
      if (checked !== raw) {
        out ??= { ...v }
        out[key] = checked
      }
    }
    for (const name of required) {
      if (v[name] === undefined || !Object.hasOwn(v, name)) {
        const fault = new ParamFault('missing')
        fault.keys.push(name)
        throw fault
      }
    }
    return out ?? v
  })
}

/**
 * An object whose every value passes `of` (`metadata`).
 *
 * @example
 * mapCheck(stringCheck(undefined))({ plan: 'pro' }, FORM) // { plan: 'pro' }
 */
export function mapCheck(of: Check): Check {
  return tagged('object', (v, mode) => {
    if (!isObject(v)) {
      if (v === '' && mode !== JSON_) throw new ParamFault('empty')
      throw new ParamFault('object', v)
    }
    let out: Record<string, unknown> | undefined
    for (const key in v) {
      const raw = v[key]
      // In form encoding `metadata[k]=` unsets the key: the empty string is passed on as it is.
      if (raw === '' && mode !== JSON_) continue
      const checked = at(of, raw, mode, key)
      if (checked !== raw) {
        out ??= { ...v }
        out[key] = checked
      }
    }
    return out ?? v
  })
}
