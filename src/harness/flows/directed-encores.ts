import type { FaultEntry } from '#faults/index.js'
import type { CoverageTarget } from './flow-graft.js'
import type { FlowProgram, FlowStep } from './flow-program.js'

const MINUTE = 60_000
const HOUR = 3_600_000

/** Where the app may stand next, in the only order a run can take it: redeployed, then mid-roll. */
const LATER_STANDINGS: Readonly<Record<string, readonly string[]>> = {
  none: ['redeployed', 'in_roll'],
  redeployed: ['in_roll'],
}

/**
 * A built program with its target's arrival made again once per later standing of the app: a
 * duplicate is the event resent once more, a replay the attacker's replay once more, after a
 * redeploy and then after a secret roll (its redeploy much later). A story's object keeps its state
 * meanwhile (minutes pass), so one run reaches the combination where the app stood as built and
 * the ones where it stands after; a run that reached only one made the campaign spend a run on each.
 * Other ways of arriving happen once per delivery and are left as built; so are programs of step
 * kinds the property does not draw.
 *
 * @example
 * withEncores(program, { type: 'invoice.paid', state: 'paid', fault: 'duplicate', deploy: 'none' }, () => true)
 * // program's steps, then redeploy, redeliver invoice.paid, roll_secret, redeliver invoice.paid
 */
export function withEncores(program: FlowProgram, target: CoverageTarget, drawn: (kind: string) => boolean): FlowProgram {
  const later = LATER_STANDINGS[target.deploy] ?? []
  if (later.length === 0 || (target.fault !== 'duplicate' && target.fault !== 'replayed')) return program
  if (!drawn('redeploy') || !drawn('roll_secret') || (target.fault === 'duplicate' && !drawn('redeliver'))) return program
  // First, time for what the program has sent to land (a replay goes out once its capture is minutes old).
  const steps: FlowStep[] = [...program.steps, { kind: 'advance', ms: 10 * MINUTE }]
  const faults: FaultEntry[] = [...program.faults]
  for (const standing of later) {
    steps.push(standing === 'redeployed' ? { kind: 'redeploy' } : { kind: 'roll_secret', redeployAfterMs: 20 * HOUR })
    if (target.fault === 'duplicate') steps.push({ kind: 'redeliver', aim: target.type })
    else {
      steps.push({ kind: 'advance', ms: MINUTE })
      faults.push({ step: steps.length, fault: 'replay_delivery', count: 1 })
    }
  }
  return { ...program, steps, faults }
}
