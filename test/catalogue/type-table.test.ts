import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { catalogue, typeShape } from '../../src/catalogue/index.js'
import { typeTable, typeTableText } from '../../src/catalogue/type-table.js'
import type { Shape } from '../../src/catalogue/types.js'

const typesFile = join(import.meta.dirname, '..', '..', 'src', 'catalogue', 'generated', 'types.json')
const header = { clientVersion: '23.1.0', apiVersion: '2026-10-28.endive', generatedBy: 'test' }

describe('the types table read one type at a time', () => {
  it('answers every generated type exactly as parsing the whole file does', () => {
    const whole = (JSON.parse(readFileSync(typesFile, 'utf8')) as { types: Record<string, Shape> }).types
    const table = typeTable(readFileSync(typesFile))
    expect(table.names()).toEqual(Object.keys(whole))
    for (const name of Object.keys(whole)) expect(table.shape(name), name).toEqual(whole[name])
  })

  it('parses a type once and answers the same object to typeShape and catalogue()', () => {
    const first = typeShape('Customer')
    expect(typeShape('Customer')).toBe(first)
    expect(catalogue().types.Customer).toBe(first)
  })

  it('answers undefined for names that are not types, inherited keys included', () => {
    expect(typeShape('NoSuchType')).toBeUndefined()
    expect(typeShape('constructor')).toBeUndefined()
    expect(typeShape('__proto__')).toBeUndefined()
    expect(typeShape('')).toBeUndefined()
  })

  it('writes names sorted and round-trips non-ASCII values, the last line and an empty table', () => {
    const types: Record<string, Shape> = {
      Z: { t: 'any' },
      'A.B': { t: 'ref', name: 'A' },
      A: { t: 'string', enum: ['é', '✓'] },
    }
    const text = typeTableText(header, types)
    expect(JSON.parse(text)).toEqual({ ...header, types })
    const table = typeTable(Buffer.from(text))
    expect(table.names()).toEqual(['A', 'A.B', 'Z'])
    for (const [name, shape] of Object.entries(types)) expect(table.shape(name)).toEqual(shape)
    const empty = typeTableText(header, {})
    expect(JSON.parse(empty)).toEqual({ ...header, types: {} })
    expect(typeTable(Buffer.from(empty)).names()).toEqual([])
  })

  it('reads a table whose newlines a checkout turned into CRLF', () => {
    const types: Record<string, Shape> = { A: { t: 'any' }, B: { t: 'integer' }, C: { t: 'boolean' } }
    const table = typeTable(Buffer.from(typeTableText(header, types).replaceAll('\n', '\r\n')))
    expect(table.names()).toEqual(['A', 'B', 'C'])
    for (const [name, shape] of Object.entries(types)) expect(table.shape(name)).toEqual(shape)
  })

  it('refuses a name the one-per-line layout cannot carry, and a file not in that layout', () => {
    expect(() => typeTableText(header, { 'a"b': { t: 'any' } })).toThrow(/cannot be written one per line/)
    expect(() => typeTable(Buffer.from(JSON.stringify({ ...header, types: { A: { t: 'any' } } })))).toThrow(
      /not one type per line/,
    )
  })
})
