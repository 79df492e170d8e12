import type { Service } from '#domain/service.js'
import { createFaultController, type FaultController, type FaultTarget } from './fault-controller.js'
import { type FaultsInput, resolveFaultPolicy } from './fault-policy.js'

/**
 * Builds the fault engine of one simulation from the `faults` option, before the service exists:
 * its `hooks` are the fault port the composition root hands to the domain and the HTTP layer.
 * Throws a `TypeError` naming `caller` for an invalid policy.
 *
 * @example
 * const faults = createFaults({ kernel, expireSession: (id) => service.sessions.expire(id) }, { preset: 'realistic' })
 * const service = createService(kernel, timeline, { defaultVersion, faults: faults.hooks })
 * installFaults(service, faults)
 */
export function createFaults(target: FaultTarget, input: FaultsInput = {}, caller = 'createSimulator'): FaultController {
  const rng = target.kernel.rng.stream('faults')
  const policy = resolveFaultPolicy(input, rng, caller)
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
  const { policy } = controller
  service.gates.unshift(controller.gate)
  const configured = controller.configured()
  if (configured.length > 0) {
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
  return controller
}
