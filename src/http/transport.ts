import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { errorMessage } from '#catalogue/errors.js'
import type { DeliveryTransport, TransportRequest, TransportResult } from '#domain/events/delivery/delivery-transport.js'
import { isLoopback } from '#domain/events/destinations/destination-rules.js'
import { fetchBody } from './fetch-state.js'
import type { Receivers } from './receivers.js'
import { TextRequest } from './text-request.js'

/**
 * The HTTP side of webhook delivery. A URL mounted in `sim.receivers` is called in process with a
 * real `Request` (its handler may spend virtual time, which counts toward the time-out); an
 * unmounted `http(s)://localhost|127.x|[::1]` URL gets a real POST over the loopback network; any
 * other URL is a connection failure (nothing answers it). A destination marked as presenting a bad
 * certificate fails with a TLS error before anything is sent.
 *
 * @example
 * service.delivery.useTransport(createTransport(receivers))
 */
export function createTransport(receivers: Receivers, options: TransportOptions = {}): DeliveryTransport {
  const paced = pacer(options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT)
  return {
    post(request) {
      if (request.badCertificate) {
        return { kind: 'tls_error', message: 'TLS handshake failed: the server certificate is not valid (simulated).' }
      }
      const handler = receivers.get(request.url)
      if (handler !== undefined) return callReceiver(handler, request)
      let url: URL
      try {
        url = new URL(request.url)
      } catch {
        return { kind: 'connect_error', message: errorMessage('url_invalid', { url: request.url }) }
      }
      if ((url.protocol === 'http:' || url.protocol === 'https:') && isLoopback(url.hostname)) {
        return paced(() => loopbackPost(url, request))
      }
      return { kind: 'connect_error', message: `Unable to connect to ${url.host}: no receiver is mounted at this URL.` }
    },
    waitsOnClock: (url) => receivers.get(url) !== undefined,
  }
}

/** Options of `createTransport`. */
export interface TransportOptions {
  /**
   * Most POSTs in flight at once to receivers outside the process; the others wait their turn in
   * the order they were made (the order of their virtual time), so a long clock jump does not
   * flood a small app. Default 4.
   */
  readonly maxInFlight?: number
}

/**
 * Loopback POSTs in flight at once by default.
 *
 * @example
 * createTransport(receivers, { maxInFlight: DEFAULT_MAX_IN_FLIGHT * 2 })
 */
export const DEFAULT_MAX_IN_FLIGHT = 4

/** Runs at most `max` jobs at once, the rest first come first served. */
function pacer(max: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0
  const waiting: (() => void)[] = []
  const next = () => {
    running--
    waiting.shift()?.()
  }
  return (job) => {
    const run = () => {
      running++
      return job().finally(next)
    }
    if (running < max) return run()
    return new Promise((resolve, reject) => {
      waiting.push(() => void run().then(resolve, reject))
    })
  }
}

/** Calls an in-process receiver; answers synchronously when the handler returns a bodiless Response at once. */
function callReceiver(
  handler: (req: Request) => Response | Promise<Response>,
  request: TransportRequest,
): TransportResult | Promise<TransportResult> {
  let answer: Response | Promise<Response>
  try {
    // A handler that declares no parameter cannot read the request: building a Request (tens of
    // microseconds) and signing it would be wasted, which matters for long retry runs.
    answer = handler.length === 0 ? (handler as () => Response | Promise<Response>)() : handler(new TextRequest(request))
  } catch (error) {
    return crashed(error)
  }
  if (answer instanceof Response && answer.body === null) return { kind: 'response', status: answer.status, body: '' }
  return (async () => {
    let response: Response
    try {
      response = await answer
    } catch (error) {
      return crashed(error)
    }
    if (!(response instanceof Response)) {
      return { kind: 'response', status: 500, body: 'The receiver did not return a Response.' } as const
    }
    const body = response.body === null ? '' : await answerText(response)
    return { kind: 'response', status: response.status, body } as const
  })()
}

// A string holding any surrogate half is read back, not given as it is: a lone one's bytes on the
// wire read back as U+FFFD (pairs are read too, the cheaper test).
const SURROGATE = /[\uD800-\uDFFF]/

/** Reads an answer's stream back, as fetch does; an unreadable body is empty. */
const readText = (response: Response): Promise<string> => response.text().catch(() => '')

// How many microtask turns reading a string answer's stream takes on this runtime, measured once
// on a probe (until known, answers are read). Deliveries due at the same instant run side by
// side, so when each one finishes, relative to the others, orders the trace: an answer taken from
// its string must become ready no sooner than a read one would.
let readTurns: number | undefined
void (async () => {
  let turns = 0
  let done = false
  const read = readText(new Response('probe')).then(() => {
    done = true
  })
  while (!done) {
    await null
    turns++
  }
  await read
  readTurns = turns
})()

/** `value` after `turns` microtask turns, as a read that took them would give it. */
function afterTurns<T>(turns: number, value: T): Promise<T> {
  let p = Promise.resolve(value)
  for (let i = 1; i < turns; i++) p = p.then(same)
  return p
}
const same = <T>(x: T): T => x

/**
 * An answer's body as text. When nobody read it yet and it was made from a string (`new
 * Response('ok')`, what receivers return), that string is its text, given after as many turns as
 * the read takes: reading the stream back (a reader, a decoder, promises per chunk) costs more
 * than the rest of an in-process delivery. A subclass, a stream or blob body, a body already read and
 * a string holding a surrogate are read as before.
 */
function answerText(response: Response): Promise<string> {
  // A subclass may answer text() its own way: only a plain Response is read from its string.
  if (readTurns !== undefined && Object.getPrototypeOf(response) === Response.prototype && !response.bodyUsed) {
    const source = fetchBody(response)?.source
    if (typeof source === 'string' && !SURROGATE.test(source)) return afterTurns(readTurns, source)
  }
  return readText(response)
}

/** A receiver that throws behaves like a server that crashed while answering. */
function crashed(error: unknown): TransportResult {
  // An in-process receiver simulates a refused connection by throwing an error with code ECONNREFUSED.
  if ((error as { code?: unknown } | null)?.code === 'ECONNREFUSED')
    return { kind: 'connect_error', message: String((error as Error).message) }
  return { kind: 'response', status: 500, body: String((error as Error)?.message ?? error) }
}

const TLS_CODES = /CERT|TLS|SSL|SELF_SIGNED|DEPTH_ZERO|UNABLE_TO_VERIFY/

/**
 * A real POST, timed on the wall clock from when it goes out (a receiver outside the process
 * answers in real time, whatever the virtual clock does meanwhile).
 */
function loopbackPost(url: URL, request: TransportRequest): Promise<TransportResult> {
  return new Promise((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const expiry = AbortSignal.timeout(request.timeoutMs)
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
        signal: AbortSignal.any([request.signal, expiry]),
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ kind: 'response', status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        )
        res.on('error', (e) => resolve({ kind: 'connect_error', message: e.message }))
      },
    )
    req.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? ''
      if (expiry.aborted) resolve({ kind: 'timeout', message: `No answer within ${request.timeoutMs} ms.` })
      else if (error.name === 'AbortError') resolve({ kind: 'timeout', message: 'The receiver answered too slowly.' })
      else if (TLS_CODES.test(code)) resolve({ kind: 'tls_error', message: `${code}: ${error.message}` })
      else resolve({ kind: 'connect_error', message: `${code || 'ERROR'}: ${error.message}` })
    })
    req.end(request.body)
  })
}
