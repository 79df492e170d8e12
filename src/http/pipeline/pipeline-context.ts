import type { Service } from '#domain/service.js'
import type { Ids } from '#kernel/ids.js'
import type { InFlightRequest } from '#kernel/request-timeline.js'
import type { IdempotencyStore } from '../idempotency.js'
import type { Incoming } from '../incoming.js'
import type { HeaderNames } from '../prefixed-headers.js'
import type { HandlerContext } from '../request-context.js'
import type { Principal, Route } from '../route.js'
import type { RouteTable } from '../route-table.js'

/**
 * What every request of one fetch handler shares: built once with the handler, read by the steps.
 *
 * @example
 * const host: PipelineHost = { service, names: headerNames('Service'), idempotency, routes: new RouteTable(routes), requestIds }
 */
export interface PipelineHost {
  readonly service: Service
  readonly names: HeaderNames
  readonly idempotency: IdempotencyStore
  readonly routes: RouteTable
  /** Ids for `req_…` request ids, from their own random stream so faults never shift object ids. */
  readonly requestIds: Ids
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({})
const NOTHING_DEFERRED: readonly string[] = Object.freeze([])

/**
 * One request on its way through the pipeline: what it arrived as, what each step found, and the
 * answer once one is made. The only object the pipeline itself allocates per request; every field
 * is declared here (with its empty value) so all contexts share one shape.
 *
 * Each step fills the fields under its name; a later step reads them, and a field stays empty
 * until its step ran (a step run alone in a test is given them by hand).
 *
 * @example
 * const ctx = new PipelineContext(host, incoming, flight)
 * await runPipeline(ctx, requestPipeline)
 * ctx.status // 200
 */
export class PipelineContext {
  readonly host: PipelineHost
  readonly incoming: Incoming
  readonly flight: InFlightRequest
  readonly method: string
  readonly path: string
  /** The path namespace: `/v2/…` decodes JSON and names nested params with dots. */
  readonly style: 'v1' | 'v2'

  // route
  route: Route | undefined = undefined
  params: Readonly<Record<string, string>> = NO_PARAMS
  // authenticate
  principal: Principal | undefined = undefined
  // version
  /** Set as soon as it is read, so a refusal of an unserved version still names it. */
  version: string | undefined = undefined
  /** The request named its version in a header (else the account's default is in force). */
  versionSent = false
  /** True at a version other than the current: params walk forward and the answer back. */
  walk = false
  // idempotency key
  idempotencyKey: string | undefined = undefined
  // decode (then walked forward, then checked against the catalogue)
  body: Record<string, unknown> = NO_PARAMS
  query: Record<string, unknown> = NO_PARAMS
  /** Expand paths of an older version, handed to the answer's walk back. */
  deferred: readonly string[] = NOTHING_DEFERRED
  /** Values of an older version's params the current ones have no place for. */
  aside: Record<string, unknown> | undefined = undefined
  // params
  checkedBody: unknown = undefined
  checkedQuery: unknown = undefined
  // idempotency
  /** The scope the idempotency key was begun in; set once the answer is to be saved for it. */
  idempotencyScope: string | undefined = undefined
  // dispatch
  request: HandlerContext | undefined = undefined
  /** What the route's handler answered (pending until the runner awaits it). */
  answer: unknown = undefined

  // The answer, an `Exchange` once `answered`.
  answered = false
  status = 0
  text = ''
  headers: Record<string, string> = NO_PARAMS as Record<string, string>
  /** Run once the answer has left (gates' releases); made on first use, as most requests have none. */
  releases: (() => void)[] | undefined = undefined
  /** Save the answer for its idempotency key once it has left (until then the key stays in progress). */
  saveOnLeave = false

  constructor(host: PipelineHost, incoming: Incoming, flight: InFlightRequest) {
    this.host = host
    this.incoming = incoming
    this.flight = flight
    this.method = incoming.method
    const path = incoming.url.pathname
    this.path = path
    this.style = path.startsWith('/v2/') ? 'v2' : 'v1'
  }

  /** Sets the answer that goes out; the runner stops before the next step. */
  reply(status: number, text: string, headers: Record<string, string>): void {
    this.answered = true
    this.status = status
    this.text = text
    this.headers = headers
  }
}
