// The init of a bare status, one per status: read by the constructor, never changed.
const statusInits = new Map<number, ResponseInit>()
function statusInit(status: number): ResponseInit {
  let init = statusInits.get(status)
  if (init === undefined) {
    init = Object.freeze({ status })
    // Statuses are few; bounded all the same, as a caller may pass any.
    if (statusInits.size >= 256) statusInits.clear()
    statusInits.set(status, init)
  }
  return init
}

/**
 * A `Response` whose body is a string the simulator already holds. Building a real body stream and
 * reading it back (`new Response(text)` then `res.text()`) costs about 30 µs per request, most of a
 * simulated request; this subclass keeps the text and answers `text()`, `json()`, `arrayBuffer()`,
 * `bytes()` and `blob()` from it directly. The stream is built only when a caller asks for `body`
 * or `clone()`, after which every read goes through a real `Response`, so stream consumers and the
 * "body used" rules behave as with fetch.
 *
 * @example
 * const res = new TextResponse('{"id":"cus_1"}', { status: 200, headers: { 'Content-Type': 'application/json' } })
 * await res.json() // { id: 'cus_1' }
 */
export class TextResponse extends Response {
  readonly #text: string
  readonly #init: ResponseInit
  #used = false
  #real: Response | undefined
  #headers: Headers | undefined

  constructor(text: string, init: ResponseInit) {
    // The headers are made when first read: a client that reads only the status and the body (a
    // usage reporter on the hot path) never pays for a `Headers` (several microseconds).
    super(
      null,
      init.statusText === undefined
        ? statusInit(init.status ?? 200)
        : { status: init.status ?? 200, statusText: init.statusText },
    )
    this.#text = text
    this.#init = init
  }

  override get headers(): Headers {
    this.#headers ??= new Headers(this.#init.headers)
    return this.#headers
  }

  /** The real Response, once a caller needs the stream itself. */
  #stream(): Response {
    if (this.#real === undefined) {
      this.#real = new Response(this.#used ? null : this.#text, this.#init)
      if (this.#used) void this.#real.text()
    }
    return this.#real
  }

  #take(): string {
    if (this.#real !== undefined || this.#used) throw new TypeError('Body is unusable: Body has already been read')
    this.#used = true
    return this.#text
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#stream().body
  }

  override get bodyUsed(): boolean {
    return this.#real === undefined ? this.#used : this.#real.bodyUsed
  }

  override text(): Promise<string> {
    if (this.#real !== undefined) return this.#real.text()
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
    if (this.#real !== undefined) return this.#real.arrayBuffer().then((b) => new Uint8Array(b))
    return this.text().then((t) => new TextEncoder().encode(t))
  }

  override blob(): Promise<Blob> {
    const type = this.headers.get('content-type') ?? ''
    return this.text().then((t) => new Blob([t], { type }))
  }

  override clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.')
    if (this.#real !== undefined) return this.#real.clone()
    return new TextResponse(this.#text, this.#init)
  }
}
