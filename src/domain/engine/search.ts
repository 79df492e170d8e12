import { SEARCH_FIELDS, SEARCH_SUBSTRING_MIN, type SearchField } from '#catalogue/search-fields.js'
import { tableError } from '../service-error.js'
import { isPlainObject } from './apply-params.js'
import { type Json, listLimit } from './list.js'
import { type Clause, type ClauseValue, parseQuery, type Query } from './search-query.js'

/** A clause checked against its field: where the object keeps the value and how it compares. */
interface Checked {
  readonly clause: Clause
  readonly path: readonly string[]
  readonly field: SearchField
}

const METADATA: SearchField = { type: 'token' }

/** Whether an object matches the checked clauses (all of them, or any for `OR`). */
function matches(item: Json, clauses: readonly Checked[], join: Query['join']): boolean {
  const test = (c: Checked) => clauseMatches(item, c) !== c.clause.negated
  return join === 'AND' ? clauses.every(test) : clauses.some(test)
}

function read(item: Json, path: readonly string[]): unknown {
  let value: unknown = item
  for (const seg of path) {
    if (Array.isArray(value)) value = value[Number(seg)]
    else value = isPlainObject(value) ? value[seg] : undefined
  }
  return isPlainObject(value) && typeof value.id === 'string' ? value.id : value
}

function clauseMatches(item: Json, c: Checked): boolean {
  const value = read(item, c.path)
  const want = c.clause.value
  if (want.kind === 'null') return value === null || value === undefined
  switch (c.field.type) {
    case 'numeric':
      return compare(value, numberOf(want), c.clause.op)
    case 'boolean':
      return value === (want.kind === 'boolean' ? want.flag : String(textOf(want)).toLowerCase() === 'true')
    case 'token':
      return typeof value === 'string' && value === textOf(want)
    default: {
      if (typeof value !== 'string') return false
      const [have, wanted] = [value.toLowerCase(), textOf(want).toLowerCase()]
      return c.clause.op === '~' ? have.includes(wanted) : have === wanted
    }
  }
}

function compare(value: unknown, want: number, op: Clause['op']): boolean {
  if (typeof value !== 'number') return false
  if (op === '>') return value > want
  if (op === '<') return value < want
  if (op === '>=') return value >= want
  if (op === '<=') return value <= want
  return value === want
}

function textOf(v: ClauseValue): string {
  if (v.kind === 'string') return v.text
  if (v.kind === 'number') return String(v.number)
  if (v.kind === 'boolean') return String(v.flag)
  return ''
}

function numberOf(v: ClauseValue): number {
  return v.kind === 'number' ? v.number : Number(textOf(v))
}

/** The anchor of the provider's list of a resource's query fields (`payment_intents`: `payment-intents`). */
function anchorOf(resource: string): string {
  return resource.replaceAll('_', '-')
}

/**
 * Checks each clause against the resource's documented query fields, as the provider does: a field
 * it does not list is refused (a misspelt query is an error, not "no results"), and so is an
 * operator or value the field's type does not take (`~` only on text fields that allow it, with at
 * least three characters; `>`, `<`, `>=`, `<=` only on numeric ones; a number or boolean where it
 * compares one). Each clause is answered with the path where the current object keeps the field.
 */
function checkClauses(query: Query, resource: string): Checked[] {
  const fields = SEARCH_FIELDS[resource]
  return query.clauses.map((clause) => {
    if (clause.metadata) {
      checkValue(clause, METADATA, resource, `metadata['${clause.field}']`)
      return { clause, path: ['metadata', clause.field], field: METADATA }
    }
    const field = fields?.[clause.field]
    if (fields === undefined) return { clause, path: clause.field.split('.'), field: { type: 'string', substring: true } }
    if (field === undefined) {
      throw tableError(
        'search_field_unsupported',
        { field: clause.field, resource, anchor: anchorOf(resource) },
        { param: 'query' },
      )
    }
    checkValue(clause, field, resource, clause.field)
    return { clause, path: (field.path ?? clause.field).split('.'), field }
  })
}

function checkValue(clause: Clause, field: SearchField, resource: string, name: string): void {
  const refuse = (what: string) =>
    tableError('search_value_unsupported', { field: name, resource, type: field.type, what }, { param: 'query' })
  const { op, value } = clause
  if (op === '~') {
    if (field.substring !== true) throw refuse('substring matching (`~`)')
    if (value.kind !== 'string' || value.text.length < SEARCH_SUBSTRING_MIN) {
      throw refuse(`a substring shorter than ${SEARCH_SUBSTRING_MIN} characters`)
    }
    return
  }
  if (op !== ':' && field.type !== 'numeric') throw refuse(`the \`${op}\` comparison`)
  if (value.kind === 'null') return
  if (field.type === 'numeric' && !Number.isFinite(numberOf(value))) throw refuse(`the non-numeric value \`${textOf(value)}\``)
  if (field.type === 'boolean' && !/^(true|false)$/i.test(textOf(value))) {
    throw refuse(`the value \`${textOf(value)}\` (true or false)`)
  }
}

/**
 * A search over `items` (newest first): `query` required, `limit` (1 to 100, default 10), `page`
 * (the opaque `next_page` of a previous answer to the same query). The resource (read off `url`)
 * decides which fields a clause may name.
 *
 * @example
 * searchPage(customers, { query: "email:'a@b.c'" }, '/v1/customers/search')
 * // { object: 'search_result', data: [...], has_more: false, next_page: null, url: '/v1/customers/search' }
 */
export function searchPage(items: readonly Json[], params: Readonly<Record<string, unknown>>, url: string) {
  if (typeof params.query !== 'string' || params.query === '') {
    throw tableError('parameter_missing', { param: 'query' }, { param: 'query' })
  }
  const query = parseQuery(params.query)
  const clauses = checkClauses(query, /\/([a-z_]+)\/search$/.exec(url)?.[1] ?? 'objects')
  const limit = listLimit(params.limit)
  const start = params.page === undefined ? 0 : decodePage(params.page, params.query)
  const hits = items.filter((i) => matches(i, clauses, query.join))
  const data = hits.slice(start, start + limit)
  const more = start + limit < hits.length
  return {
    object: 'search_result' as const,
    data,
    has_more: more,
    next_page: more ? Buffer.from(`o:${start + limit}:${params.query}`, 'utf8').toString('base64url') : null,
    url,
  }
}

/** A page token's offset; the token is bound to its query, so a page of another query is refused. */
function decodePage(page: unknown, query: string): number {
  const text = typeof page === 'string' ? Buffer.from(page, 'base64url').toString('utf8') : ''
  const m = /^o:(\d+):([\s\S]*)$/.exec(text)
  if (m === null || m[2] !== query) {
    throw tableError('parameter_invalid', { param: 'page', detail: `'${String(page)}'.` }, { param: 'page' })
  }
  return Number(m[1])
}
