/** Read access to request headers, case-insensitive: all the service needs of `Headers`. */
export interface HeaderReader {
  get(name: string): string | null
}

/** A request reduced to what the service reads: method, URL parts, headers and the raw body text. */
export interface Incoming {
  readonly method: string
  readonly url: URL
  readonly headers: HeaderReader
  readonly text: string
}

const INVALID_VALUE = /[\r\n\0]/

/**
 * Headers given as a plain object of strings (how most clients call fetch) are read through a
 * lowercase map: a `Headers` instance costs several microseconds per request. Anything else, or a
 * value `Headers` would reject, goes through `Headers` itself so errors stay those of fetch.
 */
function readHeaders(init: HeadersInit | undefined): HeaderReader {
  if (init === undefined) return EMPTY
  if (init instanceof Headers || Array.isArray(init) || typeof init !== 'object') return new Headers(init)
  const map = new Map<string, string>()
  for (const name in init) {
    const value = (init as Record<string, unknown>)[name]
    if (typeof value !== 'string' || INVALID_VALUE.test(value) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      return new Headers(init)
    }
    const key = name.toLowerCase()
    const prior = map.get(key)
    map.set(key, prior === undefined ? value.trim() : `${prior}, ${value.trim()}`)
  }
  return { get: (name) => map.get(name.toLowerCase()) ?? null }
}

const EMPTY: HeaderReader = { get: () => null }

const DEFAULT_BASE = 'https://api.service.test'

/**
 * Reads `fetch` arguments exactly as `fetch` accepts them (a string, a URL or a Request; headers as
 * an object, a `Headers` or pairs; any body type) without the cost of building a `Request` when
 * the body is already a string. A path without a host is resolved against the API base.
 *
 * @example
 * const incoming = await readIncoming('/v1/balance', { headers: { Authorization: 'Bearer sk_test_x' } })
 */
export async function readIncoming(input: RequestInfo | URL, init?: RequestInit): Promise<Incoming> {
  if (input instanceof Request && init === undefined) {
    return { method: input.method, url: new URL(input.url), headers: input.headers, text: await input.text() }
  }
  if (!(input instanceof Request)) {
    const url = new URL(input instanceof URL ? input.href : String(input), DEFAULT_BASE)
    const body = init?.body
    if (body === undefined || body === null || typeof body === 'string') {
      return {
        method: (init?.method ?? 'GET').toUpperCase(),
        url,
        headers: readHeaders(init?.headers),
        text: body ?? '',
      }
    }
    const request = new Request(url, init)
    return { method: request.method, url, headers: request.headers, text: await request.text() }
  }
  const request = new Request(input, init)
  return { method: request.method, url: new URL(request.url), headers: request.headers, text: await request.text() }
}
