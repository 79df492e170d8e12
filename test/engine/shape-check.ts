import { typeShape } from '../../src/catalogue/index.js'
import type { Field, Shape } from '../../src/catalogue/types.js'

/**
 * Problems of a value against a catalogue type: every non-optional field present with its declared
 * type (`null` only where nullable), recursively into nested objects (to `depth`).
 */
export function shapeProblems(type: string, value: unknown, depth = 3): string[] {
  const out: string[] = []
  check({ t: 'ref', name: type }, value, type, depth, out)
  return out
}

function resolve(shape: Shape): Shape {
  let s = shape
  for (let i = 0; s.t === 'ref' && i < 16; i++) s = typeShape(s.name) ?? { t: 'any' }
  return s
}

function field(f: Field, value: unknown, path: string, depth: number, out: string[]): void {
  if (value === undefined) {
    if (!f.optional) out.push(`${path}: missing`)
    return
  }
  if (value === null) {
    if (!f.nullable && !(resolve(f.shape).t === 'any')) out.push(`${path}: null but not nullable`)
    return
  }
  check(f.shape, value, path, depth, out)
}

function matches(shape: Shape, value: unknown, depth: number): boolean {
  const probe: string[] = []
  check(shape, value, '', depth, probe)
  return probe.length === 0
}

function check(shape: Shape, value: unknown, path: string, depth: number, out: string[]): void {
  const s = resolve(shape)
  const bad = (what: string) => out.push(`${path}: expected ${what}, got ${JSON.stringify(value)?.slice(0, 60)}`)
  switch (s.t) {
    case 'string':
      if (typeof value !== 'string') bad('string')
      return
    case 'decimal':
      if (typeof value !== 'string') bad('decimal string')
      return
    case 'integer':
      if (!Number.isInteger(value)) bad('integer')
      return
    case 'number':
      if (typeof value !== 'number') bad('number')
      return
    case 'boolean':
      if (typeof value !== 'boolean') bad('boolean')
      return
    case 'literal':
      if (value !== s.value) bad(JSON.stringify(s.value))
      return
    case 'array':
      if (!Array.isArray(value)) bad('array')
      return
    case 'map':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) bad('map')
      return
    case 'expandable':
      if (typeof value !== 'string' && (typeof value !== 'object' || value === null)) bad('id or object')
      return
    case 'union':
      if (!s.of.some((m) => matches(m, value, depth))) bad('one of a union')
      return
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return void bad('object')
      if (depth <= 0) return
      for (const [k, f] of Object.entries(s.fields))
        field(f, (value as Record<string, unknown>)[k], `${path}.${k}`, depth - 1, out)
      return
    }
    default:
      return
  }
}
