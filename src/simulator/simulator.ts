import type { InterceptOptions } from '#adapters/hosts.js'
import type { Interception } from '#adapters/intercept.js'
import type { Account } from '#domain/connect/account.js'
import type { Service } from '#domain/service.js'
import type { FaultController } from '#faults/fault-controller.js'
import type { FaultEntry } from '#faults/faults-schema.js'
import type { FetchHandler } from '#http/handler.js'
import type { Receivers } from '#http/receivers.js'
import type { Clock } from '#kernel/clock.js'
import type { Trace } from '#kernel/trace.js'
import type { Admin } from './admin.js'
import type { CausingTrigger } from './caused-trigger.js'
import type { CustomerActor } from './customer-actor.js'
import type { FixtureOptions, FixtureResult } from './fixtures.js'
import type { ContinueOptions } from './simulator-options.js'
import type { Snapshot } from './snapshot.js'

/** One fault to apply now: a schedule entry without its step. */
export type FaultInjection = Omit<FaultEntry, 'step'>

/** The default platform account: its id and its keys. */
export interface Platform {
  readonly id: string
  readonly secretKey: { readonly test: string; readonly live: string }
  readonly publishableKey: { readonly test: string; readonly live: string }
  readonly account: Account
}

/**
 * One simulation: the service behind a fetch-compatible handler, on one virtual clock.
 */
export interface Simulator {
  /** `fetch` of the simulated service; bound, so it can be passed around. */
  readonly fetch: FetchHandler
  readonly clock: Clock
  readonly platform: Platform
  /** Typed setup and inspection; `injectFault({ fault: 'lock_timeout' })` applies a fault now. */
  readonly admin: Omit<Admin, 'trigger'> & {
    /**
     * Causes an event by the API calls that make it, as the provider CLI's trigger does (the event
     * names a stored object in the state it says); with `synthetic: true` or a body, a generated
     * event at once. See `CausingTrigger`.
     */
    trigger: CausingTrigger
    injectFault(fault: FaultInjection): void
    /** Runs a fixture file (the provider CLI's format) through the API; see `runFixtures`. */
    loadFixtures(json: unknown, options?: FixtureOptions): Promise<FixtureResult>
  }
  readonly receivers: Receivers
  /** The customer's side: checkout completion, confirmations by client secret, 3-D Secure, hosted invoices, the billing portal (docs/customer.md). */
  readonly customer: CustomerActor
  readonly trace: Trace
  /** Runs all work due at the current virtual instant (async processing, deliveries). */
  settle(): Promise<void>
  /** The seed this simulation runs on. */
  readonly seed: string
  /** The domain root, for harness code; not a stable API. */
  readonly service: Service
  /** The fault policy of this simulation: `step(n)`, `inject(fault)`, `fired()`. */
  readonly faults: FaultController
  /**
   * Routes the global `fetch` and node's `http`/`https` for the simulator's hosts to `sim.fetch`
   * (needs the optional peer dependency `nock`). Other hosts fail loudly unless
   * `unmatched: 'passthrough'`. Undo with `sim.restore()`.
   */
  intercept(options?: InterceptOptions): Promise<Interception>
  /** Undoes `intercept()`; safe to call when nothing is intercepted. */
  restore(): void
  /**
   * The whole state as plain data (JSON-safe): `createSimulator({ from })` continues it exactly.
   * Taken at rest: throws, naming the cause, while a request or a delivery is in flight or when
   * pending work cannot be carried (docs/snapshot.md).
   */
  snapshot(): Snapshot
  /**
   * An independent simulator in this one's state, made without JSON (copying plain data
   * structurally), with the in-process receivers mounted here mounted there too. With `next`,
   * the fork goes on with that seed and fault policy (`continueAs`): many runs from one prepared
   * state, each with its own randomness.
   *
   * @example
   * const run = prepared.fork({ seed: 7, faults: { preset: 'realistic' } })
   */
  fork(next?: ContinueOptions): Simulator
}
