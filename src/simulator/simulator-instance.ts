import type { InterceptOptions } from '#adapters/hosts.js'
import { type Interception, interceptHosts } from '#adapters/intercept.js'
import type { Service } from '#domain/service.js'
import type { FaultController } from '#faults/fault-controller.js'
import type { FetchHandler } from '#http/handler.js'
import type { Receivers } from '#http/receivers.js'
import type { Clock } from '#kernel/clock.js'
import type { Trace } from '#kernel/trace.js'
import { type CustomerActor, createCustomerActor } from './customer-actor.js'
import type { Platform, Simulator } from './simulator.js'
import { createSimulatorAdmin } from './simulator-admin.js'
import type { SimulatorInternals } from './simulator-internals.js'
import type { ContinueOptions, SimulatorOptions } from './simulator-options.js'
import type { SimulatorParts } from './simulator-parts.js'
import type { Capture, Snapshot } from './snapshot.js'

/** How a simulator builds another from options and a capture (`createSimulator`'s own build). */
export type SimulatorBuild = (options: SimulatorOptions, from: Capture) => SimulatorInstance

/** An `intercept()` started, and its interception once it has landed. */
interface InterceptionEntry {
  readonly started: Promise<Interception>
  done: Interception | undefined
}

/**
 * The simulator `createSimulator` returns: its methods on the prototype (the five users take off
 * it are bound once when it is made), its parts and internals held privately.
 *
 * @example
 * const sim = new SimulatorInstance(parts, internals, build)
 * await sim.settle()
 */
export class SimulatorInstance implements Simulator {
  readonly fetch: FetchHandler
  readonly clock: Clock
  readonly platform: Platform
  readonly receivers: Receivers
  readonly trace: Trace
  readonly service: Service
  readonly faults: FaultController
  readonly #parts: SimulatorParts
  readonly #internals: SimulatorInternals
  readonly #build: SimulatorBuild
  #admin: Simulator['admin'] | undefined
  #customer: CustomerActor | undefined
  #interception: InterceptionEntry | undefined

  constructor(parts: SimulatorParts, internals: SimulatorInternals, build: SimulatorBuild) {
    this.#parts = parts
    this.#internals = internals
    this.#build = build
    this.fetch = parts.fetch
    this.clock = parts.clock
    const p = parts.service.accounts.platform
    this.platform = { id: p.id, secretKey: p.keys.secret, publishableKey: p.keys.publishable, account: p }
    this.receivers = parts.receivers
    this.trace = parts.trace
    this.service = parts.service
    this.faults = parts.faults
    // Users take methods off the simulator (`const { settle } = sim`, `afterEach(sim.restore)`);
    // they work detached, as they did when the simulator was an object of closures.
    this.settle = this.settle.bind(this)
    this.intercept = this.intercept.bind(this)
    this.restore = this.restore.bind(this)
    this.snapshot = this.snapshot.bind(this)
    this.fork = this.fork.bind(this)
  }

  /** The internals of a simulator made by `createSimulator`; a `TypeError` naming `caller` otherwise. */
  static internalsOf(sim: Simulator, caller: string): SimulatorInternals {
    if (!(sim instanceof SimulatorInstance)) throw new TypeError(`${caller}: not a simulator made by createSimulator`)
    return sim.#internals
  }

  // Made on first use: many simulators (property runs, forks) never touch it.
  get admin(): Simulator['admin'] {
    if (this.#admin !== undefined) return this.#admin
    // A kept simulator touched through its admin goes back to a capture per fork, and one whose
    // admin exists is never kept (see `keepForForks`).
    this.#internals.adminRead()
    this.#admin = createSimulatorAdmin(this, this.#parts)
    return this.#admin
  }

  get customer(): CustomerActor {
    this.#customer ??= createCustomerActor(this.#parts.service)
    return this.#customer
  }

  get seed(): string {
    return this.#internals.seed
  }

  settle(): Promise<void> {
    return this.#parts.scheduler.settle()
  }

  intercept(interceptOptions: InterceptOptions = {}): Promise<Interception> {
    if (this.#interception) throw new Error('sim.intercept(): already intercepting; call sim.restore() first')
    const started = interceptHosts(this.fetch, { ...interceptOptions, prefix: this.#parts.kernel.prefix })
    const entry: InterceptionEntry = { started, done: undefined }
    this.#interception = entry
    started.then(
      (i) => {
        entry.done = i
      },
      () => {
        if (this.#interception === entry) this.#interception = undefined
      },
    )
    return started
  }

  restore(): void {
    const current = this.#interception
    this.#interception = undefined
    if (current?.done) current.done.restore()
    // A restore that overtakes a pending intercept() still undoes it once it lands.
    else
      void current?.started.then(
        (i) => i.restore(),
        () => undefined,
      )
  }

  snapshot(): Snapshot {
    return this.#internals.snapshot()
  }

  fork(next?: ContinueOptions): Simulator {
    if (next !== undefined && (typeof next !== 'object' || next === null || Array.isArray(next)))
      throw new TypeError(`fork: expected { seed, faults? } (or nothing), got ${next === null ? 'null' : typeof next}`)
    // A fork runs on a local clock of its own, at this one's time.
    const forked = this.#build(...this.#internals.forkSource())
    if (next !== undefined) forked.#internals.continueWith(next, 'fork')
    return forked
  }
}
