import { faultAfterRefusal } from '#faults/fault-after.js'
import { faultTargetRefusal } from '#faults/faults-schema.js'
import { createAdmin } from './admin.js'
import { createCausingTrigger } from './caused-trigger.js'
import { type FixtureOptions, runFixtures } from './fixtures.js'
import type { FaultInjection, Simulator } from './simulator.js'
import type { SimulatorParts } from './simulator-parts.js'

/**
 * Builds `sim.admin`: the service's admin surface, with the trigger that causes events by the API
 * calls that make them, fault injection and fixture files. Made on first use: many simulators
 * (property runs, forks) never touch it.
 *
 * @example
 * const admin = createSimulatorAdmin(sim, parts)
 * admin.injectFault({ fault: 'lock_timeout' })
 */
export function createSimulatorAdmin(sim: Simulator, parts: SimulatorParts): Simulator['admin'] {
  const { service, fetch, kernel, scheduler, faults } = parts
  const p = service.accounts.platform
  const base = createAdmin(service)
  const loadFixtures = (json: unknown, options?: FixtureOptions) =>
    runFixtures({ fetch, secretKey: p.keys.secret.test, prefix: kernel.prefix }, json, options)
  return Object.assign(base, {
    trigger: createCausingTrigger({
      generate: base.trigger,
      loadFixtures,
      completeCheckout(session, input) {
        return sim.customer.completeCheckout(session, input)
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
      if (typeof fault !== 'object' || fault === null || typeof fault.fault !== 'string')
        throw new TypeError("admin.injectFault: expected a fault { fault: '<kind>', ... }")
      const refusal = faultTargetRefusal(fault.fault, fault.operation)
      if (refusal !== undefined) throw new TypeError(`admin.injectFault: option 'operation': ${refusal}`)
      const after = faultAfterRefusal(fault.fault, fault.after)
      if (after !== undefined) throw new TypeError(`admin.injectFault: option 'after': ${after}`)
      faults.inject(fault)
    },
    loadFixtures,
  })
}
