import qs from 'qs'
import { tableError } from '#domain/service-error.js'
import { decodeMultipart } from './multipart.js'

/** Largest request body accepted, in bytes; larger bodies get 413. */
export const MAX_BODY_BYTES = 1024 * 1024

// `plainObjects` builds null-prototype objects, so keys such as `constructor` arrive as ordinary
// keys (and are refused as unknown by the route's schema) instead of being dropped silently.
export const QS_OPTIONS = {
  depth: 8,
  arrayLimit: 1000,
  parameterLimit: 5000,
  allowPrototypes: false,
  plainObjects: true,
  allowDots: false,
} as const

/**
 * `qs.parse(text, QS_OPTIONS)` for the common flat form (`email=a%40b.c&name=Jenny`): no brackets
 * (raw or escaped), no repeated key, no `__proto__`, within the parameter limit. Anything else
 * answers undefined and goes to qs, so the result is always exactly qs's.
 */
function parseFlatForm(text: string): Record<string, unknown> | undefined {
  if (text.includes('[') || text.includes(']') || ESCAPED_BRACKET.test(text)) return undefined
  const parts = text.split('&')
  if (parts.length > QS_OPTIONS.parameterLimit) return undefined
  const out: Record<string, unknown> = Object.create(null)
  for (const part of parts) {
    const eq = part.indexOf('=')
    const key = decodeFormComponent(eq === -1 ? part : part.slice(0, eq))
    // qs skips an empty key.
    if (key === '') continue
    if (key === '__proto__' || key in out) return undefined
    out[key] = eq === -1 ? '' : decodeFormComponent(part.slice(eq + 1))
  }
  return out
}

const ESCAPED_BRACKET = /%5[bd]/i
const BLANK = /^\s*$/

/** qs's decoder: `+` is a space, then percent escapes; a malformed escape leaves the text as it is. */
function decodeFormComponent(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text
  if (!spaced.includes('%')) return spaced
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}

/** Decodes form text (a body or a query string) as qs does with QS_OPTIONS. */
export function parseForm(text: string): Record<string, unknown> {
  return parseFlatForm(text) ?? (qs.parse(text, QS_OPTIONS) as Record<string, unknown>)
}

/** qs drops `__proto__` keys silently; find them in the raw pairs so they can be refused by name. */
function refuseRawPrototypeKeys(text: string): void {
  if (!text.includes('proto')) return
  for (const pair of text.split('&')) {
    const rawKey = pair.split('=', 1)[0] ?? ''
    let key = rawKey
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '))
    } catch {}
    if (key.includes('__proto__')) throw tableError('parameter_unknown', { param: key }, { param: key })
  }
}

/**
 * Deepest nesting of objects and arrays a `/v2` JSON body may have. The provider's v2 bodies nest a
 * few levels (a meter event's `payload`, an event destination's `webhook_endpoint`); form bodies
 * are capped at `depth: 8` by qs. Checked by the first walk of the parsed body (JSON.parse itself is
 * iterative), before any other recursive walk could overflow.
 */
export const MAX_JSON_DEPTH = 32

/** Longest string value any parameter takes, as the provider documents for its string fields. */
export const MAX_STRING_LENGTH = 5000

/**
 * Walks a decoded body or query once: refuses `__proto__` keys (no endpoint has such a
 * parameter), strings longer than MAX_STRING_LENGTH and keys or strings holding NUL characters, each
 * with the parameter named, before any route sees them.
 */
function checkDecoded(value: unknown, path: string, style: 'v1' | 'v2'): void {
  checkValue(value, path === '' ? [] : [path], style)
}

/** The parameter named by `keys` (`a.b` on v2, `a[b]` on v1): built only when a check fails. */
function paramOf(keys: readonly string[], style: 'v1' | 'v2'): string {
  let param = ''
  for (const key of keys) param = param === '' ? key : style === 'v2' ? `${param}.${key}` : `${param}[${key}]`
  return param
}

function checkValue(value: unknown, keys: string[], style: 'v1' | 'v2'): void {
  if (typeof value === 'string') {
    if (value.length > MAX_STRING_LENGTH) {
      const path = paramOf(keys, style)
      throw tableError(
        'parameter_invalid_string_too_long',
        { param: path, max: MAX_STRING_LENGTH, length: value.length },
        { param: path },
      )
    }
    if (value.includes('\u0000')) {
      const path = paramOf(keys, style)
      throw tableError('parameter_invalid', { param: path, detail: 'must not contain NUL characters.' }, { param: path })
    }
    return
  }
  if (value === null || typeof value !== 'object') return
  // `keys` holds one name per level above this object, which is at nesting depth keys.length + 1.
  if (keys.length >= MAX_JSON_DEPTH) {
    throw tableError('json_too_deep', { max: MAX_JSON_DEPTH })
  }
  // for-in, not Object.keys: no array per object. Decoded values are plain (JSON, or qs's
  // null-prototype objects), so it reads exactly their own keys.
  for (const key in value) {
    keys.push(key)
    if (key === '__proto__') {
      const param = paramOf(keys, style)
      throw tableError('parameter_unknown', { param }, { param })
    }
    if (key.includes('\u0000')) {
      const param = paramOf(keys, style)
      throw tableError('parameter_invalid', { param, detail: 'must not contain NUL characters.' }, { param })
    }
    checkValue((value as Record<string, unknown>)[key], keys, style)
    keys.pop()
  }
}

/**
 * Whether a JSON text that parsed is sure to pass `checkDecoded` without walking it (a meter event
 * stream batch, the hot path, always is). Without a backslash every key and string is spelled as it
 * reads: no escape can make a NUL or a `__proto__` key, so `__proto__` must appear literally; no
 * string is longer than the text; and a value nested MAX_JSON_DEPTH deep needs more than
 * MAX_JSON_DEPTH opening brackets. Any doubt answers false, and the walk decides.
 *
 * @example
 * jsonPassesWalk('{"events":[{"event_name":"api_call"}]}') // true
 * jsonPassesWalk('{"a":"\\u0000"}')                         // false: walked
 */
function jsonPassesWalk(text: string): boolean {
  if (text.length > MAX_STRING_LENGTH || text.includes('\\') || text.includes('__proto__')) return false
  let open = 0
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) if (++open > MAX_JSON_DEPTH) return false
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1)) if (++open > MAX_JSON_DEPTH) return false
  return true
}

/** The media type of a Content-Type value, lowercase, without parameters (`''` when there is none). */
function mediaType(contentType: string | null): string {
  if (contentType === null) return ''
  const semicolon = contentType.indexOf(';')
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase()
}

/**
 * Decodes a request body the way the service does: form encoding with bracket nesting
 * (`metadata[k]=v`, `items[0][price]=x`) on `/v1`, a JSON object on `/v2`. Anything else is a 400
 * that says what was expected.
 *
 * @example
 * decodeBody('email=a%40b.c&metadata[plan]=pro', 'application/x-www-form-urlencoded', 'v1')
 * // { email: 'a@b.c', metadata: { plan: 'pro' } }
 */
export function decodeBody(text: string, contentType: string | null, style: 'v1' | 'v2'): Record<string, unknown> {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: only a text that long can be over in bytes.
  if (text.length > MAX_BODY_BYTES || (text.length * 3 > MAX_BODY_BYTES && Buffer.byteLength(text) > MAX_BODY_BYTES)) {
    throw tableError('request_too_large', { max: MAX_BODY_BYTES })
  }
  // A test, not `trim()`: trimming copies the whole body. `\s` is exactly what trim strips.
  if (BLANK.test(text)) return {}
  const type = mediaType(contentType)
  if (style === 'v1') {
    // File uploads (`files.create`) come as multipart; their parts are checked like a form's.
    if (type === 'multipart/form-data') {
      const { fields, files } = decodeMultipart(text, contentType ?? '', parseForm)
      // A file's bytes are data, not text: only the other parts are checked.
      checkDecoded(fields, '', 'v1')
      return { ...fields, ...files }
    }
    if (type !== '' && type !== 'application/x-www-form-urlencoded') {
      throw tableError('invalid_content_type', { type, namespace: '/v1', expected: 'application/x-www-form-urlencoded' })
    }
    refuseRawPrototypeKeys(text)
    const form = parseForm(text)
    checkDecoded(form, '', 'v1')
    return form
  }
  if (type !== '' && type !== 'application/json') {
    throw tableError('invalid_content_type', { type, namespace: '/v2', expected: 'application/json' })
  }
  // V8's JSON.parse is iterative, so a deep text cannot overflow the stack there; the depth is
  // refused by checkDecoded, the first walk of the parsed value, before anything recursive deeper.
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw tableError('invalid_json', { detail: (error as Error).message })
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw tableError('invalid_json', { detail: 'expected an object at the top level.' })
  }
  if (!jsonPassesWalk(text)) checkDecoded(parsed, '', 'v2')
  return parsed as Record<string, unknown>
}

/** Decodes a query string with bracket arrays (`expand[]=a&expand[]=b`), on both namespaces. */
export function decodeQuery(search: string): Record<string, unknown> {
  if (search === '' || search === '?') return {}
  const raw = search.startsWith('?') ? search.slice(1) : search
  refuseRawPrototypeKeys(raw)
  const query = parseForm(raw)
  checkDecoded(query, '', 'v1')
  return query
}
