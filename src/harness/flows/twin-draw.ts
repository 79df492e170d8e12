import fc from 'fast-check'
import type { FaultEntry } from '#faults/index.js'

/**
 * A program's redundant event, drawn apart from the other faults and after everything else (so
 * programs that draw none are the programs drawn before the kind existed): in two programs out of
 * five, a second event for the same change, aimed at an event type as often as not, at the first
 * step (where the subscription or the session is made) half the time. `slot` is a 0-based step.
 *
 * @example
 * fc.sample(twinDraw(['customer.subscription.'], 12), 1)[0] // undefined, or { slot: 0, step: 1, fault: 'redundant_event', count: 1, ... }
 */
export function twinDraw(aims: readonly string[], maxSteps: number): fc.Arbitrary<(FaultEntry & { slot: number }) | undefined> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc
        .record({
          slot: fc.oneof(fc.constant(0), fc.nat({ max: Math.max(0, maxSteps - 1) })),
          aim: fc.constantFrom<string | undefined>(undefined, ...aims),
          count: fc.integer({ min: 1, max: 2 }),
        })
        .map(({ slot, aim, count }) => ({
          slot,
          step: 1,
          fault: 'redundant_event' as const,
          count,
          ...(aim === undefined ? {} : { operation: aim }),
        })),
    },
  )
}

/**
 * The schedule with the drawn twin on its step (within `max` faults), after that step's other faults.
 *
 * @example
 * withTwin([{ step: 2, fault: 'delay_delivery' }], { slot: 0, step: 1, fault: 'redundant_event' }, 5, 4)
 * // [{ step: 1, fault: 'redundant_event' }, { step: 2, fault: 'delay_delivery' }]
 */
export function withTwin(
  faults: FaultEntry[],
  twin: (FaultEntry & { slot: number }) | undefined,
  steps: number,
  max: number,
): FaultEntry[] {
  if (twin === undefined || faults.length >= max) return faults
  const { slot, ...entry } = twin
  const step = Math.min(slot, steps - 1) + 1
  const at = faults.findIndex((f) => f.step > step)
  const placed = { ...entry, step }
  return at < 0 ? [...faults, placed] : [...faults.slice(0, at), placed, ...faults.slice(at)]
}
