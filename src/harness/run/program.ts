import type { FaultEntry } from '#faults/faults-schema.js'

/**
 * One step of a workload. Steps are plain data, so fast-check shrinks them and a failing run can
 * be saved and replayed.
 *
 * - `report`: the reporter is asked to report `units` new usage units of `value` each.
 * - `advance`: the virtual clock moves `ms` (every timer on the way fires).
 * - `emit`: payment intent number `object` moves to its next state and an event is emitted.
 * - `receiver`: the receiver goes down (transport failures) or comes back up.
 * - `roll_secret`: the destination's signing secret is rolled (the old one stays 24 hours).
 *
 * @example
 * const step: Step = { kind: 'report', units: 3, value: 2 }
 */
export type Step =
  | { readonly kind: 'report'; readonly units: number; readonly value: number }
  | { readonly kind: 'advance'; readonly ms: number }
  | { readonly kind: 'emit'; readonly object: number }
  | { readonly kind: 'receiver'; readonly up: boolean }
  | { readonly kind: 'roll_secret' }

/**
 * A run as data: the seed, the steps and the fault schedule (which fault before which step).
 *
 * @example
 * const program: Program = { seed: 7, steps: [{ kind: 'report', units: 1, value: 1 }], faults: [{ step: 1, fault: 'indeterminate' }] }
 */
export interface Program {
  readonly seed: number
  readonly steps: readonly Step[]
  readonly faults: readonly FaultEntry[]
}

/** Prints a program as one line per step, with the faults due before each. */
export function describeProgram(program: Program): string {
  const lines = [`seed ${program.seed}`]
  program.steps.forEach((s, i) => {
    const faults = program.faults.filter((f) => f.step === i + 1).map((f) => f.fault + (f.reason ? `(${f.reason})` : ''))
    const { kind, ...rest } = s
    lines.push(`${i + 1}. ${kind} ${JSON.stringify(rest)}${faults.length ? `  <- ${faults.join(', ')}` : ''}`)
  })
  return lines.join('\n')
}
