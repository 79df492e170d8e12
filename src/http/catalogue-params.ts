import type { Field, Shape } from '#catalogue/types.js'
import { arrayCheck, type CompiledField, mapCheck, objectCheck } from './container-checks.js'
import { type Check, FORM, JSON_, ParamFault, QUERY, tagged, toServiceError, type Want } from './param-fault.js'
import { anyCheck, booleanCheck, decimalCheck, integerCheck, literalCheck, numberCheck, stringCheck } from './scalar-checks.js'
import { unionCheck } from './union-check.js'

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
