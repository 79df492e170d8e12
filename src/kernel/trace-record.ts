/**
 * One entry as the digest reads it: `<seq>;<at>;<kind length>:<kind>{`, each member of `data` in order as
 * `<name length>:<name>` and its value (a string as `s<length>:<text>`, a number as `n<text>;`,
 * `t`, `f`, `z` for null, a plain object of strings as `o{...}` with its members so written,
 * anything else as `j<length>:<JSON>`; undefined members are left out, as
 * JSON leaves them), `}`, then each raw member as `\0<name>\0<length>\0<text>`. Length-prefixed, so
 * distinct entries never read the same; several times cheaper than `JSON.stringify` on the small
 * flat records a request appends.
 *
 * @example
 * traceRecord(0, 5, 'http', { status: 200 }, { response: '{}' }) // '0;5;4:http{6:statusn200;}\0response\02\0{}'
 */
export function traceRecord(
  seq: number,
  at: number,
  kind: string,
  data: Readonly<Record<string, unknown>>,
  raw?: Readonly<Record<string, string>>,
): string {
  let record = `${seq};${at};${lengthPrefixed(kind)}{`
  for (const name in data) {
    const value = data[name]
    switch (typeof value) {
      case 'string':
        record += `${lengthPrefixed(name)}s${value.length}:${value}`
        break
      case 'number':
        record += `${lengthPrefixed(name)}n${value};`
        break
      case 'boolean':
        record += `${lengthPrefixed(name)}${value ? 't' : 'f'}`
        break
      case 'undefined':
        break
      default: {
        if (value === null) record += `${lengthPrefixed(name)}z`
        else {
          const strings = stringMembers(value)
          if (strings !== undefined) record += `${lengthPrefixed(name)}o{${strings}}`
          else {
            const json = String(JSON.stringify(value))
            record += `${lengthPrefixed(name)}j${json.length}:${json}`
          }
        }
      }
    }
  }
  record += '}'
  if (raw !== undefined) {
    for (const name in raw) {
      const text = raw[name] ?? ''
      record += `\u0000${name}\u0000${text.length}\u0000${text}`
    }
  }
  return record
}

// Kinds and member names are few and fixed: each `<length>:<name>` is made once, not per record.
// Bounded, in case a caller's names never repeat.
const prefixed = new Map<string, string>()
function lengthPrefixed(name: string): string {
  let text = prefixed.get(name)
  if (text === undefined) {
    text = `${name.length}:${name}`
    if (prefixed.size >= 4096) prefixed.clear()
    prefixed.set(name, text)
  }
  return text
}

// The text of frozen objects of strings already written: a frozen object cannot change, and a
// server records the same frozen headers object for request after request. Weak: collected with it.
const frozenTexts = new WeakMap<object, string>()

/** A plain object whose members are all strings (request headers), length-prefixed; else undefined. */
function stringMembers(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const frozen = Object.isFrozen(value)
  if (frozen) {
    const known = frozenTexts.get(value)
    if (known !== undefined) return known
  }
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return undefined
  let out = ''
  for (const name of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[name]
    if (typeof member !== 'string') return undefined
    out += `${name.length}:${name}s${member.length}:${member}`
  }
  if (frozen) frozenTexts.set(value, out)
  return out
}
