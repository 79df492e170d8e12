import type { StepSpec } from '../scenario/schema.js'

/**
 * The one step vocabulary of the harness, for scenario files and generated programs alike: send a
 * request (or several at one instant), move the clock, settle, run a client action, switch a
 * receiver, call `sim.admin`, or repeat steps. A generated program's steps (`Step`) are written in
 * it (`toStepSpec`): `advance`, `receiver`, and the client actions of the property harness.
 *
 * @example
 * stepKinds.includes('client') // true
 */
export const stepKinds = ['request', 'parallel', 'advance', 'settle', 'client', 'receiver', 'admin', 'repeat'] as const

/**
 * One kind of step.
 *
 * @example
 * const kind: StepKind = 'advance'
 */
export type StepKind = (typeof stepKinds)[number]

/**
 * The kind of a step (the one action it has; `settle` for none, as the schema refuses that).
 *
 * @example
 * stepKindOf({ advance: 60_000 }) // 'advance'
 */
export function stepKindOf(step: StepSpec): StepKind {
  return stepKinds.find((k) => step[k] !== undefined) ?? 'settle'
}
