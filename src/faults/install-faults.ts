import type { Service } from '#domain/service.js'
import { createFaultController, type FaultController, type FaultTarget } from './fault-controller.js'
import { type FaultsInput, type ResolvedFaultPolicy, resolveFaultPolicy } from './fault-policy.js'

/**
 * Builds the fault engine of one simulation from the `faults` option, before the service exists:
 * its `hooks` are the fault port the composition root hands to the domain and the HTTP layer.
 * Throws a `TypeError` naming `caller` for an invalid policy.
 *
 * @example
 * const faults = createFaults(
 *   { kernel, liveSessions: (a) => service.sessions.live(a), expireSession: (id) => service.sessions.expire(id) },
 *   { preset: 'realistic' },
 * )
 * const service = createService(kernel, timeline, { defaultVersion, faults: faults.hooks })
 * installFaults(service, faults)
 */
export function createFaults(
  target: FaultTarget,
  input: FaultsInput = {},
  caller = 'createSimulator',
  resolved?: ResolvedFaultPolicy,
): FaultController {
  const rng = target.kernel.rng.stream('faults')
  // A fork runs on its original's resolved policy (the same data; a swarm's draws are not redone).
  const policy = resolved ?? resolveFaultPolicy(input, rng, caller)
  return createFaultController(target, policy, rng)
}

/**
 * Installs a fault engine in a service: its gate runs first among the admission gates, and the
 * rates of duplicate and reordered deliveries also drive the delivery area's own knobs when that
 * area exists. (Its hooks were given to the service at construction.)
 *
 * @example
 * installFaults(service, faults)
 */
export function installFaults(service: Service, controller: FaultController): FaultController {
  service.gates.unshift(controller.gate)
  announce(service, controller)
  return controller
}

/**
 * Puts the policy of another `faults` option in force in a running simulation (resolved with the
 * `faults` stream as it stands, like at construction): what a prepared simulation does at the
 * start of each run, so a run's faults do not depend on whether its simulator was forked.
 *
 * @example
 * adoptFaults(service, faults, { preset: 'realistic', schedule: [{ step: 2, fault: 'rate_limit' }] })
 */
export function adoptFaults(service: Service, controller: FaultController, input: FaultsInput, caller = 'createSimulator'): void {
  controller.adopt(resolveFaultPolicy(input, service.kernel.rng.stream('faults'), caller))
  announce(service, controller)
}

/** Traces a configured policy and hands its delivery rates to the delivery area's own knobs. */
function announce(service: Service, controller: FaultController): void {
  const { policy } = controller
  // What `controller.configured()` would list is not needed, only whether it lists anything: the
  // rates in force are the policy's own here (it was just put in force).
  if (policy.schedule.length > 0 || Object.values(policy.rates).some((r) => (r ?? 0) > 0)) {
    service.kernel.trace.append('faults.policy', {
      origin: policy.origin,
      rates: { ...policy.rates },
      schedule: policy.schedule.length,
    })
  }
  const delivery = (service as unknown as { delivery?: { faults?: { duplicateRate: number; reorderWindowMs: number } } }).delivery
  if (delivery?.faults) {
    delivery.faults.duplicateRate = policy.rates.duplicate_delivery ?? 0
    delivery.faults.reorderWindowMs =
      (policy.rates.reorder_delivery ?? 0) > 0 ? (policy.params.reorder_delivery?.delay ?? 5_000) : 0
  }
}
