import { canDeferRequestBody, deferRequestBody, type FetchBody, fetchBody } from './fetch-state.js'

function hasContentType(headers: Readonly<Record<string, string>>): boolean {
  for (const name in headers) if (name.length === 12 && name.toLowerCase() === 'content-type') return true
  return false
}

/**
 * What a delivery's request is made of: the signal is read only when asked for.
 *
 * @example
 * const init: TextRequestInit = { url: 'https://app.test/hooks', body: '{}', headers: {}, signal: AbortSignal.abort() }
 */
export interface TextRequestInit {
  readonly url: string
  readonly body: string
  /** The signed headers. */
  readonly headers: Readonly<Record<string, string>>
  /** Aborted when the attempt times out (a getter: the controller is made on first read). */
  readonly signal: AbortSignal
}

/**
 * A webhook POST to an in-process receiver whose body is a string the simulator already holds. It
 * is a real `Request` (url, method, headers and body stream as sent, so `new Request(req)` or a
 * framework's wrapper copies it whole), but `text()`, `json()`, `arrayBuffer()`, `bytes()`, `blob()`
 * and `clone()` answer from the string instead of reading the stream: a `clone().text()` of a real
 * Request (what a receiver that logs the raw body does) tees the stream and costs well over 100 µs.
 * The abort signal is made only when read (following one costs about 30 µs per request); a copy
 * made with `new Request(req)` does not follow it. Once a caller takes the stream (`body`,
 * `formData()`), every read goes through the real Request, so stream consumers and the "body used"
 * rules behave as with fetch.
 *
 * @example
 * const req = new TextRequest({ url: 'https://app.test/hooks', body: '{"id":"evt_1"}', headers: {}, signal })
 * await req.json() // { id: 'evt_1' }
 */
export class TextRequest extends Request {
  readonly #init: TextRequestInit
  #used = false
  #streamed = false

  constructor(init: TextRequestInit) {
    // Where the runtime allows, the body stream is made only when fetch's own code reads it: a
    // receiver that takes `text()` or `json()` never pays for one.
    super(
      init.url,
      canDeferRequestBody
        ? { method: 'POST', headers: init.headers }
        : { method: 'POST', headers: init.headers, body: init.body },
    )
    this.#init = init
    if (canDeferRequestBody && deferRequestBody(this, () => this.#realBody())) {
      // What fetch adds for a string body when the caller set no type.
      if (!hasContentType(init.headers)) this.headers.append('content-type', 'text/plain;charset=UTF-8')
    }
  }

  /** The body stream, as a Request built with the body would hold it; from now on reads go through it. */
  #realBody(): FetchBody | null {
    this.#streamed = true
    const body = fetchBody(new Request(this.#init.url, { method: 'POST', body: this.#init.body })) ?? null
    // Read already through text(): the stream is spent, as it would have been.
    if (this.#used && body !== null) void body.stream.getReader().read()
    return body
  }

  override get signal(): AbortSignal {
    return this.#init.signal
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    this.#streamed = true
    return super.body as ReadableStream<Uint8Array<ArrayBuffer>> | null
  }

  override get bodyUsed(): boolean {
    if (this.#used) return true
    // Not streamed: the deferred body is not made just to say it is unused.
    return canDeferRequestBody && !this.#streamed ? false : super.bodyUsed
  }

  #take(): string {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read')
    this.#used = true
    return this.#init.body
  }

  override text(): Promise<string> {
    if (this.#streamed) return super.text()
    try {
      return Promise.resolve(this.#take())
    } catch (error) {
      return Promise.reject(error)
    }
  }

  override json(): Promise<any> {
    return this.text().then((t) => JSON.parse(t))
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.bytes().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer)
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.#streamed) return super.arrayBuffer().then((b) => new Uint8Array(b))
    return this.text().then((t) => new TextEncoder().encode(t))
  }

  override blob(): Promise<Blob> {
    const type = this.headers.get('content-type') ?? ''
    return this.text().then((t) => new Blob([t], { type }))
  }

  override formData(): Promise<FormData> {
    this.#streamed = true
    return super.formData()
  }

  override clone(): Request {
    if (this.bodyUsed) throw new TypeError('Request.clone: Body has already been consumed.')
    if (this.#streamed) return super.clone()
    return new TextRequest(this.#init)
  }

  /**
   * What `req.clone().text()` answers, without making the clone when `req` is a delivery's request
   * whose body nobody took (an observer that logs the raw body before the receiver reads it).
   *
   * @example
   * const raw = await TextRequest.textOf(req) // the body, and req can still be read
   */
  static textOf(req: Request): Promise<string> {
    if (!(req instanceof TextRequest) || req.#streamed) return req.clone().text()
    if (req.bodyUsed) return Promise.reject(new TypeError('Request.clone: Body has already been consumed.'))
    return Promise.resolve(req.#init.body)
  }
}
