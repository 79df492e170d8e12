import type { Kernel } from '#domain/kernel-parts.js'
import { type LimitsConfig, resolveLimits } from '#domain/limits/limits-option.js'
import { createService, type Service } from '#domain/service.js'
import type { FaultController, FaultTarget } from '#faults/fault-controller.js'
import { createFaults, installFaults } from '#faults/install-faults.js'
import { createFetchHandler, type FetchHandler, type IncomingExchangeHandler } from '#http/handler.js'
import { createReceivers, type Receivers } from '#http/receivers.js'
import { routes } from '#http/routes/index.js'
import { createTransport } from '#http/transport.js'
import { type Clock, createClock } from '#kernel/clock.js'
import { createIds } from '#kernel/ids.js'
import { createRequestTimeline, type RequestTimeline } from '#kernel/request-timeline.js'
import { createRng, type Rng } from '#kernel/rng.js'
import { createScheduler, type Scheduler } from '#kernel/scheduler.js'
import { createStateRegistry } from '#kernel/state.js'
import { createTrace, type Trace, traceInternals } from '#kernel/trace.js'
import { DEFAULT_API_VERSION, type SimulatorOptions } from './simulator-options.js'
import type { Capture } from './snapshot.js'

/** Everything one simulation is made of, built in a fixed order by {@link buildSimulatorParts}. */
export interface SimulatorParts {
  readonly clock: Clock
  readonly rng: Rng
  readonly scheduler: Scheduler
  readonly trace: Trace
  readonly kernel: Kernel
  readonly timeline: RequestTimeline
  readonly faults: FaultController
  readonly service: Service
  readonly fetch: FetchHandler
  readonly exchangeIncoming: IncomingExchangeHandler
  readonly receivers: Receivers
}

/**
 * The fault engine's one domain action, over the service's meter event sessions: the engine
 * exists before the service (its hooks are the fault port the service is given), so the service
 * is bound once it is built.
 */
class SessionsTarget implements FaultTarget {
  readonly kernel: Kernel
  service: Service | undefined
  constructor(kernel: Kernel) {
    this.kernel = kernel
  }
  liveSessions(account?: string): readonly string[] {
    return this.service?.sessions.live(account) ?? []
  }
  expireSession(id: string): void {
    this.service?.sessions.expire(id)
  }
}

/** The clock, randomness, scheduler, trace and state registry: the kernel every part runs on. */
function buildKernel(options: SimulatorOptions, from: Capture | undefined): Kernel {
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
  return kernel
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

/** The service over the kernel, given the fault port, with the fault gate installed. */
function buildService(
  kernel: Kernel,
  timeline: RequestTimeline,
  options: SimulatorOptions,
  from: Capture | undefined,
  faults: FaultController,
  target: SessionsTarget,
): Service {
  const service = createService(kernel, timeline, {
    defaultVersion: options.apiVersion ?? DEFAULT_API_VERSION,
    limits: from?.copied === true ? forkLimitsOf(options) : resolveLimits(options.limits),
    requestHoldMs: typeof options.serviceTime === 'object' ? options.serviceTime.max : (options.serviceTime ?? 0),
    faults: faults.hooks,
    restoring: from !== undefined,
  })
  target.service = service
  installFaults(service, faults)
  return service
}

/** The fetch handler in front of the service, with its service time drawn from `latency`. */
function buildHttp(service: Service, faults: FaultController, options: SimulatorOptions) {
  const { rng } = service.kernel
  const latency = rng.stream('latency')
  const st = options.serviceTime
  return createFetchHandler({
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
}

/** The in-process receivers, the transport of the service's deliveries. */
function buildReceivers(service: Service): Receivers {
  const receivers = createReceivers()
  service.delivery.useTransport(createTransport(receivers))
  return receivers
}

/**
 * Replaces everything construction did (the platform account, the first trace entries, draws) by
 * the saved state; pending work last, once the records it names are loaded.
 */
function loadCapture(parts: SimulatorParts, from: Capture): void {
  parts.rng.load(from.rng)
  traceInternals(parts.trace).load(from.trace)
  if (from.copied === true) parts.kernel.state.loadCopy(from.state)
  else parts.kernel.state.load(from.state)
  parts.scheduler.load(from.tasks)
  for (const [url, handler] of from.receivers ?? []) parts.receivers.mount(url, handler)
}

/**
 * Builds the parts of one simulation in the order its trace and random streams depend on: the
 * kernel, the request timeline, the fault engine, the service, the HTTP handler, the receivers;
 * then loads `from` (a snapshot's content or a fork's copy) over them.
 *
 * @example
 * const parts = buildSimulatorParts({ seed: 42 }, undefined)
 * parts.trace.length // 1 (simulator.created)
 */
export function buildSimulatorParts(options: SimulatorOptions, from: Capture | undefined): SimulatorParts {
  const kernel = buildKernel(options, from)
  const timeline = createRequestTimeline()
  const target = new SessionsTarget(kernel)
  const faults = createFaults(target, options.faults ?? {}, 'createSimulator', from?.policy)
  const service = buildService(kernel, timeline, options, from, faults, target)
  const { fetch, exchangeIncoming } = buildHttp(service, faults, options)
  const receivers = buildReceivers(service)
  const { clock, rng, scheduler, trace } = kernel
  const parts = { clock, rng, scheduler, trace, kernel, timeline, faults, service, fetch, exchangeIncoming, receivers }
  if (from !== undefined) loadCapture(parts, from)
  return parts
}
