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
 * a few dozen types. The table is read into one buffer, its lines are indexed by name (a scan for
 * newlines, no JSON parse), and a type is parsed when it is first asked for.
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
 * The text of `types.json` for these types, in the order given (the generator sorts them).
 *
 * @example
 * typeTableText({ clientVersion: '23.1.0', apiVersion: 'x', generatedBy: 'g' }, { A: { t: 'any' } })
 * // '{"clientVersion":"23.1.0","apiVersion":"x","generatedBy":"g","types":{\n"A":{"t":"any"}\n}}\n'
 */
export function typeTableText(header: TypeTableHeader, types: Readonly<Record<string, Shape>>): string {
  const lines = Object.entries(types).map(([name, shape]) => {
    if (!NAME.test(name)) throw new Error(`type name ${JSON.stringify(name)} cannot be written one per line`)
    return `${JSON.stringify(name)}:${JSON.stringify(shape)}`
  })
  // `{…,"types":{}}` less its closing `}}`
  const open = JSON.stringify({ ...header, types: {} }).slice(0, -2)
  return `${open}\n${lines.join(',\n')}\n}}\n`
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

/**
 * Indexes the lines of a `types.json` buffer by type name; shapes are parsed on demand.
 *
 * @example
 * const table = typeTable(Buffer.from(typeTableText(header, { A: { t: 'any' } })))
 * table.shape('A') // { t: 'any' }
 */
export function typeTable(buffer: Buffer): TypeTable {
  // name -> [start, end) of its JSON value in the buffer
  const spans = new Map<string, readonly [number, number]>()
  const parsed = new Map<string, Shape>()
  let at = buffer.indexOf(NEWLINE) + 1
  if (at === 0) throw new Error('types.json is not one type per line: regenerate it with npm run catalogue')
  while (at < buffer.length && buffer[at] === QUOTE) {
    const lineEnd = buffer.indexOf(NEWLINE, at)
    const nameEnd = buffer.indexOf(QUOTE, at + 1)
    const end = buffer[lineEnd - 1] === COMMA ? lineEnd - 1 : lineEnd
    // `"Name":` then the value; names are ASCII (checked when written), so latin1 reads them exactly
    spans.set(buffer.toString('latin1', at + 1, nameEnd), [nameEnd + 2, end])
    at = lineEnd + 1
  }
  return {
    shape(name) {
      const known = parsed.get(name)
      if (known !== undefined) return known
      const span = spans.get(name)
      if (span === undefined) return undefined
      const shape = JSON.parse(buffer.toString('utf8', span[0], span[1])) as Shape
      parsed.set(name, shape)
      return shape
    },
    names: () => [...spans.keys()],
  }
}
