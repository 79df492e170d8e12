import { SEARCH_CLAUSES_MAX } from '#catalogue/search-fields.js'
import { tableError } from '../service-error.js'

/** A clause's value: a quoted string, an unquoted number, `true`/`false`, or `null`. */
export type ClauseValue =
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'boolean'; readonly flag: boolean }
  | { readonly kind: 'null' }

/** One clause of a search query: `email:'a@b.c'`, `name~'jen'`, `metadata['k']:'v'`, `created>100`, `-status:'x'`. */
export interface Clause {
  readonly negated: boolean
  /** Field path (`email`, `payment_method_details.card.last4`), or the metadata key. */
  readonly field: string
  readonly metadata: boolean
  readonly op: ':' | '~' | '>' | '<' | '>=' | '<='
  readonly value: ClauseValue
}

export interface Query {
  readonly clauses: readonly Clause[]
  readonly join: 'AND' | 'OR'
}

const FIELD =
  /\s*(-?)(?:metadata\[\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*\]|([A-Za-z_]\w*(?:\.\w+)*))\s*(:|~|>=|<=|>|<)\s*/y
const VALUE = /(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?)(?![\w.])|(null|true|false)(?!\w))/y
const JOIN = /\s+(?:(AND|OR)\s+)?/iy

/**
 * Parses the provider's search query language: clauses joined by `AND` (or all by `OR`, either
 * case; a bare space is `AND`), exact `:`, substring `~`, numeric `>`, `<`, `>=`, `<=`,
 * `metadata['key']`, `-` negation, values quoted with `'` or `"` (a backslash escapes the quote),
 * unquoted numbers, `true`, `false` and `null`; at most {@link SEARCH_CLAUSES_MAX} clauses.
 *
 * @example
 * parseQuery("metadata['plan']:'pro' AND email:'a@b.c'").clauses.length // 2
 * parseQuery('amount>1000 currency:"usd"').join // 'AND'
 */
export function parseQuery(text: string): Query {
  const clauses: Clause[] = []
  const joins = new Set<'AND' | 'OR'>()
  let at = 0
  for (;;) {
    const clause = readClause(text, at)
    clauses.push(clause.clause)
    at = clause.end
    const rest = text.slice(at)
    if (rest.trim() === '') break
    JOIN.lastIndex = at
    const j = JOIN.exec(text)
    if (j === null) throw badQuery(`unexpected \`${rest.trim()}\` at position ${at}.`)
    joins.add(j[1] === undefined ? 'AND' : (j[1].toUpperCase() as 'AND' | 'OR'))
    at = JOIN.lastIndex
  }
  if (joins.size > 1) throw tableError('search_query_mixed', {}, { param: 'query' })
  if (clauses.length > SEARCH_CLAUSES_MAX) {
    throw badQuery(`a query may join at most ${SEARCH_CLAUSES_MAX} clauses, this one has ${clauses.length}.`)
  }
  return { clauses, join: joins.has('OR') ? 'OR' : 'AND' }
}

function readClause(text: string, at: number): { clause: Clause; end: number } {
  FIELD.lastIndex = at
  const f = FIELD.exec(text)
  if (f === null) throw badQuery(`expected a clause (field, operator, value) at position ${at}.`)
  VALUE.lastIndex = FIELD.lastIndex
  const v = VALUE.exec(text)
  if (v === null) {
    throw badQuery(`the value at position ${FIELD.lastIndex} must be quoted, a number, true, false or null.`)
  }
  const metaKey = f[2] ?? f[3]
  const clause: Clause = {
    negated: f[1] === '-',
    field: metaKey === undefined ? (f[4] as string) : unquote(metaKey),
    metadata: metaKey !== undefined,
    op: f[5] as Clause['op'],
    value: clauseValue(v),
  }
  return { clause, end: VALUE.lastIndex }
}

function clauseValue(v: RegExpExecArray): ClauseValue {
  const quoted = v[1] ?? v[2]
  if (quoted !== undefined) return { kind: 'string', text: unquote(quoted) }
  if (v[3] !== undefined) return { kind: 'number', number: Number(v[3]) }
  if (v[4] === 'null') return { kind: 'null' }
  return { kind: 'boolean', flag: v[4] === 'true' }
}

function unquote(s: string): string {
  return s.replace(/\\(.)/g, '$1')
}

function badQuery(detail: string) {
  return tableError('search_query_invalid', { detail }, { param: 'query' })
}
