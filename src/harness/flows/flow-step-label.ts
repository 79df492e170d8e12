import { refuseArgument } from '../refuse-argument.js'
import { FLOW_PLANS, type FlowProgram, type FlowStep } from './flow-program.js'
import { refuseBadFlowProgram } from './flow-program-input.js'

const DAY = 86_400_000
const SECOND = 1000

/**
 * A one-line label of a step, as the step records and a counterexample show it.
 *
 * @example
 * flowStepLabel({ kind: 'cancel', sub: 0, atPeriodEnd: true }) // 'cancel sub#0 at period end'
 */
export function flowStepLabel(step: FlowStep): string {
  refuseArgument('flowStepLabel', 'step', step, 'object')
  const label = kindLabel(step)
  return step.settleMs === undefined || step.kind === 'advance' ? label : `${label}, the next step ${step.settleMs}ms later`
}

function kindLabel(step: FlowStep): string {
  switch (step.kind) {
    case 'subscribe':
      return `subscribe c${step.customer} to ${FLOW_PLANS[step.plan] ?? step.plan} x${step.quantity}${step.trialDays > 0 ? ` trial ${step.trialDays}d` : ''}`
    case 'change_plan':
      return `change sub#${step.sub} to ${FLOW_PLANS[step.plan] ?? step.plan}`
    case 'change_quantity':
      return `quantity of sub#${step.sub} to ${step.quantity}`
    case 'end_trial':
      return `end trial of sub#${step.sub}`
    case 'fail_card':
      return `c${step.customer}'s card starts failing`
    case 'recover':
      return `c${step.customer} updates the card and pays`
    case 'cancel':
      return `cancel sub#${step.sub}${step.atPeriodEnd ? ' at period end' : ' now'}`
    case 'resume':
      return `undo the cancellation of sub#${step.sub}`
    case 'advance':
      return `advance ${step.ms >= DAY ? `${step.ms / DAY}d` : `${step.ms / 60_000}m`}`
    case 'redeploy':
      return 'redeploy the app'
    case 'roll_secret':
      return `roll the signing secret, redeploy ${step.redeployAfterMs / SECOND}s later`
    case 'forge':
      return `forged delivery (${step.forgery}) about ${step.aim || 'any'} event`
    case 'redeliver':
      return `redeliver the latest ${step.aim || 'any'} event`
    default: {
      // Another property's step: its kind and fields, as data.
      const fields = Object.entries(step)
        .filter(([k]) => k !== 'kind' && k !== 'settleMs')
        .map(([k, v]) => `${k}=${String(v)}`)
      return fields.length === 0 ? step.kind : `${step.kind} ${fields.join(' ')}`
    }
  }
}

/**
 * The program as lines: steps with their faults, for a failure message.
 *
 * @example
 * describeFlowProgram(program) // '1. subscribe c0 to pro x1\n2. advance 32d  [duplicate_delivery x1]'
 */
export function describeFlowProgram(program: FlowProgram): string {
  refuseBadFlowProgram('describeFlowProgram', program)
  return program.steps
    .map((s, i) => {
      const faults = program.faults
        .filter((f) => f.step === i + 1)
        .map((f) => `${f.fault} x${f.count ?? 1}${(f.after ?? 0) > 0 ? ` after ${f.after}` : ''}`)
      return `${i + 1}. ${flowStepLabel(s)}${faults.length > 0 ? `  [${faults.join(', ')}]` : ''}`
    })
    .join('\n')
}
