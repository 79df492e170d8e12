import qs from 'qs'
import { invalidRequest, ServiceError } from '#domain/service-error.js'

/** Largest request body accepted, in bytes; larger bodies get 413. */
export const MAX_BODY_BYTES = 1024 * 1024

const QS_OPTIONS = { depth: 8, arrayLimit: 1000, parameterLimit: 5000, allowPrototypes: false, allowDots: false } as const

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
  if (text.length > MAX_BODY_BYTES || Buffer.byteLength(text) > MAX_BODY_BYTES) {
    throw new ServiceError({
      status: 413,
      type: 'invalid_request_error',
      code: 'request_too_large',
      message: `Request body is larger than the limit of ${MAX_BODY_BYTES} bytes.`,
    })
  }
  if (text.trim() === '') return {}
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  if (style === 'v1') {
    if (type !== '' && type !== 'application/x-www-form-urlencoded') {
      throw invalidRequest(`Invalid content type '${type}': /v1 endpoints take application/x-www-form-urlencoded bodies.`, {
        code: 'invalid_content_type',
      })
    }
    return qs.parse(text, QS_OPTIONS) as Record<string, unknown>
  }
  if (type !== '' && type !== 'application/json') {
    throw invalidRequest(`Invalid content type '${type}': /v2 endpoints take application/json bodies.`, {
      code: 'invalid_content_type',
    })
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw invalidRequest(`Invalid JSON body: ${(error as Error).message}`, { code: 'invalid_json' })
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidRequest('Invalid JSON body: expected an object at the top level.', { code: 'invalid_json' })
  }
  return parsed as Record<string, unknown>
}

/** Decodes a query string with bracket arrays (`expand[]=a&expand[]=b`), on both namespaces. */
export function decodeQuery(search: string): Record<string, unknown> {
  if (search === '' || search === '?') return {}
  return qs.parse(search.startsWith('?') ? search.slice(1) : search, QS_OPTIONS) as Record<string, unknown>
}
