import type { InFlightRequest } from '#kernel/request-timeline.js'
import type { Kernel } from '../kernel.js'

/**
 * The points where injected faults reach the service. The domain and the HTTP layer read them; the
 * harness fills them (see `src/harness/faults`), so the domain never imports the harness. Refusals
 * (forced 429s, lock timeouts, 409s, 5xx) need no hook: they are an admission gate in
 * `service.gates`.
 *
 * @example
 * useFaultHooks(kernel, { dropAnswer: () => false, processingDelay: () => 60_000 })
 * faultHooks(kernel).processingDelay() // 60000: meter events wait a minute longer
 */
export interface FaultHooks {
  /**
   * Called once a request has been answered (and committed). True: the client gets a network error
   * instead of the answer (an indeterminate outcome).
   */
  dropAnswer(flight: InFlightRequest, status: number): boolean
  /** Extra virtual milliseconds before one accepted meter event (or batch) is processed. */
  processingDelay(): number
}

/** The hooks of a simulation without faults: nothing happens. */
export const noFaultHooks: FaultHooks = { dropAnswer: () => false, processingDelay: () => 0 }

const registry = new WeakMap<Kernel, FaultHooks>()

/**
 * The fault hooks installed on a kernel (no-ops when none were).
 *
 * @example
 * if (faultHooks(kernel).dropAnswer(flight, 200)) throw new TypeError('fetch failed')
 */
export function faultHooks(kernel: Kernel): FaultHooks {
  return registry.get(kernel) ?? noFaultHooks
}

/**
 * Installs the fault hooks of one simulation.
 *
 * @example
 * useFaultHooks(sim.service.kernel, controller.hooks)
 */
export function useFaultHooks(kernel: Kernel, hooks: FaultHooks): void {
  registry.set(kernel, hooks)
}
