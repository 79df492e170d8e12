/** One webhook POST the service wants to make. */
export interface TransportRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /**
   * Milliseconds after which the attempt counts as timed out: virtual for a receiver that waits on
   * the clock (in process), real for one outside the process (the transport times it).
   */
  readonly timeoutMs: number
  /** The destination presents an invalid certificate: the attempt must fail with `tls_error`. */
  readonly badCertificate: boolean
  /** Aborted when the attempt times out on the virtual clock, so a real request can be dropped. */
  readonly signal: AbortSignal
}

/** What came of a POST: an HTTP answer, or one of the spec's transport failures. */
export type TransportResult =
  | { readonly kind: 'response'; readonly status: number; readonly body: string }
  | { readonly kind: 'connect_error' | 'tls_error' | 'timeout'; readonly message: string }

/**
 * How the delivery domain reaches receivers, without knowing HTTP. The simulator fills it with an
 * implementation in the HTTP layer (in-process receivers, loopback HTTP, connection
 * failures); tests and the harness can fill it with their own.
 *
 * @example
 * const transport: DeliveryTransport = {
 *   post: async () => ({ kind: 'response', status: 200, body: '' }),
 *   waitsOnClock: () => false,
 * }
 */
export interface DeliveryTransport {
  /** The answer, synchronously when it is there at once (saves a promise per attempt on long runs). */
  post(request: TransportRequest): TransportResult | Promise<TransportResult>
  /**
   * True when an answer from `url` may wait on the virtual clock (an in-process receiver that
   * sleeps): `settle()` then stops waiting for it once it is idle instead of hanging, and the
   * attempt's time-out is on the virtual clock. False (a receiver outside the process): the
   * transport times the attempt on the wall clock, and a clock move waits for its answer.
   */
  waitsOnClock(url: string): boolean
}

/** The transport before one is installed: nothing answers. */
export const unreachableTransport: DeliveryTransport = {
  post: async () => ({ kind: 'connect_error', message: 'No transport installed.' }),
  waitsOnClock: () => false,
}
