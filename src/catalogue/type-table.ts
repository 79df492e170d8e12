/**
 * The layout of `generated/types.json`, written by the generator and read at run time: valid JSON
 * with one named type per line, so a process reads one type without parsing the others.
 *
 * ```text
 * {"clientVersion":"…","apiVersion":"…","generatedBy":"…","types":{
 * "Account":{"t":"object","fields":{…}},
 * "Account.BusinessProfile":{"t":"object","fields":{…}},
 * …
 * "WebhookEndpointUpdateParams":{"t":"object","fields":{…}}
 * }}
 * ```
 *
 * Parsing the whole table (3 MB, ~7,700 types) cost a fresh process about 50 ms and a garbage
 * collection on its first request, which every test file of a user's suite pays; a request needs
 * a few dozen types. The table is read into one buffer, and a type is found by a binary search
 * over the sorted lines and parsed when it is first asked for.
 *
 * @example
 * const table = typeTable(readFileSync(new URL('./generated/types.json', import.meta.url)))
 * table.shape('Customer')?.t // 'object'
 */
import type { Shape } from './types.js'

/** The header fields the generator writes before `types`. */
export interface TypeTableHeader {
  readonly clientVersion: string
  readonly apiVersion: string
  readonly generatedBy: string
}

/** A type name the layout can carry: the client's names are dotted identifiers. */
const NAME = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/

/**
 * The text of `types.json` for these types, sorted by name.
 *
 * @example
 * typeTableText({ clientVersion: '23.1.0', apiVersion: 'x', generatedBy: 'g' }, { A: { t: 'any' } })
 * // '{"clientVersion":"23.1.0","apiVersion":"x","generatedBy":"g","types":{\n"A":{"t":"any"}\n}}\n'
 */
export function typeTableText(header: TypeTableHeader, types: Readonly<Record<string, Shape>>): string {
  // sorted by UTF-16 code units (bytes, for these ASCII names): the reader binary-searches the lines
  const sorted = Object.entries(types).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const lines = sorted.map(([name, shape]) => {
    if (!NAME.test(name)) throw new Error(`type name ${JSON.stringify(name)} cannot be written one per line`)
    return `${JSON.stringify(name)}:${JSON.stringify(shape)}`
  })
  // `{…,"types":{}}` less its closing `}}`
  const open = JSON.stringify({ ...header, types: {} }).slice(0, -2)
  const body = lines.length > 0 ? `${lines.join(',\n')}\n` : ''
  return `${open}\n${body}}}\n`
}

/** Named types read one at a time from the text {@link typeTableText} wrote. */
export interface TypeTable {
  /** The shape of a named type, parsed on first use and kept; `undefined` for an unknown name. */
  shape(name: string): Shape | undefined
  /** Every type name, in file order. */
  names(): readonly string[]
}

const NEWLINE = 0x0a
const QUOTE = 0x22
const COMMA = 0x2c
const RETURN = 0x0d

/**
 * Reads named types out of a `types.json` buffer on demand: a binary search over its sorted lines
 * finds a name's line, and only that line is parsed. Nothing is indexed up front (indexing all
 * ~7,700 lines cost a cold process 20-50 ms, as much as the parse it replaced).
 *
 * @example
 * const table = typeTable(Buffer.from(typeTableText(header, { A: { t: 'any' } })))
 * table.shape('A') // { t: 'any' }
 */
export function typeTable(buffer: Buffer): TypeTable {
  const bodyStart = buffer.indexOf(NEWLINE) + 1
  // the line `}}` that closes the document
  const bodyEnd = buffer.lastIndexOf('\n}}') + 1
  if (bodyStart === 0 || bodyEnd < bodyStart) {
    throw new Error('types.json is not one type per line: regenerate it with npm run catalogue')
  }
  const parsed = new Map<string, Shape | undefined>()
  const nameAt = (lineStart: number) => buffer.toString('latin1', lineStart + 1, buffer.indexOf(QUOTE, lineStart + 1))
  const shapeOnLine = (lineStart: number, lineEnd: number): Shape => {
    const from = buffer.indexOf(QUOTE, lineStart + 1) + 2
    // the separating comma, and a carriage return where a checkout turned the newlines into CRLF
    let end = lineEnd
    while (buffer[end - 1] === COMMA || buffer[end - 1] === RETURN) end--
    return JSON.parse(buffer.toString('utf8', from, end)) as Shape
  }
  const find = (name: string): Shape | undefined => {
    // lo and hi are line starts; the line holding `mid` is compared
    let [lo, hi] = [bodyStart, bodyEnd]
    while (lo < hi) {
      const start = buffer.lastIndexOf(NEWLINE, ((lo + hi) >>> 1) - 1) + 1
      const lineEnd = buffer.indexOf(NEWLINE, start)
      const key = nameAt(start)
      if (key === name) return shapeOnLine(start, lineEnd)
      if (key < name) lo = lineEnd + 1
      else hi = start
    }
    return undefined
  }
  return {
    shape(name) {
      const known = parsed.get(name)
      if (known !== undefined || parsed.has(name)) return known
      const shape = find(name)
      parsed.set(name, shape)
      return shape
    },
    names() {
      const out: string[] = []
      for (let at = bodyStart; at < bodyEnd; at = buffer.indexOf(NEWLINE, at) + 1) out.push(nameAt(at))
      return out
    },
  }
}
