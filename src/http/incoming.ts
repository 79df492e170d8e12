import { bodyText } from './multipart.js'

/** Read access to request headers, case-insensitive: all the service needs of `Headers`. */
export interface HeaderReader {
  get(name: string): string | null
}

/** The parts of a request's URL the service reads (a `URL` has them). */
export interface IncomingUrl {
  readonly href: string
  readonly pathname: string
  readonly search: string
}

/** A request reduced to what the service reads: method, URL parts, headers and the raw body text. */
export interface Incoming {
  readonly method: string
  readonly url: IncomingUrl
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
  if (Array.isArray(init)) return readHeaderPairs(init)
  if (init instanceof Headers || typeof init !== 'object') return new Headers(init)
  const map = new Map<string, string>()
  for (const name in init) {
    const value = (init as Record<string, unknown>)[name]
    if (typeof value !== 'string' || INVALID_VALUE.test(value)) return new Headers(init)
    const key = tokenKey(name)
    if (key === undefined) return new Headers(init)
    const prior = map.get(key)
    map.set(key, prior === undefined ? value.trim() : `${prior}, ${value.trim()}`)
  }
  return mapReader(map)
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

// A client sends the same few header names on every request: each is checked and lowercased once.
// Bounded, in case a caller's names never repeat.
const tokenKeys = new Map<string, string>()
/** The lowercase form of a valid header name, or undefined when `Headers` would refuse the name. */
function tokenKey(name: string): string | undefined {
  const known = tokenKeys.get(name)
  if (known !== undefined) return known
  if (!TOKEN.test(name)) return undefined
  const key = name.toLowerCase()
  if (tokenKeys.size >= 1024) tokenKeys.clear()
  tokenKeys.set(name, key)
  return key
}
// A value `Headers` takes as it is: a ByteString with no line break or NUL, and no leading or
// trailing whitespace for it to strip.
const PLAIN_VALUE = /^(?:[^\t \r\n\0\u0100-\uffff](?:[^\r\n\0\u0100-\uffff]*[^\t \r\n\0\u0100-\uffff])?)?$/

/**
 * Headers as an array of `[name, value]` pairs (how the official client's fetch client passes
 * them), read through the same lowercase map when `Headers` would keep every pair unchanged
 * (distinct names, plain values); anything else goes through `Headers`, so its joining rules and
 * errors stay those of fetch.
 */
function readHeaderPairs(init: readonly unknown[]): HeaderReader {
  const map = new Map<string, string>()
  for (const pair of init) {
    if (!Array.isArray(pair) || pair.length !== 2) return new Headers(init as HeadersInit)
    const name: unknown = pair[0]
    const value: unknown = pair[1]
    if (typeof name !== 'string' || typeof value !== 'string' || !PLAIN_VALUE.test(value)) {
      return new Headers(init as HeadersInit)
    }
    const key = tokenKey(name)
    if (key === undefined) return new Headers(init as HeadersInit)
    // A repeated name is joined by `Headers` (with `; ` for cookie): left to it.
    if (map.has(key)) return new Headers(init as HeadersInit)
    map.set(key, value)
  }
  return mapReader(map)
}

/** A lowercase map read case-insensitively: a method on the prototype, not a closure per request. */
class MapReader implements HeaderReader {
  readonly #map: ReadonlyMap<string, string>
  constructor(map: ReadonlyMap<string, string>) {
    this.#map = map
  }
  get(name: string): string | null {
    return this.#map.get(lowercaseName(name)) ?? null
  }
}

function mapReader(map: ReadonlyMap<string, string>): HeaderReader {
  return new MapReader(map)
}

const EMPTY: HeaderReader = { get: () => null }

/**
 * Headers as node's HTTP server hands them over (`IncomingMessage.headers`: lowercase names, values
 * its parser has checked, repeats already joined) read as they are: no copy, no re-validation.
 *
 * @example
 * lowercaseHeaderReader({ authorization: 'Bearer sk_test_x' }).get('Authorization') // 'Bearer sk_test_x'
 */
export function lowercaseHeaderReader(headers: Readonly<Record<string, string | string[] | undefined>>): HeaderReader {
  return {
    get(name) {
      const key = lowercaseName(name)
      if (!Object.hasOwn(headers, key)) return null
      const value = headers[key]
      return typeof value === 'string' ? value : value === undefined ? null : value.join(', ')
    },
  }
}

// The names the service reads are few and fixed (the prefixed ones included): each is lowercased
// once, not on every read of every request. Bounded, in case a caller reads names without end.
const lowercased = new Map<string, string>()
function lowercaseName(name: string): string {
  let key = lowercased.get(name)
  if (key === undefined) {
    key = name.toLowerCase()
    if (lowercased.size >= 1024) lowercased.clear()
    lowercased.set(name, key)
  }
  return key
}

const DEFAULT_BASE = 'https://api.service.test'

// A client calls the same few URLs over and over (a usage reporter: two): each is parsed once. The
// parts are plain strings, so one cached record serves every request to that URL. Bounded, in case
// a caller's URLs never repeat (ids in paths).
const parsedUrls = new Map<string, IncomingUrl>()
function urlParts(text: string): IncomingUrl {
  let parts = parsedUrls.get(text)
  if (parts === undefined) {
    const url = new URL(text, DEFAULT_BASE)
    parts = Object.freeze({ href: url.href, pathname: url.pathname, search: url.search })
    if (parsedUrls.size >= 256) parsedUrls.clear()
    parsedUrls.set(text, parts)
  }
  return parts
}

/**
 * The body as the service receives it. A body stream that fails midway never reaches a server: real
 * `fetch` rejects with `TypeError: fetch failed` (the stream's error as its `cause`), and so does
 * `sim.fetch`, before anything is traced or changed.
 */
async function sentBody(request: Request): Promise<string> {
  try {
    return await bodyText(request)
  } catch (error) {
    if (error instanceof TypeError) throw error
    throw new TypeError('fetch failed', { cause: error })
  }
}

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
    return { method: input.method, url: new URL(input.url), headers: input.headers, text: await sentBody(input) }
  }
  if (!(input instanceof Request)) {
    const url = urlParts(input instanceof URL ? input.href : String(input))
    const body = init?.body
    if (body === undefined || body === null || typeof body === 'string') {
      const method = (init?.method ?? 'GET').toUpperCase()
      // fetch refuses any body, even '', on GET and HEAD: the fast path must refuse it the same way.
      if (typeof body === 'string' && (method === 'GET' || method === 'HEAD')) {
        throw new TypeError('Request with GET/HEAD method cannot have body.')
      }
      return {
        method,
        url,
        headers: readHeaders(init?.headers),
        text: body ?? '',
      }
    }
    const request = new Request(url.href, init)
    return { method: request.method, url, headers: request.headers, text: await sentBody(request) }
  }
  const request = new Request(input, init)
  return { method: request.method, url: new URL(request.url), headers: request.headers, text: await sentBody(request) }
}
