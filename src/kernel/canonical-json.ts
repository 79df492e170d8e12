/**
 * JSON with object keys sorted at every depth and `undefined` members dropped, so that equal values
 * always serialise to equal bytes. The trace hash and `report.json` are built on it.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, { d: 2, c: 3 }] }) // '{"a":[true,{"c":3,"d":2}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return write(value)
}

function write(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null'
    if (value === undefined || typeof value === 'function') return 'null'
    if (typeof value === 'bigint') return JSON.stringify(value.toString())
    return JSON.stringify(value)
  }
  if (Array.isArray(value)) return `[${value.map(write).join(',')}]`
  const obj = value as Record<string, unknown>
  const keys = Object.keys(obj).sort()
  let out = '{'
  let first = true
  for (const k of keys) {
    const v = obj[k]
    if (v === undefined || typeof v === 'function') continue
    out += `${first ? '' : ','}${JSON.stringify(k)}:${write(v)}`
    first = false
  }
  return `${out}}`
}
