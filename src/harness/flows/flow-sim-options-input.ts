import { harnessOwnedSimOptions } from '../run/simulator-choice.js'
import { HarnessInputError, shownValue } from '../validate-input.js'

/**
 * Refuses `simOptions` a flow check would not run as written: not an object, an option the harness
 * sets itself (each run's `seed` comes from its program, `faults` go beside `simOptions`), or a
 * clock other than `'global'` (the runs' clock is otherwise the simulator's own). Other options are
 * `createSimulator`'s to check.
 *
 * @example
 * refuseBadFlowSimOptions('checkDunning', { clock: 'global' }) // fine
 * refuseBadFlowSimOptions('checkDunning', { seed: 3 }) // throws: each run's seed comes from its program
 */
export function refuseBadFlowSimOptions(api: string, simOptions: unknown): void {
  if (simOptions === undefined) return
  if (typeof simOptions !== 'object' || simOptions === null || Array.isArray(simOptions))
    throw new HarnessInputError(
      `${api}: option 'simOptions' must be an object of createSimulator options, got ${shownValue(simOptions)}`,
    )
  for (const [key, value] of Object.entries(simOptions)) {
    if (key === 'clock') {
      if (value !== undefined && value !== 'global')
        throw new HarnessInputError(
          `${api}: option 'simOptions.clock' may only be 'global' in a flow check (each run installs the simulator's clock as the global one), got ${shownValue(value)}`,
        )
    } else if (Object.hasOwn(harnessOwnedSimOptions, key))
      throw new HarnessInputError(`${api}: option 'simOptions.${key}' is set by the harness: ${harnessOwnedSimOptions[key]}`)
  }
}
