import fc from 'fast-check'
import { AFTER_KINDS, type FaultEntry } from '#faults/index.js'
import type { Slot } from './flow-episodes.js'

/** Most requests a drawn fault lets through: the step's own request, then the first calls of a handler or two. */
const MOST_AFTER = 3

/**
 * How many requests each drawn API fault of a program lets through before it fires, drawn apart
 * from the other faults and after everything else (so a program's steps, faults and twin are the
 * ones drawn before `after` existed): a fault that fires on the next request meets the step's own
 * request or a handler's first call, one that lets a few through meets a handler whose first call
 * succeeded and whose second fails. 0 (none) is what shrinking goes to.
 *
 * @example
 * fc.sample(afterDraw(4), 1)[0] // [0, 2, 1, 3]
 */
export function afterDraw(maxFaults: number): fc.Arbitrary<readonly number[]> {
  const n = Math.max(0, maxFaults)
  return fc.array(fc.integer({ min: 0, max: MOST_AFTER }), { minLength: n, maxLength: n })
}

/**
 * The slots with the drawn `after`s on their drawn API faults, in program order (an episode's aimed
 * faults keep theirs: they are aimed at the next requests on purpose); 0 leaves a fault as it was.
 *
 * @example
 * withAfters(slots, [2]) // the first drawn server_error of the program lets 2 requests through
 */
export function withAfters(slots: readonly Slot[], afters: readonly number[]): Slot[] {
  let next = 0
  return slots.map((slot) => {
    if (!slot.faults.some((f) => AFTER_KINDS.has(f.fault))) return slot
    const faults = slot.faults.map((f): FaultEntry => {
      if (!AFTER_KINDS.has(f.fault)) return f
      const after = afters[next++] ?? 0
      return after > 0 ? { ...f, after } : f
    })
    return { ...slot, faults }
  })
}
