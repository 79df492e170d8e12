import type { Account } from '#domain/connect/account.js'
import type { Mode } from '#domain/mode.js'
import type { Service } from '#domain/service.js'
import type { InFlightRequest } from '#kernel/request-timeline.js'

/** Who a request acts as, after authentication and `Service-Account`/`Service-Context`. */
export interface Principal {
  /** The account whose key authenticated the request. */
  readonly authenticated: Account
  /** The account the request acts for (the connected account under `Service-Account`). */
  readonly account: Account
  readonly mode: Mode
  /** True when the request acts for another account than the key's own (reads on behalf count apart). */
  readonly onBehalf: boolean
  /** The meter event session id, on the stream endpoint. */
  readonly session?: string
  /** True when a publishable key authenticated it (an intent's read or confirmation with its client secret). */
  readonly publishable?: true
}

/** Everything a route handler sees. Handlers are thin: they decode, call the domain and shape JSON. */
export interface RequestContext<B = unknown, Q = unknown> {
  readonly service: Service
  readonly principal: Principal
  readonly params: Readonly<Record<string, string>>
  readonly body: B
  readonly query: Q
  readonly method: string
  readonly path: string
  readonly requestId: string
  readonly idempotencyKey: string | undefined
  /** The API version in force: the `Service-Version` header, else the account default. */
  readonly version: string
  /** The request named its version in a header (under either known prefix). */
  readonly versionSent: boolean
  /** Values an older version's params had that the current params have no place for (walked forward). */
  readonly aside?: Readonly<Record<string, unknown>>
  readonly inflight: InFlightRequest
  /** A request header by name, with the configured prefix applied to `{prefix}` in the name. */
  header(name: string): string | undefined
  /** Sets a response status other than 200. */
  status(code: number): void
}

/** `none`: a page a browser opens without a key (the connect host's OAuth authorize page), acting as the platform in test mode. */
export type RouteAuth = 'secret' | 'session' | 'none'

/**
 * One operation of the service. Each operation is one endpoint for the limiters, whatever the id in
 * its path.
 *
 * @example
 * const route: Route = {
 *   method: 'GET', path: '/v1/accounts/:id', operation: 'accounts.retrieve',
 *   handle: (ctx) => ctx.service.accounts.get(ctx.params.id),
 * }
 */
export interface Route<B = any, Q = any> {
  readonly method: 'GET' | 'POST' | 'DELETE'
  readonly path: string
  /** Operation name, e.g. `customers.create`: the endpoint identity for limits and the trace. */
  readonly operation: string
  readonly auth?: RouteAuth
  /**
   * Top-level parameters whose values the route checks itself, with codes of its own (a meter
   * event's `payload`): the catalogue check accepts any value there, and still refuses unknown keys.
   */
  readonly checksOwn?: readonly string[]
  /**
   * `false` on routes that answer without reading their parameters, so the catalogue check is
   * skipped: an operation nobody serves answers 501 `not_implemented` whatever it is sent.
   */
  readonly checksParams?: false
  /** The id-bearing path parameter whose object the request reads or mutates (for locks). */
  readonly object?: string
  /** True for operations that change state (locks, idempotency, per-object limits). */
  readonly mutates?: boolean
  handle(ctx: RequestContext<B, Q>): unknown | Promise<unknown>
}
