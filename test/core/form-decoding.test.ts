import fc from 'fast-check'
import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { parseForm, QS_OPTIONS } from '../../src/http/body.js'

// Pieces a form body is made of, hostile ones included: escapes (valid, malformed, brackets in
// any case), plus signs, repeated and empty keys, prototype names, digits (array-like keys).
const piece = fc.constantFrom(
  'a',
  'b',
  'email',
  '0',
  '12',
  '=',
  '&',
  '+',
  '%40',
  '%2B',
  '%',
  '%zz',
  '%e9',
  '%C3%A9',
  '%5B',
  '%5d',
  '[',
  ']',
  '[]',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'é',
  '😀',
  ' ',
  '.',
)

function shape(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  return {
    proto: Object.getPrototypeOf(value) === null ? 'null' : Array.isArray(value) ? 'array' : 'object',
    entries: Object.entries(value).map(([k, v]) => [k, shape(v)]),
  }
}

describe('form decoding', () => {
  it('gives exactly what qs gives: keys, their order, values and prototypes', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = pieces.join('')
        expect(shape(parseForm(text))).toStrictEqual(shape(qs.parse(text, QS_OPTIONS)))
      }),
      { numRuns: 5000 },
    )
  })

  it('decodes the flat forms clients send', () => {
    const form = parseForm('email=jenny%40example.com&name=Jenny+Rosen&flag&=x&2=two')
    expect(Object.getPrototypeOf(form)).toBeNull()
    expect(Object.entries(form)).toStrictEqual([
      ['2', 'two'],
      ['email', 'jenny@example.com'],
      ['name', 'Jenny Rosen'],
      ['flag', ''],
    ])
  })
})
