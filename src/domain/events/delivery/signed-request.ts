import type { HeaderNames } from '#kernel/header-names.js'
import type { TransportRequest } from './delivery-transport.js'
import { signatureHeader } from './signature.js'

/**
 * An abort signal made when first read (an `AbortController` costs microseconds, and most receivers
 * never look): read after `abort()`, it is already aborted, as it would have been if made at once.
 */
function lazySignal(): { get(): AbortSignal; abort(): void } {
  let controller: AbortController | undefined
  let aborted = false
  return {
    get() {
      if (controller === undefined) {
        controller = new AbortController()
        if (aborted) controller.abort()
      }
      return controller.signal
    },
    abort() {
      aborted = true
      controller?.abort()
    },
  }
}

/**
 * A webhook POST with its signature, and what the sender needs to know of it afterwards.
 *
 * @example
 * const { request, abort } = signedRequest(names, init)
 */
export interface SignedRequest {
  readonly request: TransportRequest
  /** The headers, if the transport read them (else they were never built). */
  readonly headersRead: () => Record<string, string> | undefined
  /** Aborts the request's signal, if the transport took it. */
  readonly abort: () => void
}

/**
 * What a signed delivery is made of.
 *
 * @example
 * signedRequest(names, { url, body, timeoutMs: 10_000, badCertificate: false, at, test: true, secrets: () => [secret] })
 */
export interface SignedRequestInit {
  readonly url: string
  readonly body: string
  readonly timeoutMs: number
  readonly badCertificate: boolean
  /** Epoch ms of the attempt: the signature's `t`. */
  readonly at: number
  readonly test: boolean
  /** Secrets active now, newest first: one `v1` each. */
  readonly secrets: () => readonly string[]
}

/**
 * A delivery's request. Headers (an HMAC per active secret) and the abort signal are built only
 * when the transport reads them: a receiver that never looks at the request costs neither.
 *
 * @example
 * const { request } = signedRequest(names, { url, body, timeoutMs: 10_000, badCertificate: false, at, test: true, secrets })
 * request.headers[names.signature] // 't=…,v1=…,v0=…'
 */
export function signedRequest(names: HeaderNames, init: SignedRequestInit): SignedRequest {
  let headers: Record<string, string> | undefined
  const signal = lazySignal()
  const request: TransportRequest = {
    url: init.url,
    body: init.body,
    timeoutMs: init.timeoutMs,
    badCertificate: init.badCertificate,
    get headers() {
      headers ??= {
        'Content-Type': 'application/json; charset=utf-8',
        'User-Agent': names.webhookUserAgent,
        [names.signature]: signatureHeader(init.body, init.secrets(), Math.floor(init.at / 1000), { test: init.test }),
      }
      return headers
    },
    get signal() {
      return signal.get()
    },
  }
  return { request, headersRead: () => headers, abort: signal.abort }
}

/**
 * A captured request sent again as it was (an attacker's replay): same body, same headers.
 *
 * @example
 * const { request } = replayedRequest(old.url, old.body, old.headers, 10_000)
 */
export function replayedRequest(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Omit<SignedRequest, 'headersRead'> {
  const signal = lazySignal()
  const request: TransportRequest = {
    url,
    body,
    headers,
    timeoutMs,
    badCertificate: false,
    get signal() {
      return signal.get()
    },
  }
  return { request, abort: signal.abort }
}
