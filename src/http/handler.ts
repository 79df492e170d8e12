import type { FaultHooks } from '#domain/fault-hooks.js'
import type { Service } from '#domain/service.js'
import type { Ids } from '#kernel/ids.js'
import type { InFlightRequest } from '#kernel/request-timeline.js'
import { AnswerDelay } from './answer-delay.js'
import { createIdempotencyStore } from './idempotency.js'
import { type Incoming, readIncoming } from './incoming.js'
import { internalError } from './pipeline/internal-error.js'
import { requestPipeline, runPipeline } from './pipeline/pipeline.js'
import { PipelineContext, type PipelineHost } from './pipeline/pipeline-context.js'
import { replyWithError } from './pipeline/render-refusal.js'
import { headerNames } from './prefixed-headers.js'
import type { Route } from './route.js'
import { RouteTable } from './route-table.js'
import { TextResponse } from './text-response.js'

/** The `fetch`-compatible handler of a simulator. */
export type FetchHandler = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

/** An answer before it becomes a `Response`: what an HTTP server writes to its socket. */
export interface Exchange {
  readonly status: number
  readonly text: string
  readonly headers: Readonly<Record<string, string>>
}

/**
 * The exchange of a request a server has already read (its URL parsed, its headers in a reader,
 * its body as text): `service-sim serve` and `replay --served` answer through it, so neither
 * parses a request twice.
 */
export type IncomingExchangeHandler = (incoming: Incoming) => Promise<Exchange>

export interface HandlerOptions {
  readonly service: Service
  readonly routes: readonly Route[]
  /** Ids for `req_…` request ids, from their own random stream so faults never shift object ids. */
  readonly requestIds: Ids
  /** Virtual milliseconds a request stays in flight; 0 (default) answers at the next macrotask. */
  readonly serviceTime?: (request: InFlightRequest) => number
  /** The fault port's indeterminate answers (see `FaultHooks.dropAnswer`); none when omitted. */
  readonly dropAnswer?: FaultHooks['dropAnswer']
}

/**
 * Builds the fetch handler: each request runs the steps of {@link requestPipeline} (route,
 * authenticate, version, idempotency key, decode, walk forward, scope, limits, params, idempotency,
 * dispatch, render), answers in
 * the JSON envelope and is recorded in the trace. Requests are processed in arrival order; each
 * stays in flight until it is answered.
 *
 * @example
 * const { fetch } = createFetchHandler({ service, routes, requestIds })
 * await fetch('/v1/balance', { headers: { Authorization: `Bearer ${key}` } })
 */
export function createFetchHandler(options: HandlerOptions): {
  fetch: FetchHandler
  exchangeIncoming: IncomingExchangeHandler
} {
  const handler = new RequestHandler(options)
  return {
    exchangeIncoming: (incoming) => handler.answer(incoming),
    async fetch(input, init) {
      // Reading a fetch call has no effect on the service, so it may start before the arrival.
      const outcome = await handler.answer(readIncoming(input, init))
      return new TextResponse(outcome.text, { status: outcome.status, headers: outcome.headers })
    },
  }
}

/** One handler's requests, taken in arrival order through the pipeline. */
class RequestHandler {
  readonly #host: PipelineHost
  readonly #delay: AnswerDelay
  readonly #dropAnswer: FaultHooks['dropAnswer'] | undefined
  #turn: Promise<void> = Promise.resolve()

  constructor(options: HandlerOptions) {
    const { service } = options
    this.#host = {
      service,
      names: headerNames(service.kernel.prefix),
      idempotency: createIdempotencyStore(service.kernel),
      routes: new RouteTable(options.routes),
      requestIds: options.requestIds,
    }
    this.#delay = new AnswerDelay(service.kernel, options.serviceTime)
    this.#dropAnswer = options.dropAnswer
  }

  /**
   * Answers one request once every request that arrived before it has been answered. A request a
   * server has read already (`exchangeIncoming`) is given as it is: no promise to wait for.
   */
  async answer(reading: Promise<Incoming> | Incoming): Promise<Exchange> {
    const host = this.#host
    const { kernel, timeline } = host.service
    const flight = timeline.arrive(kernel.clock.now)
    const previous = this.#turn
    let done!: () => void
    this.#turn = new Promise((resolve) => {
      done = resolve
    })
    let ctx: PipelineContext | undefined
    try {
      let incoming: Incoming
      try {
        incoming = reading instanceof Promise ? await reading : reading
      } finally {
        await previous
      }
      ctx = new PipelineContext(host, incoming, flight)
      try {
        await runPipeline(ctx, requestPipeline)
      } catch (error) {
        replyWithError(ctx, internalError(host, error, flight), undefined)
      } finally {
        // Every path out of here passes this turn on, or no later request would ever run.
        done()
      }
      traceExchange(ctx)
      await this.#delay.after(flight)
      // An indeterminate answer: committed above, but the client sees a network failure.
      if (this.#dropAnswer?.(flight, ctx.status)) throw new TypeError('fetch failed')
    } finally {
      // Reached on every path (fetch's own TypeErrors included): a release that throws must not
      // keep the others, the turn or the timeline entry held.
      done()
      if (ctx !== undefined) leave(ctx)
      timeline.finish(flight)
    }
    ctx.headers['Content-Type'] ??= 'application/json'
    // The context is the exchange (its status, text and headers): no answer object of its own.
    return ctx
  }
}

function traceExchange(ctx: PipelineContext): void {
  const { incoming, flight } = ctx
  ctx.host.service.kernel.trace.append('http', {
    method: incoming.method,
    path: incoming.url.pathname + incoming.url.search,
    operation: flight.operation,
    account: flight.account,
    mode: flight.mode,
    status: ctx.status,
    request_id: ctx.headers['Request-Id'] ?? null,
    // Bodies are members like the others: a trace record length-prefixes every string.
    request: incoming.text,
    response: ctx.text,
  })
}

/** Once the answer has left: the gates' releases, then the answer saved for its idempotency key. */
function leave(ctx: PipelineContext): void {
  const releases = ctx.releases
  if (releases !== undefined) {
    for (const release of releases) {
      try {
        release()
      } catch (error) {
        internalError(ctx.host, error, ctx.flight)
      }
    }
  }
  if (ctx.saveOnLeave) {
    // Guarded like a release: whatever happens here, the request still leaves the timeline.
    try {
      ctx.host.idempotency.complete(ctx.idempotencyScope!, ctx.idempotencyKey!, {
        status: ctx.status,
        text: ctx.text,
        requestId: ctx.headers['Request-Id'] ?? '',
      })
    } catch (error) {
      internalError(ctx.host, error, ctx.flight)
    }
  }
}
