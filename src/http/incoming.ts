/** A request reduced to what the service reads: method, URL parts, headers and the raw body text. */
export interface Incoming {
  readonly method: string
  readonly url: URL
  readonly headers: Headers
  readonly text: string
}

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
        headers: new Headers(init?.headers),
        text: body ?? '',
      }
    }
    const request = new Request(url, init)
    return { method: request.method, url, headers: request.headers, text: await request.text() }
  }
  const request = new Request(input, init)
  return { method: request.method, url: new URL(request.url), headers: request.headers, text: await request.text() }
}
