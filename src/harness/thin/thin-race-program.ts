import fc from 'fast-check'
import type { FaultEntry } from '#faults/index.js'
import { refuseArgument } from '../refuse-argument.js'

/**
 * One step of a thin-event race program: the meter has an error report (a thin
 * `v1.billing.meter.error_report_triggered` naming it as its related object, emitted only while it
 * is active), is deactivated or reactivated, an off-session payment is made or cancelled, or the
 * clock moves. Delivery faults (delay, reorder,
 * duplicate) let the meter change again before the receiver fetches it.
 *
 * @example
 * const step: ThinRaceStep = { kind: 'deactivate' }
 */
export type ThinRaceStep =
  | { readonly kind: 'error_report' }
  | { readonly kind: 'deactivate' }
  | { readonly kind: 'reactivate' }
  | { readonly kind: 'advance'; readonly ms: number }
  /**
   * An off-session payment on the customer's saved card (`card` 0: it pays; 1: insufficient funds,
   * retried by smart retries), whose thin `v2.payments.off_session_payment.*` events (created,
   * attempt started and failed, succeeded, canceled) follow one another within moments.
   */
  | { readonly kind: 'pay'; readonly card: number }
  /** Cancels the latest off-session payment (refused once it has succeeded). */
  | { readonly kind: 'cancel_payment' }

/**
 * A thin-event race program: its seed, steps and delivery fault schedule (which fault before which
 * 1-based step).
 *
 * @example
 * const p: ThinRaceProgram = { seed: 1, steps: [{ kind: 'error_report' }, { kind: 'deactivate' }], faults: [{ step: 1, fault: 'delay_delivery' }] }
 */
export interface ThinRaceProgram {
  readonly seed: number
  readonly steps: readonly ThinRaceStep[]
  readonly faults: readonly FaultEntry[]
}

const thinFaults = ['delay_delivery', 'reorder_delivery', 'duplicate_delivery'] as const

/**
 * Programs of thin-event races: error reports, meter changes, off-session payments and their
 * cancellations, and clock moves, each step with the
 * delivery faults due before it (shrinking drops a step with its faults).
 *
 * @example
 * fc.sample(thinRaceProgram(), 1)
 */
export function thinRaceProgram(maxSteps = 8): fc.Arbitrary<ThinRaceProgram> {
  refuseArgument('thinRaceProgram', 'maxSteps', maxSteps, 'count')
  const step: fc.Arbitrary<ThinRaceStep> = fc.oneof(
    { weight: 3, arbitrary: fc.constant({ kind: 'error_report' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'deactivate' as const }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'reactivate' as const }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1_000, 5_000, 60_000, 86_400_000) }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('pay' as const), card: fc.nat({ max: 1 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'cancel_payment' as const }) },
  )
  const faults = fc.oneof(
    { weight: 2, arbitrary: fc.constant([] as (typeof thinFaults)[number][]) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...thinFaults), { minLength: 1, maxLength: 2 }) },
  )
  return fc
    .record({
      seed: fc.integer({ min: 0, max: 1_000_000 }),
      slots: fc.array(fc.record({ step, faults }), { minLength: 1, maxLength: maxSteps }),
    })
    .map(({ seed, slots }) => ({
      seed,
      steps: slots.map((s) => s.step),
      faults: slots.flatMap((s, i) => s.faults.map((fault) => ({ step: i + 1, fault }) as FaultEntry)),
    }))
}
