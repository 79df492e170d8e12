import { type Checker, guardedChecker } from './checker.js'
import { recordViolation } from './violation.js'

/**
 * `deterministic`: the same scenario and seed, run again, gives the same trace hash.
 *
 * @example
 * expectations: { checkers: ['deterministic'] }
 */
export const deterministicChecker: Checker = guardedChecker({
  name: 'deterministic',
  check: async ({ sim, rerun }) => {
    if (sim === undefined || rerun === undefined)
      return [recordViolation('deterministic', 'this run cannot be run again (not a scenario)', [])]
    const first = sim.trace.hash()
    const second = await rerun()
    return first === second
      ? []
      : [recordViolation('deterministic', 'a second run with the same seed produced a different trace', [{ first, second }])]
  },
  holds: ({ sim }) => `trace hash ${sim?.trace.hash().slice(0, 16) ?? ''}... reproduced`,
})
