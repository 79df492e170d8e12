import type { Service } from '#domain/service.js'
import type { InFlightRequest } from '#kernel/request-timeline.js'
import type { HeaderReader } from './incoming.js'
import type { Principal, RequestContext } from './route.js'

/**
 * What the handler knows of a request when its route runs.
 *
 * @example
 * const facts: RequestFacts = { service, principal, params, body, query, method: 'POST', path, requestId, idempotencyKey: undefined, version, versionSent: false, aside: undefined, inflight, headers }
 */
export interface RequestFacts {
  readonly service: Service
  readonly principal: Principal
  readonly params: Readonly<Record<string, string>>
  readonly body: unknown
  readonly query: unknown
  readonly method: string
  readonly path: string
  readonly requestId: string
  readonly idempotencyKey: string | undefined
  readonly version: string
  readonly versionSent: boolean
  readonly aside: Readonly<Record<string, unknown>> | undefined
  readonly inflight: InFlightRequest
  readonly headers: HeaderReader
}

/**
 * The context a route handler sees, as a class: its `header` and `status` are methods on the
 * prototype, not two closures made for every request.
 *
 * @example
 * const ctx = new HandlerContext(facts)
 * await route.handle(ctx)
 * ctx.answerStatus // 200 unless the handler set another
 */
export class HandlerContext implements RequestContext {
  readonly service: Service
  readonly principal: Principal
  readonly params: Readonly<Record<string, string>>
  readonly body: unknown
  readonly query: unknown
  readonly method: string
  readonly path: string
  readonly requestId: string
  readonly idempotencyKey: string | undefined
  readonly version: string
  readonly versionSent: boolean
  readonly aside: Readonly<Record<string, unknown>> | undefined
  readonly inflight: InFlightRequest
  /** The status the answer goes out with. */
  answerStatus = 200
  readonly #headers: HeaderReader

  constructor(facts: RequestFacts) {
    this.service = facts.service
    this.principal = facts.principal
    this.params = facts.params
    this.body = facts.body
    this.query = facts.query
    this.method = facts.method
    this.path = facts.path
    this.requestId = facts.requestId
    this.idempotencyKey = facts.idempotencyKey
    this.version = facts.version
    this.versionSent = facts.versionSent
    this.aside = facts.aside
    this.inflight = facts.inflight
    this.#headers = facts.headers
  }

  header(name: string): string | undefined {
    return this.#headers.get(name.replace('{prefix}', this.service.kernel.prefix)) ?? undefined
  }

  status(code: number): void {
    this.answerStatus = code
  }
}
