import { operations } from '#catalogue/index.js'
import { DocumentAnswer } from '#domain/document.js'
import type { FaultHooks } from '#domain/faults/fault-hooks.js'
import { scopeKey } from '#domain/mode.js'
import type { Admission, Service } from '#domain/service.js'
import { ServiceError, tableError } from '#domain/service-error.js'
import type { Ids } from '#kernel/ids.js'
import { nextMacrotask } from '#kernel/macrotask.js'
import type { InFlightRequest } from '#kernel/request-timeline.js'
import { jsonOf } from '#kernel/sealed.js'
import { parseApiVersion } from './api-version.js'
import { authenticate } from './auth.js'
import { decodeBody, decodeQuery } from './body.js'
import { headerNames } from './prefixed-headers.js'
import { createIdempotencyStore } from './idempotency.js'
import { type Incoming, readIncoming } from './incoming.js'
import { catalogueParams } from './operation-params.js'
import { checkClientSecret } from './publishable.js'
import { HandlerContext } from './request-context.js'
import type { Principal, Route } from './route.js'
import { createRouter } from './router.js'
import { checkRetiredAt, retiredRouter, retiredShadow } from './routes/retired-routes.js'
import { TextResponse } from './text-response.js'
import { answerAt, checkServedVersion, needsWalk, requestParamsAt } from './version-edge.js'

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

interface Outcome {
  status: number
  text: string
  headers: Record<string, string>
}

/**
 * The paths the provider serves on its meter-events host (`meter-events.<domain>`): the meter event
 * stream and nothing else, read from the catalogue's `host` of each operation.
 */
let meterEventsPaths: ReadonlySet<string> | undefined
function meterEventsHostServes(path: string): boolean {
  meterEventsPaths ??= new Set(operations().flatMap((op) => (op.host === 'meter_events' ? [op.path] : [])))
  return meterEventsPaths.has(path)
}

// What `Headers` accepts as a value once trimmed: a ByteString without control characters.
const NOT_ECHOABLE = /[^\t\x20-\x7e\x80-\xff]/

function checkIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > 255) {
    throw tableError('idempotency_key_invalid', {}, { param: 'Idempotency-Key' })
  }
  if (NOT_ECHOABLE.test(key)) {
    throw tableError('idempotency_key_unprintable', {}, { param: 'Idempotency-Key' })
  }
}

/**
 * Builds the fetch handler: route, authenticate, version, decode, admit (limits, locks, faults),
 * validate, idempotency, run the handler, answer in the JSON envelope, record everything in the
 * trace. Requests are processed in arrival order; each stays in flight until it is answered.
 *
 * @example
 * const { fetch } = createFetchHandler({ service, routes, requestIds })
 * await fetch('/v1/balance', { headers: { Authorization: `Bearer ${key}` } })
 */
export function createFetchHandler(options: HandlerOptions): {
  fetch: FetchHandler
  exchangeIncoming: IncomingExchangeHandler
} {
  const { service, requestIds } = options
  const { kernel, timeline } = service
  const router = createRouter(options.routes)
  const names = headerNames(kernel.prefix)
  const idempotency = createIdempotencyStore(kernel)
  const serviceTime = options.serviceTime
  let turn: Promise<void> = Promise.resolve()
  let waiting = 0
  let driving = false

  async function drive(): Promise<void> {
    if (driving) return
    driving = true
    try {
      while (waiting > 0) {
        await nextMacrotask()
        const due = kernel.scheduler.nextDue()
        if (waiting === 0 || due === undefined) break
        // Work already due runs directly: fake-timers arms a 0 ms timer set during a tick 1 ms
        // late, so ticking 0 ms would never reach it.
        try {
          if (due <= kernel.clock.now) await kernel.scheduler.settle()
          else await kernel.clock.tickAsync(due - kernel.clock.now)
        } catch (error) {
          // A client's own timer threw during the tick (the scheduler's tasks never do): the
          // requests waiting on this clock must still be answered, so note it and go on.
          kernel.trace.append('clock.timer_failed', { message: error instanceof Error ? error.message : String(error) })
        }
      }
    } finally {
      driving = false
    }
  }

  // Not async itself: the common answer (no service time) is the macrotask's own promise.
  function answerAfter(flight: InFlightRequest): Promise<void> {
    const delay = serviceTime?.(flight) ?? 0
    return delay <= 0 ? nextMacrotask() : answerLater(delay)
  }

  async function answerLater(delay: number): Promise<void> {
    waiting++
    await new Promise<void>((resolve) => {
      kernel.scheduler.after(delay, 'http.respond', resolve)
      void drive()
    })
    waiting--
  }

  function respond(status: number, body: unknown, headers: Record<string, string>): Outcome {
    return { status, text: jsonOf(body), headers }
  }

  /** Saves the answer for its idempotency key once the response leaves: until then the key stays in progress (409). */
  function saveOnLeave(idem: { scope: string; key: string }, outcome: Outcome, releases: (() => void)[]): void {
    releases.push(() =>
      idempotency.complete(idem.scope, idem.key, {
        status: outcome.status,
        text: outcome.text,
        requestId: outcome.headers['Request-Id'] ?? '',
      }),
    )
  }

  function errorOutcome(error: ServiceError, version: string | undefined): Outcome {
    const headers: Record<string, string> = { ...error.headers }
    if (!error.noRequestId) headers['Request-Id'] = requestIds.next('req')
    if (version !== undefined) headers[names.version] = version
    return respond(error.status, error.toJSON(), headers)
  }

  async function process(incoming: Incoming, flight: InFlightRequest, releases: (() => void)[]): Promise<Outcome> {
    const path = incoming.url.pathname
    const style = path.startsWith('/v2/') ? 'v2' : 'v1'
    let version: string | undefined
    let principal: Principal | undefined
    let route: Route | undefined
    let idem: { scope: string; key: string } | undefined
    try {
      // The meter-events host serves the stream only; any other path there is unknown, as on the provider.
      // Read from `href` (a stored string) rather than `hostname` (a new string per request).
      const href = incoming.url.href
      const offHost = href.startsWith('meter-events.', href.indexOf('//') + 2) && !meterEventsHostServes(path)
      // An operation of older versions only is looked up once no current route matches, so the
      // current version never reads its facts.
      let match = offHost ? undefined : (router.match(incoming.method, path) ?? retiredRouter().match(incoming.method, path))
      if (match === undefined) {
        const allowed = offHost ? [] : router.allows(path)
        if (allowed.length > 0) {
          throw tableError(
            'method_not_allowed',
            { method: incoming.method, path, allowed: allowed.join(', ') },
            { headers: { Allow: allowed.join(', ') } },
          )
        }
        throw tableError('url_unrecognized', { method: incoming.method, path })
      }
      route = match.route
      // Named before authentication, so a refused credential (an expired session's 401) is traced with its operation.
      flight.operation = route.operation
      principal = authenticate(service, incoming.headers, route, match.params, names, style)
      flight.account = principal.account.id
      flight.mode = principal.mode
      const versionHeader = incoming.headers.get(names.version)
      version = versionHeader === null ? principal.account.apiVersion : parseApiVersion(versionHeader, names.version)
      if (versionHeader !== null) checkServedVersion(version, names.version)
      // At the current version nothing below walks: a string comparison is the whole cost.
      const walk = needsWalk(version)
      if (walk) {
        // An older version's literal path wins over a current placeholder (`/v1/invoices/upcoming`
        // is not the retrieve of an invoice `upcoming` there).
        const older = offHost ? undefined : retiredRouter().match(incoming.method, path)
        if (older !== undefined && older.route !== route) {
          match = older
          route = older.route
          flight.operation = route.operation
        }
      }
      checkRetiredAt(route, version, incoming.method, path)
      // Checked before any gate or handler runs: the key is echoed on the response, and a value
      // `Headers` refuses would throw there, after the request had committed.
      const key = incoming.headers.get('idempotency-key') ?? undefined
      if (key !== undefined) checkIdempotencyKey(key)
      let decoded = incoming.method === 'GET' ? {} : decodeBody(incoming.text, incoming.headers.get('content-type'), style)
      let rawQuery = decodeQuery(incoming.url.search)
      let deferred: readonly string[] = []
      let aside: Record<string, unknown> | undefined
      if (walk) {
        const forwardBody = requestParamsAt(route.operation, version, decoded)
        const forwardQuery = requestParamsAt(route.operation, version, rawQuery)
        decoded = forwardBody.params
        rawQuery = forwardQuery.params
        deferred = [...forwardBody.deferred, ...forwardQuery.deferred]
        const kept = { ...forwardQuery.aside, ...forwardBody.aside }
        if (Object.keys(kept).length > 0) aside = kept
      }
      if (principal.publishable === true) {
        const id = match.params[route.object ?? 'id'] ?? match.params.intent ?? ''
        if (incoming.method === 'GET') rawQuery = checkClientSecret(service, principal, route.operation, id, rawQuery)
        else decoded = checkClientSecret(service, principal, route.operation, id, decoded)
      }
      const mutates = route.mutates ?? incoming.method !== 'GET'
      if (service.gates.length > 0) {
        // One admission for every gate: it is read-only to them.
        const admission: Admission = {
          operation: route.operation,
          method: incoming.method,
          account: principal.account.id,
          authenticated: principal.authenticated.id,
          mode: principal.mode,
          onBehalf: principal.onBehalf,
          objectId: route.object === undefined ? undefined : match.params[route.object],
          mutates,
          inflight: flight,
          body: decoded,
          api: style,
        }
        for (const gate of service.gates) {
          const release = gate(admission)
          if (release) releases.push(release)
        }
      }
      const checked = catalogueParams.check(route, incoming.method, decoded, rawQuery, style)
      const { body, query } = checked
      const scope = scopeKey({ account: principal.account.id, mode: principal.mode })
      if (key !== undefined && (incoming.method === 'POST' || (incoming.method === 'DELETE' && style === 'v2'))) {
        const fingerprint = `${incoming.method} ${path}${incoming.url.search}\n${incoming.text}`
        const stored = idempotency.begin(scope, key, fingerprint)
        if (stored !== undefined) {
          kernel.trace.append('http.replayed', { key, request_id: stored.requestId })
          return {
            status: stored.status,
            text: stored.text,
            headers: {
              'Request-Id': stored.requestId,
              [names.version]: version,
              'Idempotency-Key': key,
              'Idempotent-Replayed': 'true',
            },
          }
        }
        idem = { scope, key }
      }
      const ctx = new HandlerContext({
        service,
        principal,
        params: match.params,
        body,
        query,
        method: incoming.method,
        path,
        requestId: requestIds.next('req'),
        idempotencyKey: key,
        version,
        aside,
        inflight: flight,
        headers: incoming.headers,
      })
      const answer = await route.handle(ctx)
      const status = ctx.answerStatus
      // A document (a quote's PDF) is written as it is, never walked or serialised as JSON.
      if (answer instanceof DocumentAnswer) {
        const outcome = {
          status,
          text: answer.text,
          headers: { 'Request-Id': ctx.requestId, 'Content-Type': answer.contentType },
        }
        if (idem) saveOnLeave(idem, outcome, releases)
        return outcome
      }
      const result = walk
        ? answerAt(service, { account: principal.account.id, mode: principal.mode }, answer, version, deferred)
        : answer
      // Set after the literal: a computed name inside it makes V8 build the object the slow way.
      const headers: Record<string, string> = { 'Request-Id': ctx.requestId }
      headers[names.version] = version
      if (key !== undefined) headers['Idempotency-Key'] = key
      const outcome = respond(status, result, headers)
      if (idem) saveOnLeave(idem, outcome, releases)
      return outcome
    } catch (caught) {
      let error = caught instanceof ServiceError ? caught : internalError(caught, flight)
      // Looked at on the refusal of a placeholder route only (a retired literal path is read as an
      // id there), so an answered current-version request reads no version data.
      if (route?.path.includes(':') && version !== undefined && error.status >= 400 && error.status < 500) {
        error = retiredShadow(incoming.method, path, route, version) ?? error
      }
      const outcome = errorOutcome(error, version)
      if (idem) {
        // Refusals that the client should retry are not saved, so the retry runs for real.
        if (error.status === 409 || error.status === 429 || error.status >= 500) idempotency.abandon(idem.scope, idem.key)
        else saveOnLeave(idem, outcome, releases)
      }
      return outcome
    }
  }

  /**
   * A throw that is not a ServiceError is a simulator bug: answer it as the provider answers its
   * own failures (500 `api_error`), so the client and the next request go on, and trace it so
   * tests can assert there are none.
   */
  function internalError(error: unknown, flight: InFlightRequest): ServiceError {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    kernel.trace.append('http.internal_error', { operation: flight.operation ?? null, message })
    return new ServiceError({
      status: 500,
      type: 'api_error',
      message: 'An unexpected error occurred while processing the request.',
    })
  }

  async function answer(reading: Promise<Incoming>): Promise<Exchange> {
    const flight = timeline.arrive(kernel.clock.now)
    const previous = turn
    let done!: () => void
    turn = new Promise((resolve) => {
      done = resolve
    })
    let outcome: Outcome
    const releases: (() => void)[] = []
    try {
      let incoming: Incoming
      try {
        incoming = await reading
      } finally {
        await previous
      }
      try {
        outcome = await process(incoming, flight, releases)
      } catch (error) {
        outcome = errorOutcome(internalError(error, flight), undefined)
      } finally {
        // Every path out of here passes this turn on, or no later request would ever run.
        done()
      }
      kernel.trace.append('http', {
        method: incoming.method,
        path: incoming.url.pathname + incoming.url.search,
        operation: flight.operation,
        account: flight.account,
        mode: flight.mode,
        status: outcome.status,
        request_id: outcome.headers['Request-Id'] ?? null,
        // Bodies are members like the others: a trace record length-prefixes every string.
        request: incoming.text,
        response: outcome.text,
      })
      await answerAfter(flight)
      // An indeterminate answer: committed above, but the client sees a network failure.
      if (options.dropAnswer?.(flight, outcome.status)) throw new TypeError('fetch failed')
    } finally {
      // Reached on every path (fetch's own TypeErrors included): a release that throws must not
      // keep the others, the turn or the timeline entry held.
      done()
      for (const release of releases) {
        try {
          release()
        } catch (error) {
          internalError(error, flight)
        }
      }
      timeline.finish(flight)
    }
    outcome.headers['Content-Type'] ??= 'application/json'
    return outcome
  }

  return {
    exchangeIncoming: (incoming) => answer(Promise.resolve(incoming)),
    async fetch(input, init) {
      // Reading a fetch call has no effect on the service, so it may start before the arrival.
      const outcome = await answer(readIncoming(input, init))
      return new TextResponse(outcome.text, { status: outcome.status, headers: outcome.headers })
    },
  }
}
