import { refuseArgument } from '../refuse-argument.js'
import type { Forgery, Step } from '../run/program.js'
import type { StepSpec } from '../scenario/schema.js'
import { HarnessInputError } from '../validate-input.js'

/**
 * The receiver the property harness mounts for the webhook subject.
 *
 * @example
 * run.execSpec({ receiver: { name: SUBJECT_RECEIVER, state: 'down' } })
 */
export const SUBJECT_RECEIVER = 'subject'

/**
 * The client actions of the property harness (what a generated program's steps become), by the
 * `Step` kind they write.
 *
 * @example
 * HARNESS_ACTIONS.report // 'report_usage'
 */
export const HARNESS_ACTIONS = {
  report: 'report_usage',
  emit: 'emit_event',
  burst: 'emit_burst',
  resend: 'resend_event',
  forge: 'forge_delivery',
  roll_secret: 'roll_secret',
  restart: 'restart_client',
} as const

/**
 * Every client action of the property harness.
 *
 * @example
 * harnessActionNames.has('emit_event') // true
 */
export const harnessActionNames: ReadonlySet<string> = new Set(Object.values(HARNESS_ACTIONS))

/**
 * A generated program's step in the one step vocabulary: `advance`, `receiver` (the subject's),
 * or a client action of the property harness.
 *
 * @example
 * toStepSpec({ kind: 'report', units: 2, value: 1 }) // { client: { action: 'report_usage', args: { units: 2, value: 1 } } }
 */
export function toStepSpec(step: Step): StepSpec {
  refuseArgument('toStepSpec', 'step', step, 'object')
  switch (step.kind) {
    case 'report': {
      const customer = step.customer === undefined ? {} : { customer: step.customer }
      return { client: { action: HARNESS_ACTIONS.report, args: { units: step.units, value: step.value, ...customer } } }
    }
    case 'burst':
      return { client: { action: HARNESS_ACTIONS.burst, args: { events: step.events } } }
    case 'resend':
      return { client: { action: HARNESS_ACTIONS.resend, args: { event: step.event, after_ms: step.afterMs } } }
    case 'forge':
      return { client: { action: HARNESS_ACTIONS.forge, args: { forgery: step.forgery } } }
    case 'advance':
      return { advance: step.ms }
    case 'emit':
      return { client: { action: HARNESS_ACTIONS.emit, args: { object: step.object } } }
    case 'receiver':
      return { receiver: { name: SUBJECT_RECEIVER, state: step.up ? 'up' : 'down' } }
    case 'roll_secret':
      return { client: { action: HARNESS_ACTIONS.roll_secret } }
    case 'restart':
      return { client: { action: HARNESS_ACTIONS.restart } }
  }
}

/**
 * A client action of the property harness read back as a program's step (the reverse of
 * `toStepSpec`).
 *
 * @example
 * actionStep('emit_event', { object: 2 }) // { kind: 'emit', object: 2 }
 */
export function actionStep(action: string, args: Readonly<Record<string, unknown>>): Step | undefined {
  switch (action) {
    case HARNESS_ACTIONS.report:
      return {
        kind: 'report',
        units: Number(args.units),
        value: Number(args.value),
        ...(args.customer === undefined ? {} : { customer: Number(args.customer) }),
      }
    case HARNESS_ACTIONS.burst:
      return { kind: 'burst', events: Number(args.events) }
    case HARNESS_ACTIONS.resend:
      return { kind: 'resend', event: Number(args.event), afterMs: Number(args.after_ms ?? 0) }
    case HARNESS_ACTIONS.forge:
      return { kind: 'forge', forgery: String(args.forgery) as Forgery }
    case HARNESS_ACTIONS.emit:
      return { kind: 'emit', object: Number(args.object) }
    case HARNESS_ACTIONS.roll_secret:
      return { kind: 'roll_secret' }
    case HARNESS_ACTIONS.restart:
      return { kind: 'restart' }
    default:
      return undefined
  }
}

/**
 * A step of the one vocabulary read back as a program's step, when it is one.
 *
 * @example
 * fromStepSpec({ advance: 60_000 }) // { kind: 'advance', ms: 60_000 }
 */
export function fromStepSpec(spec: StepSpec): Step {
  refuseArgument('fromStepSpec', 'spec', spec, 'object')
  if (spec.advance !== undefined) return { kind: 'advance', ms: spec.advance }
  if (spec.receiver !== undefined) return { kind: 'receiver', up: spec.receiver.state === 'up' }
  const step = spec.client === undefined ? undefined : actionStep(spec.client.action, spec.client.args ?? {})
  if (step === undefined) throw new HarnessInputError(`fromStepSpec: not a harness step: ${JSON.stringify(spec)}`)
  return step
}
