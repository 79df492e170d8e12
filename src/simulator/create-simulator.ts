import { z } from 'zod'
import { versionProblem } from '#catalogue/versions.js'
import type { Account } from '#domain/connect/account.js'
import type { Kernel } from '#domain/kernel-parts.js'
import { type LimitsConfig, type LimitsOption, resolveLimits, validateLimits } from '#domain/limits/limits-option.js'
import { createService, type Service } from '#domain/service.js'
import type { FaultController } from '#faults/fault-controller.js'
import type { FaultsInput } from '#faults/fault-policy.js'
import { type FaultEntry, faultTargetRefusal } from '#faults/faults-schema.js'
import { adoptFaults, createFaults, installFaults } from '#faults/install-faults.js'
import { createFetchHandler, type FetchHandler, type IncomingExchangeHandler } from '#http/handler.js'
import { createReceivers, type Receivers } from '#http/receivers.js'
import { routes } from '#http/routes/index.js'
import { createTransport } from '#http/transport.js'
import { type Clock, type ClockOptions, createClock } from '#kernel/clock.js'
import { createIds } from '#kernel/ids.js'
import { fromPlain, type Plain, toPlain } from '#kernel/plain.js'
import { createRequestTimeline } from '#kernel/request-timeline.js'
import { createRng } from '#kernel/rng.js'
import { createScheduler } from '#kernel/scheduler.js'
import { createStateRegistry } from '#kernel/state.js'
import { createTrace, type Trace, traceInternals } from '#kernel/trace.js'
import type { InterceptOptions } from '../adapters/hosts.js'
import { type Interception, interceptHosts } from '../adapters/intercept.js'
import { type Admin, createAdmin } from './admin.js'
import { type CausingTrigger, createCausingTrigger } from './caused-trigger.js'
import { type Customer, createCustomer } from './customer.js'
import { type FixtureOptions, type FixtureResult, runFixtures } from './fixtures.js'
import { type Capture, captureOptions, checkSnapshot, SNAPSHOT_FORMAT, type Snapshot, type SnapshotOptions } from './snapshot.js'

export type { Snapshot } from './snapshot.js'

/** The API version accounts default to: the one the official client of this generation pins. */
export const DEFAULT_API_VERSION = '2026-10-28.endive'

export interface SimulatorOptions extends ClockOptions {
  /** Seed of every random choice. Same seed and inputs: the same trace, byte for byte. Default 0. */
  seed?: number | string
  /** Prefix of the provider-named headers. `Stripe` makes the official `stripe` client work unchanged. */
  headerPrefix?: string
  /** Default API version of new accounts. */
  apiVersion?: string
  /**
   * Virtual time a request stays in flight, in ms: a number, or a range drawn from the seeded
   * `latency` stream. Default 0: answered at the next macrotask without moving the clock.
   */
  serviceTime?: number | { min: number; max: number }
  /** Keep at most this many trace entries in memory (the hash still covers all). */
  traceLimit?: number
  /**
   * @deprecated Accepted and ignored: every trace's digest now carries across `snapshot()`, with
   * or without `traceLimit`, at no cost.
   */
  resumableTrace?: boolean
  /**
   * Fault policy: `{ preset: 'realistic' }`, `{ swarm: true }`, per-kind `policy.rates`, and an
   * explicit `schedule` of `{ step, fault, ... }`. Decisions draw from the `faults` stream and are
   * traced as `fault` entries. Default: no faults.
   */
  faults?: FaultsInput
  /**
   * The limit table and lock wait. Omitted: the spec's limits. `false`: no rate, concurrency or
   * read-allocation limits and no object locks. An object merges rows by `id` into the defaults
   * (`{ id, off: true }` drops one), tunes `reads` and `locks: { waitMs }`.
   */
  limits?: LimitsOption
  /**
   * A snapshot (`sim.snapshot()`, plain data, possibly through JSON) to continue from: the
   * simulator starts in the saved state, with the saved options; only `clock` may be given too.
   * Receivers are functions and are not in a snapshot: mount them again (docs/snapshot.md).
   */
  from?: Snapshot
}

/**
 * How a fork (or a prepared simulator, `continueAs`) goes on: from its state, with another seed
 * for every random stream from now on and another fault policy in force.
 */
export interface ContinueOptions {
  /** The seed every random stream restarts from (ids, faults, latency...). */
  readonly seed: number | string
  /** The fault policy from now on (default none): rates, preset, swarm, a schedule by step. */
  readonly faults?: FaultsInput | undefined
}

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
  readonly customer: Customer
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

// Built on the first createSimulator call, not at import: importing the package should not pay
// for schemas it may never use (see reports/bench/cold-start.md).
let optionsSchema: ReturnType<typeof simulatorOptionsSchema> | undefined

function simulatorOptionsSchema() {
  return z
    .object({
      seed: z.union([z.number().finite(), z.string()]).optional(),
      start: z.union([z.number().finite(), z.string(), z.date()]).optional(),
      clock: z
        .union([z.literal('local'), z.literal('global'), z.looseObject({ now: z.number(), tickAsync: z.function() })])
        .optional(),
      headerPrefix: z
        .string()
        .regex(/^[A-Za-z][A-Za-z0-9]*$/, { message: 'must be a header token such as Service or Stripe' })
        .optional(),
      apiVersion: z
        .string()
        .refine((v) => versionProblem(v) === undefined, {
          error(i) {
            return versionProblem(String(i.input)) ?? 'unknown API version'
          },
        })
        .optional(),
      serviceTime: z
        .union([
          z.number().min(0),
          z
            .object({ min: z.number().min(0), max: z.number().min(0) })
            .refine((r) => r.max >= r.min, { message: 'max must be >= min' }),
        ])
        .optional(),
      traceLimit: z.number().int().positive().optional(),
      resumableTrace: z.boolean().optional(),
    })
    .loose()
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/**
 * True when every option given is one of the plain ones with a value its schema plainly accepts, so
 * the usual `createSimulator({ seed })` builds no schema (and loads no zod) at a cold start. Any
 * other option or value goes through the schema, which accepts it or words the refusal.
 */
function plainlyValid(options: SimulatorOptions): boolean {
  return Object.entries(options).every(([key, value]) => {
    if (value === undefined) return true
    switch (key) {
      case 'seed':
        return typeof value === 'string' || finite(value)
      case 'start':
        return typeof value === 'string' || finite(value) || value instanceof Date
      case 'clock':
        return value === 'local' || value === 'global'
      case 'headerPrefix':
        return typeof value === 'string' && /^[A-Za-z][A-Za-z0-9]*$/.test(value)
      case 'apiVersion':
        return typeof value === 'string' && versionProblem(value) === undefined
      case 'serviceTime':
        return finite(value) && value >= 0
      case 'traceLimit':
        return Number.isInteger(value) && (value as number) > 0
      case 'resumableTrace':
        return typeof value === 'boolean'
      default:
        return false
    }
  })
}

/**
 * Creates a simulator. Every option has a default.
 *
 * @example
 * import { createSimulator } from 'service-sim'
 * const sim = createSimulator({ seed: 42 })
 * const res = await sim.fetch('https://api.service.test/v1/account', {
 *   headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` },
 * })
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  if (options.from !== undefined) {
    const snapshot = checkSnapshot(options.from)
    const extra = Object.keys(options).filter((k) => k !== 'from' && k !== 'clock')
    if (extra.length > 0) {
      throw new TypeError(
        `createSimulator: option(s) ${extra.map((k) => `'${k}'`).join(', ')} cannot be given with 'from': a snapshot carries its options`,
      )
    }
    return build(
      { ...fromPlain<SnapshotOptions>(snapshot.options), ...(options.clock ? { clock: options.clock } : {}) },
      {
        now: snapshot.now,
        rng: snapshot.rng,
        trace: snapshot.trace,
        state: snapshot.state,
        tasks: snapshot.tasks,
        receivers: undefined,
      },
    )
  }
  return build(options, undefined)
}

// The forks of a kept capture share its options object: their limits are resolved once for all
// (read only; a user's own options object is resolved per simulator, since it may change).
const forkLimits = new WeakMap<SimulatorOptions, LimitsConfig>()
function forkLimitsOf(options: SimulatorOptions): LimitsConfig {
  let limits = forkLimits.get(options)
  if (limits === undefined) {
    limits = resolveLimits(options.limits)
    forkLimits.set(options, limits)
  }
  return limits
}

function build(options: SimulatorOptions, from: Capture | undefined): Simulator {
  // A fork's options are its original's, validated when that one was built.
  if (from?.copied !== true) {
    if (!plainlyValid(options)) {
      optionsSchema ??= simulatorOptionsSchema()
      const parsed = optionsSchema.safeParse(options)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        throw new TypeError(`createSimulator: option '${issue?.path.join('.')}' ${issue?.message ?? 'is invalid'}`)
      }
    }
    validateLimits(options.limits)
  }
  const seed = options.seed ?? 0
  const clock = createClock(from === undefined ? options : { ...options, start: from.now })
  if (from !== undefined && clock.now !== from.now) clock.setSystemTime(from.now)
  const rng = createRng(seed)
  const scheduler = createScheduler(clock, {
    // A clock passed in may be shared with other simulations; one made here is this one's own.
    ownsClock: typeof options.clock !== 'object',
    onTaskFailed(label, error) {
      return trace.append('scheduler.task_failed', {
        label,
        message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      })
    },
  })
  const trace = createTrace({
    now() {
      return clock.now
    },
    ...(options.traceLimit ? { limit: options.traceLimit } : {}),
  })
  const kernel: Kernel = {
    clock,
    scheduler,
    rng,
    ids: createIds(rng.stream('ids')),
    trace,
    prefix: options.headerPrefix ?? 'Service',
    state: createStateRegistry(),
  }
  // A loaded simulator's trace is the saved one: the entry would be replaced before anyone reads it.
  if (from === undefined) trace.append('simulator.created', { seed: String(seed), start: clock.now, prefix: kernel.prefix })
  const timeline = createRequestTimeline()
  // The fault engine exists before the service: its hooks are the fault port the domain and the
  // HTTP layer are given (no registry); the one domain action it takes is bound here.
  let service: Service | undefined
  const faults = createFaults(
    {
      kernel,
      liveSessions(account) {
        return service?.sessions.live(account) ?? []
      },
      expireSession(id) {
        return service?.sessions.expire(id)
      },
    },
    options.faults ?? {},
    'createSimulator',
    from?.policy,
  )
  service = createService(kernel, timeline, {
    defaultVersion: options.apiVersion ?? DEFAULT_API_VERSION,
    limits: from?.copied === true ? forkLimitsOf(options) : resolveLimits(options.limits),
    requestHoldMs: typeof options.serviceTime === 'object' ? options.serviceTime.max : (options.serviceTime ?? 0),
    faults: faults.hooks,
    restoring: from !== undefined,
  })
  installFaults(service, faults)
  const latency = rng.stream('latency')
  const st = options.serviceTime
  const { fetch, exchangeIncoming } = createFetchHandler({
    service,
    routes,
    requestIds: createIds(rng.stream('request-ids')),
    dropAnswer: faults.hooks.dropAnswer,
    ...(st === undefined || st === 0
      ? {}
      : {
          serviceTime() {
            return typeof st === 'number' ? st : Math.round(latency.between(st.min, st.max))
          },
        }),
  })
  const receivers = createReceivers()
  service.delivery.useTransport(createTransport(receivers))
  if (from !== undefined) {
    // Everything construction did (the platform account, the first trace entries, draws) is
    // replaced by the saved state; pending work last, once the records it names are loaded.
    rng.load(from.rng)
    traceInternals(trace).load(from.trace)
    if (from.copied === true) kernel.state.loadCopy(from.state)
    else kernel.state.load(from.state)
    scheduler.load(from.tasks)
    for (const [url, handler] of from.receivers ?? []) receivers.mount(url, handler)
  }
  let saved = captureOptions(options) as Readonly<Record<string, Plain>>
  let seedNow = String(seed)
  function continueWith(next: ContinueOptions): void {
    if (typeof next?.seed !== 'string' && !(typeof next?.seed === 'number' && Number.isFinite(next.seed)))
      throw new TypeError(`continueAs: 'seed' must be a finite number or a string, got ${String(next?.seed)}`)
    if (timeline.active.size > 0) throw new Error(`continueAs: ${timeline.active.size} request(s) in flight; continue at rest`)
    const input = next.faults ?? {}
    trace.append('simulator.continued', { seed: String(next.seed) })
    rng.reseed(next.seed)
    seedNow = String(next.seed)
    adoptFaults(service as Service, faults, input, 'continueAs')
    // The saved options with these two replaced, as `captureOptions` of the decoded ones would
    // give them (plain data encodes member by member), without decoding and encoding the rest.
    saved = { ...saved, seed: toPlain(next.seed, 'options.seed'), faults: toPlain(input, 'options.faults') }
  }
  // A simulator that is only forked from now on (`keepForForks`) makes its capture once: every
  // fork loads the same one (the parts copy what they change as they load it), while its state is
  // as it was when the capture was made (the trace's length, the time, the pending work and the
  // options tell; a request changes the trace). What changes without a trace entry is taken anew
  // per fork: the receivers mounted and the fault controller's part (a step, an injected fault).
  let kept:
    | {
        readonly capture: Capture
        readonly options: SimulatorOptions
        readonly saved: Readonly<Record<string, Plain>>
        readonly mark: string
      }
    | undefined
  let keeping = false
  function forkSource(): [SimulatorOptions, Capture] {
    if (!keeping) return [fromPlain<SnapshotOptions>(saved), capture(false)]
    const mark = `${trace.length}|${clock.now}|${scheduler.pending}`
    if (kept === undefined || kept.mark !== mark || kept.saved !== saved)
      kept = { capture: capture(false), options: fromPlain<SnapshotOptions>(saved), saved, mark }
    // The trace's loaded arrays become the fork's own: copied per fork (a few arrays).
    const state = { ...kept.capture.state, faults: kernel.state.copyOf('faults') }
    return [kept.options, { ...kept.capture, trace: traceInternals(trace).copy(), state, receivers: mounted() }]
  }
  function capture(json: boolean): Capture {
    if (timeline.active.size > 0) {
      throw new Error(
        `snapshot: ${timeline.active.size} request(s) in flight; take snapshots at rest (after the responses arrive and sim.settle())`,
      )
    }
    const tasks = scheduler.save()
    const t = traceInternals(trace)
    return {
      now: clock.now,
      rng: rng.save(),
      trace: json ? t.save() : t.copy(),
      state: json ? kernel.state.save() : kernel.state.copy(),
      copied: !json,
      ...(json ? {} : { policy: faults.policy }),
      tasks,
      receivers: json ? undefined : mounted(),
    }
  }
  function mounted(): NonNullable<Capture['receivers']> {
    return receivers.urls().map((url) => [url, receivers.get(url) as NonNullable<ReturnType<Receivers['get']>>])
  }
  const p = service.accounts.platform
  let admin: Simulator['admin'] | undefined
  let customer: Customer | undefined
  let interception: { started: Promise<Interception>; done: Interception | undefined } | undefined
  const simulator: Simulator = {
    fetch,
    clock,
    platform: { id: p.id, secretKey: p.keys.secret, publishableKey: p.keys.publishable, account: p },
    // Made on first use: many simulators (property runs, forks) never touch it.
    get admin() {
      if (admin !== undefined) return admin
      // The admin surface changes state without trace entries (delivery fault knobs, certificates,
      // held locks...), which a kept capture cannot see: a kept simulator touched through it goes
      // back to a capture per fork, for good (a caller may hold the admin object), and one whose
      // admin exists is never kept (see `keep`).
      keeping = false
      kept = undefined
      const base = createAdmin(service)
      const loadFixtures = (json: unknown, options?: FixtureOptions) =>
        runFixtures({ fetch, secretKey: p.keys.secret.test, prefix: kernel.prefix }, json, options)
      admin = Object.assign(base, {
        trigger: createCausingTrigger({
          generate: base.trigger,
          loadFixtures,
          completeCheckout(session, input) {
            return simulator.customer.completeCheckout(session, input)
          },
          events() {
            return service.events.all()
          },
          accountExists(id) {
            return service.accounts.get(id) !== undefined
          },
          settle() {
            return scheduler.settle()
          },
          traced(type) {
            return kernel.trace.append('admin.trigger', { type })
          },
        }),
        injectFault(fault: FaultInjection) {
          const refusal = faultTargetRefusal(fault.fault, fault.operation)
          if (refusal !== undefined) throw new TypeError(`admin.injectFault: option 'operation': ${refusal}`)
          faults.inject(fault)
        },
        loadFixtures,
      })
      return admin
    },
    get customer() {
      customer ??= createCustomer(service)
      return customer
    },
    receivers,
    trace,
    settle() {
      return scheduler.settle()
    },
    get seed() {
      return seedNow
    },
    service,
    faults,
    intercept(interceptOptions = {}) {
      if (interception) throw new Error('sim.intercept(): already intercepting; call sim.restore() first')
      const started = interceptHosts(fetch, { ...interceptOptions, prefix: kernel.prefix })
      const entry = { started, done: undefined as Interception | undefined }
      interception = entry
      started.then(
        (i) => {
          entry.done = i
        },
        () => {
          if (interception === entry) interception = undefined
        },
      )
      return started
    },
    snapshot() {
      const c = capture(true)
      return {
        format: SNAPSHOT_FORMAT,
        version: 3,
        options: saved,
        now: c.now,
        rng: c.rng,
        trace: c.trace as Snapshot['trace'],
        state: c.state,
        tasks: c.tasks,
        receivers: receivers.urls(),
      }
    },
    fork(next) {
      // A fork runs on a local clock of its own, at this one's time.
      const forked = build(...forkSource())
      if (next !== undefined) continueAs(forked, next)
      return forked
    },
    restore() {
      const current = interception
      interception = undefined
      if (current?.done) current.done.restore()
      // A restore that overtakes a pending intercept() still undoes it once it lands.
      else
        void current?.started.then(
          (i) => i.restore(),
          () => undefined,
        )
    },
  }
  // A property keyed by a symbol of this module, not three WeakMap entries per simulator: a fork
  // is made per property run, and every entry of a WeakMap is work for each garbage collection.
  ;(simulator as WithInternals)[INTERNALS] = {
    exchange: exchangeIncoming,
    continueWith,
    keep() {
      keeping = admin === undefined
    },
  }
  return simulator
}

/** What the package's own modules reach in a simulator beyond its public surface. */
interface Internals {
  readonly exchange: IncomingExchangeHandler
  continueWith(next: ContinueOptions): void
  keep(): void
}
const INTERNALS: unique symbol = Symbol('service-sim internals')
type WithInternals = Simulator & { [INTERNALS]?: Internals }

function internalsOf(sim: Simulator, caller: string): Internals {
  const internals = (sim as WithInternals | undefined)?.[INTERNALS]
  if (internals === undefined) throw new TypeError(`${caller}: not a simulator made by createSimulator`)
  return internals
}

/**
 * Declares a simulator that is only forked from now on (a prepared setup every property run forks):
 * its in-process capture is made once and loaded by every fork while its state stays as it was,
 * instead of being made again per fork. Changing it is still safe: a fork after a request, a
 * clock move or `continueAs` captures again, the receivers and the fault controller's part are
 * taken per fork, and reading `sim.admin` ends the keeping (a simulator whose admin was read
 * before is not kept). Internal to the package.
 *
 * @example
 * keepForForks(prepared)
 * const run = prepared.fork({ seed: 7 })
 */
export function keepForForks(sim: Simulator): void {
  internalsOf(sim, 'keepForForks').keep()
}

/**
 * Continues a simulator in place with another seed and fault policy: every random stream restarts
 * from `seed`, the policy of `faults` (resolved with the restarted `faults` stream) is in force,
 * and a snapshot records both. A run that prepares a simulator once and forks it per run
 * (`sim.fork(next)`) and a run that builds and prepares its own then continues it this way reach
 * the same state and the same trace hash. Taken at rest, like a snapshot.
 *
 * @example
 * const sim = createSimulator({ seed: 'setup' })
 * // ... setup requests ...
 * continueAs(sim, { seed: 42, faults: { preset: 'realistic' } })
 */
export function continueAs(sim: Simulator, next: ContinueOptions): void {
  internalsOf(sim, 'continueAs').continueWith(next)
}

/**
 * The exchange of a request its server has already read (URL, header reader, body text): how
 * `service-sim serve` and `replay --served` answer (from plain exchanges; the public surface stays
 * `fetch`). Internal to the package.
 *
 * @example
 * const { status } = await incomingExchangeOf(sim)({ method: 'GET', url, headers: lowercaseHeaderReader(req.headers), text: '' })
 */
export function incomingExchangeOf(sim: Simulator): IncomingExchangeHandler {
  return internalsOf(sim, 'incomingExchangeOf').exchange
}
