import type { ReceiverHandler, Simulator } from '#simulator/index.js'

/** A response as a client action sees it. */
export interface ClientResponse {
  readonly status: number
  readonly body: any
  readonly headers: Headers
}

/** A request a client action sends: the fields of a workload request step. */
export interface ClientRequest {
  method?: 'GET' | 'POST' | 'DELETE'
  path: string
  body?: unknown
  query?: Record<string, unknown>
  headers?: Record<string, string>
  as?: string
  account?: string
  context?: string
  token?: string
  version?: string
  idempotency_key?: string
  mode?: 'test' | 'live'
}

/** What a client action gets: the simulator, the run's variables and a recorded `request`. */
export interface ClientContext {
  readonly sim: Simulator
  readonly vars: Record<string, unknown>
  /** Sends a request through `sim.fetch`; it is recorded in the run like a workload request. */
  request(request: ClientRequest): Promise<ClientResponse>
  /** Sleeps in virtual time (the service's scheduled work runs meanwhile). */
  sleep(ms: number): Promise<void>
  /** A seeded number in [0, 1) from the `harness.client` stream, for jitter. */
  random(): number
  /** The header prefix (`Service` or `Stripe`). */
  readonly prefix: string
}

/** One action of a client: `client: { action, args }` in a workload step. */
export type ClientAction = (ctx: ClientContext, args: Record<string, unknown>) => unknown

/** What a receiver factory gets. */
export interface ReceiverContext {
  readonly sim: Simulator
  readonly name: string
  readonly url: string
  /** Signing secrets the run has seen for the receiver's destination (newest last). */
  secrets(): string[]
  readonly prefix: string
  /** Reports one side effect of processing event `eventId` (counted as `processed` in expectations). */
  processed(eventId: string): void
}

/**
 * A client module: the user's code under test, or the reference client. Loaded by
 * `service-sim replay --client <module>`; TypeScript modules load directly.
 *
 * @example
 * export const actions = { async reportUsage(ctx, args) { await ctx.request({ method: 'POST', path: '/v2/billing/meter_events', body: args }) } }
 * export function receiver(ctx) { return async (req) => new Response('ok') }
 */
export interface ScenarioClient {
  readonly actions?: Readonly<Record<string, ClientAction>>
  receiver?(ctx: ReceiverContext): ReceiverHandler
}
