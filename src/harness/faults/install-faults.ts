import { useFaultHooks } from '#domain/faults/fault-hooks.js'
import type { Service } from '#domain/service.js'
import { createFaultController, type FaultController } from './fault-controller.js'
import { type FaultsInput, resolveFaultPolicy } from './fault-policy.js'

/**
 * Installs a fault policy in a service: its gate runs first among the admission gates, its hooks
 * answer the domain's fault questions, and the rates of duplicate and reordered deliveries also
 * drive the delivery area's own knobs when that area exists. Throws a `TypeError` naming `caller`
 * for an invalid policy.
 *
 * @example
 * const faults = installFaults(service, { preset: 'realistic' })
 */
export function installFaults(service: Service, input: FaultsInput = {}, caller = 'createSimulator'): FaultController {
  const rng = service.kernel.rng.stream('faults')
  const policy = resolveFaultPolicy(input, rng, caller)
  const controller = createFaultController(service, policy, rng)
  service.gates.unshift(controller.gate)
  useFaultHooks(service.kernel, controller.hooks)
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
