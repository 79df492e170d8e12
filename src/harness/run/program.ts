import type { FaultEntry } from '#faults/index.js'
import { refuseArgument } from '../refuse-argument.js'

/** How a forged delivery is made (none is genuine; each carries a new event id and a forged object). */
export const forgeries = [
  /** A new event id under the signature of other bytes (a captured genuine signature reused). */
  'new_id',
  /** A correctly signed body altered after signing (the amount and status changed). */
  'altered_body',
  /** Signed with a secret the endpoint never had. */
  'wrong_secret',
  /** Signed with a secret the endpoint no longer accepts (rolled out; a never-active one until a roll retires one). */
  'expired_secret',
  /** Signed with the right secret 10 minutes ago: outside the 5-minute tolerance. */
  'stale_timestamp',
  /** Signed with the secret of another endpoint of the same account. */
  'other_endpoint',
] as const

/** One kind of forged delivery. */
export type Forgery = (typeof forgeries)[number]

/**
 * One step of a workload. Steps are plain data, so fast-check shrinks them and a failing run can
 * be saved and replayed.
 *
 * - `report`: the reporter is asked to report `units` new usage units of `value` each. Without
 *   `customer` each unit has a customer of its own; with it every unit of the step belongs to
 *   customer `cus_c<customer>` (customers and values repeat, as in real traffic).
 * - `advance`: the virtual clock moves `ms` (every timer on the way fires).
 * - `emit`: payment intent number `object` moves to its next state and an event is emitted.
 * - `burst`: `events` state changes at once over `ceil(events / 3)` fresh payment intents (a long run, cheaply).
 * - `resend`: `afterMs` later (the clock moves), a manual resend (dashboard) of emitted event number
 *   `event` (modulo the events so far; 0 is the oldest): a redelivery hours or days after the event.
 * - `forge`: an attacker POSTs a forged delivery (`forgery`) to the receiver.
 * - `receiver`: the receiver goes down (transport failures) or comes back up.
 * - `roll_secret`: the destination's signing secret is rolled (the old one stays 24 hours), and the
 *   operator redeploys the receiver with the new secret in its environment (a restart).
 * - `restart`: the receiver is redeployed (a new instance from its factory; its memory is lost,
 *   its durable store is not).
 *
 * @example
 * const step: Step = { kind: 'report', units: 3, value: 2 }
 */
export type Step =
  | { readonly kind: 'report'; readonly units: number; readonly value: number; readonly customer?: number }
  | { readonly kind: 'advance'; readonly ms: number }
  | { readonly kind: 'emit'; readonly object: number }
  | { readonly kind: 'burst'; readonly events: number }
  | { readonly kind: 'resend'; readonly event: number; readonly afterMs: number }
  | { readonly kind: 'forge'; readonly forgery: Forgery }
  | { readonly kind: 'receiver'; readonly up: boolean }
  | { readonly kind: 'roll_secret' }
  | { readonly kind: 'restart' }

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
  refuseArgument('describeProgram', 'program', program, 'object')
  refuseArgument('describeProgram', "program's steps", program.steps, 'array')
  refuseArgument('describeProgram', "program's faults", program.faults, 'array')
  const lines = [`seed ${program.seed}`]
  program.steps.forEach((s, i) => {
    const faults = program.faults.filter((f) => f.step === i + 1).map((f) => f.fault + (f.reason ? `(${f.reason})` : ''))
    const { kind, ...rest } = s
    lines.push(`${i + 1}. ${kind} ${JSON.stringify(rest)}${faults.length ? `  <- ${faults.join(', ')}` : ''}`)
  })
  return lines.join('\n')
}

/**
 * The label of a step in timelines and reports (the scenario-file vocabulary).
 *
 * @example
 * stepLabel({ kind: 'report', units: 2, value: 1 }) // 'client report_usage units=2 value=1'
 */
export function stepLabel(step: Step): string {
  switch (step.kind) {
    case 'report':
      return `client report_usage units=${step.units} value=${step.value}${step.customer === undefined ? '' : ` customer=${step.customer}`}`
    case 'advance':
      return `advance ${step.ms}ms`
    case 'emit':
      return `client emit_event object=${step.object}`
    case 'burst':
      return `client emit_burst events=${step.events}`
    case 'resend':
      return `client resend_event event=${step.event} after=${step.afterMs}ms`
    case 'forge':
      return `client forge_delivery forgery=${step.forgery}`
    case 'receiver':
      return `receiver subject ${step.up ? 'up' : 'down'}`
    case 'roll_secret':
      return 'client roll_secret'
    case 'restart':
      return 'client restart_client'
  }
}
