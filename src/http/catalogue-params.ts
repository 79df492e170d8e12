import type { Field, Shape } from '#catalogue/types.js'
import type { ServiceError } from '#domain/service-error.js'
import { type FaultKind, paramError } from './param-errors.js'

/**
 * Validation and coercion of a request's parameters against the catalogue's params shapes (the
 * official client's `…Params` declarations), compiled once per params type into plain closures:
 * no schema library on the hot path, and every refusal in the provider's words.
 *
 * Where values come from decides how they are read:
 * - `form` (`/v1` bodies and `/v1` queries): every leaf is a string. Integers, numbers and
 *   booleans (`true`/`false`, also `True`/`False` as older official Python clients send them) are
 *   read from strings; `''` on an `Emptyable<T>` field means "unset" and becomes `null`; arrays may
 *   arrive as objects with numeric keys (`{ '0': 'a' }`, beyond the decoder's array limit).
 * - `query` (`/v2` queries): strings as in `form`, but booleans are only `true`/`false` (the v2
 *   API is stricter), and one value where an array is expected is an array of one.
 * - `json` (`/v2` bodies): JSON types; integers may also come as strings of digits (the client
 *   sends int64 values as strings).
 */
export type ParamSource = 'form' | 'query' | 'json'

/** Adjustments of a params type for one route. */
export interface ValidatorOptions {
  /** Top-level fields that take any value: the route judges them itself, with codes of its own. */
  readonly own?: readonly string[]
  /** Top-level fields the client sends without declaring them (a v2 list's `page` token). */
  readonly extra?: Readonly<Record<string, Field>>
}

/** A compiled params type: returns the coerced parameters or throws the provider's 400. */
export type ParamsValidator = (input: Record<string, unknown>, source: ParamSource) => Record<string, unknown>

/** How compiled checks find named types (`{ t: 'ref' }`). */
export type ShapeResolver = (name: string) => Shape | undefined

const FORM = 0
const QUERY = 1
const JSON_ = 2
type Mode = typeof FORM | typeof QUERY | typeof JSON_

/** A refused value, raised inside the compiled checks; `keys` gathers the path on the way out, innermost first. */
class ParamFault {
  readonly keys: string[] = []
  constructor(
    readonly kind: FaultKind,
    readonly value?: unknown,
    readonly allowed?: readonly unknown[],
  ) {}
}

/** What JSON type a check wants, so a union can try the fitting branch first and report its refusal. */
type Want = 'scalar' | 'object' | 'array' | 'any'

interface Check {
  (value: unknown, mode: Mode): unknown
  want?: Want
}

function tagged(want: Want, check: (value: unknown, mode: Mode) => unknown): Check {
  const c = check as Check
  c.want = want
  return c
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function wantOf(value: unknown): Want {
  return Array.isArray(value) ? 'array' : isObject(value) ? 'object' : 'scalar'
}

/**
 * The refusal of a value of the wrong JSON type. In form encoding an object where a scalar is
 * expected is a nested key nobody declared (`metadata[x][y]=1`): it is named as unknown, as the
 * provider does.
 */
function mismatch(kind: FaultKind, value: unknown, mode: Mode): ParamFault {
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

const INTEGER = /^-?\d+$/
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/
const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)$/

const anyCheck = tagged('any', (v) => v)

function stringCheck(values: readonly string[] | undefined): Check {
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

const integerCheck = tagged('scalar', (v, mode) => {
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

const numberCheck = tagged('scalar', (v, mode) => {
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return v
  } else if (typeof v === 'string') {
    if (NUMBER.test(v)) return Number(v)
    if (v === '' && mode !== JSON_) throw new ParamFault('empty')
  } else throw mismatch('number', v, mode)
  throw new ParamFault('number', v)
})

/** A decimal stays a string (the client's `Decimal` travels as one); a JSON number becomes its text. */
const decimalCheck = tagged('scalar', (v, mode) => {
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

const booleanCheck = tagged('scalar', (v, mode) => {
  const b = readBoolean(v, mode)
  if (b !== undefined) return b
  if (v === '' && mode !== JSON_) throw new ParamFault('empty')
  if (typeof v === 'object' && v !== null) throw mismatch('boolean', v, mode)
  throw new ParamFault('boolean', v)
})

function literalCheck(value: string | number | boolean | null): Check {
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

/** Runs a child check with its key added to the path of any refusal; returns the coerced value. */
function at(check: Check, value: unknown, mode: Mode, key: string): unknown {
  try {
    return check(value, mode)
  } catch (error) {
    if (error instanceof ParamFault) error.keys.push(key)
    throw error
  }
}

function arrayCheck(of: Check): Check {
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

interface CompiledField {
  readonly check: Check
  readonly nullable: boolean
}

function objectCheck(fields: ReadonlyMap<string, CompiledField>, required: readonly string[]): Check {
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

function mapCheck(of: Check): Check {
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

function unionCheck(branches: readonly Shape[], compile: (s: Shape) => Check): Check {
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

/**
 * Compiles shapes into checks. Named types compile once, on first use, and are shared by every
 * params type that refers to them (recursive types included).
 */
export class ParamsCompiler {
  readonly #resolve: ShapeResolver
  readonly #named = new Map<string, Check>()
  readonly #validators = new Map<string, ParamsValidator>()

  constructor(resolve: ShapeResolver) {
    this.#resolve = resolve
  }

  /**
   * The validator of a params type, compiled on first use and cached. `undefined` (the operation
   * takes no parameters) refuses any key. See {@link ValidatorOptions} for the adjustments.
   *
   * @example
   * const validate = compiler.validator('CustomerCreateParams')
   * validate({ email: 'a@b.c', balance: '5' }, 'form') // { email: 'a@b.c', balance: 5 }
   */
  validator(typeName: string | undefined, options: ValidatorOptions = {}): ParamsValidator {
    const own = options.own ?? []
    const extra = options.extra ?? {}
    const plain = own.length === 0 && Object.keys(extra).length === 0
    const key = plain ? (typeName ?? '') : `${typeName ?? ''}|${own.join(',')}|${Object.keys(extra).join(',')}`
    const cached = this.#validators.get(key)
    if (cached !== undefined) return cached
    const check = plain
      ? typeName === undefined
        ? objectCheck(new Map(), [])
        : this.#ref(typeName)
      : this.compile(this.#adjusted(typeName, own, extra))
    const validator: ParamsValidator = (input, source) => {
      const mode = source === 'json' ? JSON_ : source === 'query' ? QUERY : FORM
      try {
        return check(input, mode) as Record<string, unknown>
      } catch (error) {
        if (error instanceof ParamFault) throw toServiceError(error, source === 'form' ? 'v1' : 'v2')
        throw error
      }
    }
    this.#validators.set(key, validator)
    return validator
  }

  /** Compiles one shape (exposed for tests of single shapes). */
  compile(shape: Shape): Check {
    switch (shape.t) {
      case 'string':
        return stringCheck(shape.enum)
      case 'integer':
        return integerCheck
      case 'number':
        return numberCheck
      case 'decimal':
        return decimalCheck
      case 'boolean':
        return booleanCheck
      case 'literal':
        return literalCheck(shape.value)
      case 'array':
        return arrayCheck(this.compile(shape.of))
      case 'map':
        return mapCheck(this.compile(shape.of))
      case 'object': {
        const fields = new Map<string, CompiledField>()
        const required: string[] = []
        for (const [name, field] of Object.entries(shape.fields)) {
          fields.set(name, { check: this.compile(field.shape), nullable: field.nullable === true })
          if (field.optional !== true) required.push(name)
        }
        return objectCheck(fields, required)
      }
      case 'union':
        return unionCheck(shape.of, (s) => this.compile(s))
      case 'ref':
        return this.#ref(shape.name)
      case 'expandable':
      case 'any':
        return anyCheck
    }
  }

  /** The top-level object of a params type with `extra` fields added and the `own` fields taking any value. */
  #adjusted(typeName: string | undefined, own: readonly string[], extra: Readonly<Record<string, Field>>): Shape {
    let shape: Shape | undefined = typeName === undefined ? { t: 'object', fields: {} } : this.#resolve(typeName)
    for (let i = 0; i < 20 && shape?.t === 'ref'; i++) shape = this.#resolve(shape.name)
    if (shape?.t !== 'object') return shape ?? { t: 'any' }
    const fields = { ...extra, ...shape.fields }
    for (const name of own) {
      const field = fields[name]
      if (field !== undefined) fields[name] = { ...field, shape: { t: 'any' } }
    }
    return { t: 'object', fields }
  }

  /** A named type's check; compiled on first call, so recursive types terminate. */
  #ref(name: string): Check {
    const known = this.#named.get(name)
    if (known !== undefined) return known
    let compiled: Check | undefined
    const resolve = (): Check => {
      if (compiled !== undefined) return compiled
      const shape = this.#resolve(name)
      compiled = shape === undefined ? anyCheck : this.compile(shape)
      return compiled
    }
    const shape = this.#resolve(name)
    const want: Want =
      shape === undefined
        ? 'any'
        : shape.t === 'object' || shape.t === 'map'
          ? 'object'
          : shape.t === 'array'
            ? 'array'
            : shape.t === 'union' || shape.t === 'ref'
              ? 'any'
              : 'scalar'
    const lazy = tagged(want, (v, mode) => resolve()(v, mode))
    this.#named.set(name, lazy)
    return lazy
  }
}

function toServiceError(fault: ParamFault, style: 'v1' | 'v2'): ServiceError {
  const keys = fault.keys.slice().reverse()
  const param = style === 'v2' ? keys.join('.') : keys.map((k, i) => (i === 0 ? k : `[${k}]`)).join('')
  return paramError(fault.kind, param, fault.value, fault.allowed)
}
