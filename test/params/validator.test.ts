import { describe, expect, it } from 'vitest'
import type { Shape } from '../../src/catalogue/types.js'
import { ServiceError } from '../../src/domain/service-error.js'
import { type ParamSource, ParamsCompiler } from '../../src/http/catalogue-params.js'

// Hand-written shapes in the catalogue's format, as the generator writes them for the client's
// declarations (`Emptyable<T>` is `null | '' | T`).
const emptyable = (s: Shape): Shape => ({ t: 'union', of: [{ t: 'literal', value: null }, { t: 'literal', value: '' }, s] })
const types: Record<string, Shape> = {
  MetadataParam: { t: 'map', of: { t: 'union', of: [{ t: 'string' }, { t: 'number' }, { t: 'literal', value: null }] } },
  RangeQueryParam: {
    t: 'object',
    fields: {
      gt: { shape: { t: 'integer' }, optional: true },
      gte: { shape: { t: 'integer' }, optional: true },
      lt: { shape: { t: 'integer' }, optional: true },
      lte: { shape: { t: 'integer' }, optional: true },
    },
  },
  AddressParam: {
    t: 'object',
    fields: { city: { shape: { t: 'string' }, optional: true }, line1: { shape: { t: 'string' }, optional: true } },
  },
  TestCreateParams: {
    t: 'object',
    fields: {
      amount: { shape: { t: 'integer' } },
      currency: { shape: { t: 'string' } },
      confirm: { shape: { t: 'boolean' }, optional: true },
      capture_method: { shape: { t: 'string', enum: ['automatic', 'automatic_async', 'manual'] }, optional: true },
      setup_future_usage: {
        shape: {
          t: 'union',
          of: [
            { t: 'literal', value: 'off_session' },
            { t: 'literal', value: 'on_session' },
          ],
        },
        optional: true,
      },
      metadata: { shape: emptyable({ t: 'ref', name: 'MetadataParam' }), optional: true },
      address: { shape: emptyable({ t: 'ref', name: 'AddressParam' }), optional: true },
      description: { shape: emptyable({ t: 'string' }), optional: true },
      expand: { shape: { t: 'array', of: { t: 'string' } }, optional: true },
      created: { shape: { t: 'union', of: [{ t: 'ref', name: 'RangeQueryParam' }, { t: 'integer' }] }, optional: true },
      unit_amount_decimal: { shape: { t: 'decimal' }, optional: true },
      ratio: { shape: { t: 'number' }, optional: true },
      automatic_payment_methods: {
        shape: {
          t: 'object',
          fields: {
            enabled: { shape: { t: 'boolean' } },
            allow_redirects: { shape: { t: 'string', enum: ['always', 'never'] }, optional: true },
          },
        },
        optional: true,
      },
      items: {
        shape: {
          t: 'array',
          of: {
            t: 'object',
            fields: { price: { shape: { t: 'string' } }, quantity: { shape: { t: 'integer' }, optional: true } },
          },
        },
        optional: true,
      },
      tree: { shape: { t: 'ref', name: 'Tree' }, optional: true },
    },
  },
  Tree: {
    t: 'object',
    fields: { name: { shape: { t: 'string' }, optional: true }, child: { shape: { t: 'ref', name: 'Tree' }, optional: true } },
  },
  V2Params: {
    t: 'object',
    fields: {
      payload: { shape: { t: 'object', fields: { value: { shape: { t: 'integer' } } } } },
      flag: { shape: { t: 'boolean' }, optional: true },
      note: { shape: { t: 'string' }, optional: true, nullable: true },
    },
  },
}

const compiler = new ParamsCompiler((name) => types[name])
const validate = (input: Record<string, unknown>, source: ParamSource = 'form') =>
  compiler.validator('TestCreateParams')(input, source)

function refusal(run: () => unknown): Record<string, unknown> {
  try {
    run()
  } catch (error) {
    if (error instanceof ServiceError) return { status: error.status, ...error.toJSON().error }
    throw error
  }
  throw new Error('expected a refusal')
}

const base = { amount: '100', currency: 'usd' }

describe('params validation from catalogue shapes', () => {
  it('coerces form strings to integers and booleans, True/False included', () => {
    expect(validate({ ...base, confirm: 'True' })).toEqual({ amount: 100, currency: 'usd', confirm: true })
    expect(validate({ ...base, confirm: 'False' }).confirm).toBe(false)
    expect(validate({ ...base, confirm: 'true' }).confirm).toBe(true)
  })

  it('refuses a bad integer in the provider words', () => {
    expect(refusal(() => validate({ ...base, amount: 'abc' }))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      code: 'parameter_invalid_integer',
      message: 'Invalid integer: abc',
      param: 'amount',
      doc_url: 'https://docs.stripe.com/error-codes/parameter-invalid-integer',
    })
    expect(refusal(() => validate({ ...base, amount: '10.99' })).message).toBe('Invalid integer: 10.99')
  })

  it('names unknown parameters, nested ones in brackets', () => {
    expect(refusal(() => validate({ ...base, colour: 'red' }))).toMatchObject({
      code: 'parameter_unknown',
      message: 'Received unknown parameter: colour',
      param: 'colour',
      doc_url: 'https://docs.stripe.com/error-codes/parameter-unknown',
    })
    expect(refusal(() => validate({ ...base, metadata: { x: { y: '1' } } }))).toMatchObject({
      code: 'parameter_unknown',
      message: 'Received unknown parameter: metadata[x][y]',
      param: 'metadata[x][y]',
    })
    expect(refusal(() => validate({ ...base, items: [{ price: 'p', colour: 'red' }] }))).toMatchObject({
      param: 'items[0][colour]',
    })
  })

  it('names missing parameters, nested ones too', () => {
    expect(refusal(() => validate({ currency: 'usd' }))).toMatchObject({
      code: 'parameter_missing',
      message: 'Missing required param: amount.',
      param: 'amount',
    })
    expect(refusal(() => validate({ ...base, automatic_payment_methods: { allow_redirects: 'never' } }))).toMatchObject({
      code: 'parameter_missing',
      message: 'Missing required param: automatic_payment_methods[enabled].',
    })
  })

  it('lists the allowed values of an enum', () => {
    expect(refusal(() => validate({ ...base, capture_method: 'later' }))).toMatchObject({
      code: 'parameter_invalid',
      message: 'Invalid capture_method: must be one of automatic, automatic_async, or manual',
      param: 'capture_method',
    })
    expect(refusal(() => validate({ ...base, setup_future_usage: 'never' })).message).toBe(
      'Invalid setup_future_usage: must be one of off_session or on_session',
    )
    expect(refusal(() => validate({ ...base, capture_method: '' }))).toMatchObject({ code: 'parameter_invalid_empty' })
  })

  it('refuses bad booleans, arrays and objects', () => {
    expect(refusal(() => validate({ ...base, confirm: 'yes' }))).toMatchObject({
      message: 'Invalid boolean: yes',
      param: 'confirm',
    })
    expect(refusal(() => validate({ ...base, expand: 'customer' }))).toMatchObject({ message: 'Invalid array', param: 'expand' })
    expect(refusal(() => validate({ ...base, automatic_payment_methods: 'on' }))).toMatchObject({
      message: 'Invalid object',
      param: 'automatic_payment_methods',
    })
  })

  it('reads Emptyable "" as unset (null), keeps "" inside maps', () => {
    expect(validate({ ...base, metadata: '', description: '', address: '' })).toMatchObject({
      metadata: null,
      description: null,
      address: null,
    })
    expect(validate({ ...base, metadata: { plan: '' } }).metadata).toEqual({ plan: '' })
  })

  it('accepts a range or an integer where the client declares both', () => {
    expect(validate({ ...base, created: { gte: '5', lt: '9' } }).created).toEqual({ gte: 5, lt: 9 })
    expect(validate({ ...base, created: '7' }).created).toBe(7)
    expect(refusal(() => validate({ ...base, created: { gte: 'x' } }))).toMatchObject({
      param: 'created[gte]',
      message: 'Invalid integer: x',
    })
    expect(refusal(() => validate({ ...base, created: 'x' }))).toMatchObject({ param: 'created', message: 'Invalid integer: x' })
    expect(refusal(() => validate({ ...base, created: { since: '1' } }))).toMatchObject({
      code: 'parameter_unknown',
      param: 'created[since]',
    })
  })

  it('reads arrays sent as objects with numeric keys, and decimals and numbers', () => {
    expect(validate({ ...base, expand: { '0': 'a', '1': 'b' } }).expand).toEqual(['a', 'b'])
    expect(validate({ ...base, unit_amount_decimal: '12.5', ratio: '0.25' })).toMatchObject({
      unit_amount_decimal: '12.5',
      ratio: 0.25,
    })
    expect(refusal(() => validate({ ...base, unit_amount_decimal: 'x' })).message).toBe('Invalid decimal: x')
  })

  it('leaves unchanged input as the same object (no copy on the hot path)', () => {
    const input = { amount: 5, currency: 'usd', expand: ['a'] }
    expect(validate(input, 'json')).toBe(input)
  })

  it('handles recursive types, deep nesting and huge arrays without throwing anything but a 400', () => {
    let deep: Record<string, unknown> = { name: 'leaf' }
    for (let i = 0; i < 200; i++) deep = { child: deep }
    expect(validate({ ...base, tree: deep }).tree).toBe(deep)
    const huge = Array.from({ length: 50_000 }, (_, i) => `x${i}`)
    expect(validate({ ...base, expand: huge }).expand).toBe(huge)
    const bad = [...huge, { a: 1 }]
    expect(refusal(() => validate({ ...base, expand: bad }, 'json'))).toMatchObject({ param: 'expand.50000' })
  })

  it('names v2 parameters with dots and reads JSON types', () => {
    const v2 = compiler.validator('V2Params')
    expect(v2({ payload: { value: '12' } }, 'json')).toEqual({ payload: { value: 12 } })
    expect(v2({ payload: { value: 3 }, note: null }, 'json')).toEqual({ payload: { value: 3 }, note: null })
    expect(refusal(() => v2({ payload: { value: 'x' } }, 'json'))).toMatchObject({ param: 'payload.value' })
    expect(refusal(() => v2({ payload: {} }, 'json'))).toMatchObject({
      message: 'Missing required param: payload.value.',
      param: 'payload.value',
    })
    expect(refusal(() => v2({ payload: { value: 1 }, flag: 'true' }, 'json'))).toMatchObject({ message: 'Invalid boolean: true' })
    expect(v2({ payload: { value: '1' }, flag: 'true' }, 'query').flag).toBe(true)
    expect(refusal(() => v2({ payload: { value: '1' }, flag: 'True' }, 'query'))).toMatchObject({ param: 'flag' })
  })

  it('refuses every key of an operation that takes no parameters', () => {
    expect(compiler.validator(undefined)({}, 'form')).toEqual({})
    expect(refusal(() => compiler.validator(undefined)({ a: '1' }, 'form'))).toMatchObject({
      code: 'parameter_unknown',
      param: 'a',
    })
  })
})
