/** What a delivery's request is made of: the signal and the headers are read only when asked for. */
export interface TextRequestInit {
  readonly url: string
  readonly body: string
  /** The signed headers (a getter: signing happens on first read, when the request is made). */
  readonly headers: Readonly<Record<string, string>>
  /** Aborted when the attempt times out (a getter: the controller is made on first read). */
  readonly signal: AbortSignal
}

const POST: RequestInit = Object.freeze({ method: 'POST' })

/**
 * A webhook POST to an in-process receiver whose body is a string the simulator already holds.
 * A real `Request` with a body and a signal costs about 55 µs to build, and a `clone().text()` of
 * it (what a receiver that logs the raw body does) well over 100 µs more; this subclass keeps the
 * text and answers `text()`, `json()`, `arrayBuffer()`, `bytes()`, `blob()` and `clone()` from it,
 * and makes its `Headers` and abort signal only when read. The stream is built only when a caller
 * asks for `body` or `formData()`, after which every read goes through a real `Request`, so stream
 * consumers and the "body used" rules behave as with fetch.
 *
 * @example
 * const req = new TextRequest({ url: 'https://app.test/hooks', body: '{"id":"evt_1"}', headers: {}, signal })
 * await req.json() // { id: 'evt_1' }
 */
export class TextRequest extends Request {
  readonly #init: TextRequestInit
  #used = false
  #real: Request | undefined
  #headers: Headers | undefined

  constructor(init: TextRequestInit) {
    super(init.url, POST)
    // Signed now, as a real Request's would be: a delivery whose headers were built is one the
    // attacker of `replay_delivery` may have captured.
    void init.headers
    this.#init = init
  }

  override get headers(): Headers {
    this.#headers ??= new Headers(this.#init.headers)
    return this.#headers
  }

  override get signal(): AbortSignal {
    return this.#init.signal
  }

  /** The real Request, once a caller needs the stream itself. */
  #stream(): Request {
    if (this.#real === undefined) {
      const init = this.#init
      this.#real = new Request(init.url, {
        method: 'POST',
        headers: this.headers,
        body: this.#used ? null : init.body,
        signal: init.signal,
      })
    }
    return this.#real
  }

  #take(): string {
    if (this.#real !== undefined || this.#used) throw new TypeError('Body is unusable: Body has already been read')
    this.#used = true
    return this.#init.body
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

  override formData(): Promise<FormData> {
    return this.#stream().formData()
  }

  override clone(): Request {
    if (this.bodyUsed) throw new TypeError('Request.clone: Body has already been consumed.')
    if (this.#real !== undefined) return this.#real.clone()
    return new TextRequest(this.#init)
  }
}
