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

/** The steps (and their faults) that make the target's arrival once more, as its way of arriving says. */
function encore(target: CoverageTarget, at: number, forge: FlowStep | undefined): { steps: FlowStep[]; faults: FaultEntry[] } {
  const again: FlowStep = { kind: 'redeliver', aim: target.type }
  if (target.fault === 'duplicate') return { steps: [again], faults: [] }
  if (forge !== undefined) return { steps: [forge], faults: [] }
  // The attacker's replay of the run's first delivery (refused: an old signature), then for a retry
  // the provider's resend of it, its last delivery having failed.
  const replay: FaultEntry = { step: at + 1, fault: 'replay_delivery', count: 1 }
  const steps: FlowStep[] = [{ kind: 'advance', ms: MINUTE }, ...(target.fault === 'retry' ? [again] : [])]
  return { steps, faults: [replay] }
}

/** Whether the target's way of arriving can be made again in the program's run. */
function repeatable(program: FlowProgram, target: CoverageTarget, drawn: (kind: string) => boolean): boolean {
  if (!drawn('redeploy') || !drawn('roll_secret')) return false
  if (target.fault === 'replayed') return true
  if (target.fault === 'forged') return drawn('forge') && program.steps.some((s) => s.kind === 'forge')
  // A retry only where the program made it with the attacker's replay of the target's own delivery.
  const replays = program.faults.some((f) => f.fault === 'replay_delivery')
  return drawn('redeliver') && (target.fault === 'duplicate' || (target.fault === 'retry' && replays))
}

/**
 * A built program with its target's arrival made again once per later standing of the app: a
 * duplicate is the event resent once more, a replay the attacker's replay once more, a retry (made
 * with the attacker's refused replay of the event) the replay and the resend once more, after a
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
  // A forgery is made as it is sent, never before a redeploy: it is sent again inside a roll only.
  const forge = target.fault === 'forged' ? program.steps.findLast((s) => s.kind === 'forge') : undefined
  const later = (LATER_STANDINGS[target.deploy] ?? []).filter((d) => forge === undefined || d === 'in_roll')
  if (later.length === 0 || !repeatable(program, target, drawn)) return program
  // First, time for what the program has sent to land (a replay goes out once its capture is minutes
  // old); a forgery's object may not keep its state for minutes (a draft invoice's hour), and needs none.
  const steps: FlowStep[] = [...program.steps, ...(forge === undefined ? [{ kind: 'advance' as const, ms: 10 * MINUTE }] : [])]
  const faults: FaultEntry[] = [...program.faults]
  for (const standing of later) {
    steps.push(standing === 'redeployed' ? { kind: 'redeploy' } : { kind: 'roll_secret', redeployAfterMs: 20 * HOUR })
    const more = encore(target, steps.length, forge)
    steps.push(...more.steps)
    faults.push(...more.faults)
  }
  return { ...program, steps, faults }
}
