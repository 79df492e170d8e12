import { tableError } from '../service-error.js'
import { isPlainObject } from './apply-params.js'
import { type Json, listLimit } from './list.js'

/** One clause of a search query: `email:'a@b.c'`, `name~'jen'`, `metadata['k']:'v'`, `created>100`, `-status:'x'`. */
export interface Clause {
  readonly negated: boolean
  /** Field path (`email`, `status`), or the metadata key. */
  readonly field: string
  readonly metadata: boolean
  readonly op: ':' | '~' | '>' | '<' | '>=' | '<='
  readonly value: string | number | null
}

export interface Query {
  readonly clauses: readonly Clause[]
  readonly join: 'AND' | 'OR'
}

const CLAUSE =
  /\s*(-?)(?:metadata\[(?:'([^']*)'|"([^"]*)")\]|([A-Za-z_][\w.]*))\s*(:|~|>=|<=|>|<)\s*(?:'([^']*)'|"([^"]*)"|(-?\d+(?:\.\d+)?)|(null))\s*/y
const JOIN = /(AND|OR)\s+/y

/**
 * Parses the documented subset of the search query language: clauses joined by `AND` (or all by
 * `OR`), exact `:`, substring `~`, numeric `>`, `<`, `>=`, `<=`, `metadata['key']`, `-` negation.
 *
 * @example
 * parseQuery("metadata['plan']:'pro' AND email:'a@b.c'").clauses.length // 2
 */
export function parseQuery(text: string): Query {
  const clauses: Clause[] = []
  const joins = new Set<'AND' | 'OR'>()
  let at = 0
  for (;;) {
    CLAUSE.lastIndex = at
    const m = CLAUSE.exec(text)
    if (m === null) throw badQuery(text)
    const metaKey = m[2] ?? m[3]
    const num = m[8]
    clauses.push({
      negated: m[1] === '-',
      field: metaKey ?? (m[4] as string),
      metadata: metaKey !== undefined,
      op: m[5] as Clause['op'],
      value: m[9] !== undefined ? null : num !== undefined ? Number(num) : (m[6] ?? m[7] ?? ''),
    })
    at = CLAUSE.lastIndex
    if (at >= text.length) break
    JOIN.lastIndex = at
    const j = JOIN.exec(text)
    if (j === null) throw badQuery(text)
    joins.add(j[1] as 'AND' | 'OR')
    at = JOIN.lastIndex
  }
  if (joins.size > 1) throw tableError('search_query_mixed', {}, { param: 'query' })
  return { clauses, join: joins.has('OR') ? 'OR' : 'AND' }
}

function badQuery(text: string) {
  return tableError('parameter_invalid', { param: 'search query', detail: `'${text}'.` }, { param: 'query' })
}

/** Whether an object matches a parsed query. */
export function matches(item: Json, query: Query): boolean {
  const test = (c: Clause) => clauseMatches(item, c) !== c.negated
  return query.join === 'AND' ? query.clauses.every(test) : query.clauses.some(test)
}

function clauseMatches(item: Json, c: Clause): boolean {
  let value: unknown
  if (c.metadata) value = isPlainObject(item.metadata) ? item.metadata[c.field] : undefined
  else {
    value = item
    for (const seg of c.field.split('.')) value = isPlainObject(value) ? value[seg] : undefined
  }
  if (isPlainObject(value) && typeof value.id === 'string') value = value.id
  if (c.value === null) return value === null || value === undefined
  switch (c.op) {
    case ':':
      return typeof c.value === 'number' ? value === c.value : String(value ?? '').toLowerCase() === c.value.toLowerCase()
    case '~':
      return typeof value === 'string' && value.toLowerCase().includes(String(c.value).toLowerCase())
    default: {
      if (typeof value !== 'number' || typeof c.value !== 'number') return false
      if (c.op === '>') return value > c.value
      if (c.op === '<') return value < c.value
      if (c.op === '>=') return value >= c.value
      return value <= c.value
    }
  }
}

/**
 * Search fields the provider documents that are not fields of the object in the current version,
 * by resource, each with the path where the object keeps it (the invoice's flattened error fields,
 * its subscription under `parent`, its receipt number, which it does not show).
 */
const EXTRA_SEARCH_FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  invoices: {
    last_finalization_error_code: 'last_finalization_error.code',
    last_finalization_error_type: 'last_finalization_error.type',
    receipt_number: 'receipt_number',
    subscription: 'parent.subscription_details.subscription',
  },
}

/**
 * Refuses a clause on a field the searched objects do not have (`known`: the object type's fields),
 * as the provider does, so a misspelt field is an error rather than an empty result; answers the
 * query with each documented extra field read where the object keeps it.
 */
function checkFields(query: Query, url: string, known: ReadonlySet<string>): Query {
  const resource = /\/([a-z_]+)\/search$/.exec(url)?.[1] ?? 'objects'
  const extra = EXTRA_SEARCH_FIELDS[resource] ?? {}
  const clauses = query.clauses.map((c) => {
    if (c.metadata) return c
    if (Object.hasOwn(extra, c.field)) return { ...c, field: extra[c.field] as string }
    if (known.size === 0 || known.has(c.field.split('.')[0] ?? '')) return c
    throw tableError('search_field_unsupported', { field: c.field, resource }, { param: 'query' })
  })
  return { ...query, clauses }
}

/**
 * A search over `items` (newest first): `query` required, `limit` (1 to 100, default 10), `page`
 * (the opaque `next_page` of a previous answer). `fields`, the object type's fields, are the ones a
 * clause may name (none given: any).
 *
 * @example
 * searchPage(customers, { query: "email:'a@b.c'" }, '/v1/customers/search', new Set(['email', 'name']))
 * // { object: 'search_result', data: [...], has_more: false, next_page: null, url: '/v1/customers/search' }
 */
export function searchPage(
  items: readonly Json[],
  params: Readonly<Record<string, unknown>>,
  url: string,
  fields: ReadonlySet<string> = new Set(),
) {
  if (typeof params.query !== 'string' || params.query === '') {
    throw tableError('parameter_missing', { param: 'query' }, { param: 'query' })
  }
  const query = checkFields(parseQuery(params.query), url, fields)
  const limit = listLimit(params.limit)
  const start = params.page === undefined ? 0 : decodePage(params.page)
  const hits = items.filter((i) => matches(i, query))
  const data = hits.slice(start, start + limit)
  const more = start + limit < hits.length
  return {
    object: 'search_result' as const,
    data,
    has_more: more,
    next_page: more ? Buffer.from(`o:${start + limit}`, 'utf8').toString('base64url') : null,
    url,
  }
}

function decodePage(page: unknown): number {
  const text = typeof page === 'string' ? Buffer.from(page, 'base64url').toString('utf8') : ''
  const m = /^o:(\d+)$/.exec(text)
  if (m === null) throw tableError('parameter_invalid', { param: 'page', detail: `'${String(page)}'.` }, { param: 'page' })
  return Number(m[1])
}
