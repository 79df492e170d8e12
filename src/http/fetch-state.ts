/**
 * The body record node's fetch keeps inside a `Request` or `Response`: the stream, and the value it
 * was made from (`source`: the string given to the constructor).
 *
 * @example
 * const body: FetchBody | null | undefined = fetchBody(new Response('ok')) // { source: 'ok', … }
 */
export interface FetchBody {
  readonly stream: ReadableStream<Uint8Array>
  readonly source: unknown
  readonly length: number | null
}

interface FetchInner {
  body: FetchBody | null
}

/**
 * The own symbol under which node's fetch keeps a Request's or Response's inner record, found once
 * by looking at a probe. Where the runtime keeps it in a private field instead, there is none, and
 * every caller takes its ordinary (slower) path.
 */
const STATE: symbol | undefined = (() => {
  const probe = new Response('probe') as unknown as Record<symbol, unknown>
  for (const key of Object.getOwnPropertySymbols(probe)) {
    const inner = probe[key] as Partial<FetchInner> | null
    if (inner !== null && typeof inner === 'object' && inner.body?.source === 'probe') return key
  }
  return undefined
})()

function innerOf(o: Request | Response): FetchInner | undefined {
  if (STATE === undefined) return undefined
  const inner = (o as unknown as Record<symbol, FetchInner | undefined>)[STATE]
  return inner !== null && typeof inner === 'object' && 'body' in inner ? inner : undefined
}

/**
 * Whether {@link deferRequestBody} can give a Request its body on first use (the runtime keeps the
 * inner record where it can be reached). When false, a Request must be built with its body.
 *
 * @example
 * const init = canDeferRequestBody ? { method: 'POST' } : { method: 'POST', body }
 */
export const canDeferRequestBody: boolean = (() => {
  const probe = new Request('http://probe.invalid/', { method: 'POST' })
  return innerOf(probe)?.body === null
})()

/**
 * Gives a Request built without a body the body `make` returns, made when fetch's own code first
 * reads it (`new Request(req)`, `req.clone()`, `req.body`, a read through `Request.prototype`):
 * building a body stream costs tens of microseconds, wasted when the reader takes the text some
 * other way. False when the runtime does not allow it (see {@link canDeferRequestBody}).
 *
 * @example
 * const req = new Request(url, { method: 'POST' })
 * deferRequestBody(req, () => bodyOf(new Request(url, { method: 'POST', body: text })))
 */
export function deferRequestBody(req: Request, make: () => FetchBody | null): boolean {
  const inner = innerOf(req)
  if (inner === undefined || inner.body !== null) return false
  let body: FetchBody | null | undefined
  Object.defineProperty(inner, 'body', {
    configurable: true,
    enumerable: true,
    get() {
      if (body === undefined) body = make()
      return body
    },
    set(next: FetchBody | null) {
      body = next
    },
  })
  return true
}

/**
 * The body record of a Request or Response as fetch keeps it (undefined where it cannot be reached).
 *
 * @example
 * fetchBody(new Request(url, { method: 'POST', body: '{}' }))?.source // '{}'
 */
export function fetchBody(o: Request | Response): FetchBody | null | undefined {
  return innerOf(o)?.body
}
