import fc from 'fast-check'
import type { FaultEntry } from '#faults/index.js'
import { FLOW_FORGERIES, type FlowProgram, type FlowStep } from './flow-program.js'

/** A combination a campaign aims at, as its parts (`type|state|fault|deploy`). */
export interface CoverageTarget {
  readonly type: string
  readonly state: string
  readonly fault: string
  readonly deploy: string
}

/**
 * A program that produced a combination, and the step (1-based; steps + 1 for the final settle)
 * during which it did: the place a graft puts what the target adds.
 */
export interface CoverageDonor {
  readonly program: FlowProgram
  readonly step: number
}

const HOUR = 3_600_000

/** A step inserted before the donor's step `before` (0-based index into its steps). */
interface Insert {
  readonly before: number
  readonly step: FlowStep
}

interface Graft {
  readonly faults: readonly FaultEntry[]
  readonly inserts: readonly Insert[]
  /** Drop the donor's faults aimed at this type (what made its delivery arrive another way). */
  readonly strip?: string
}

const none: Graft = { faults: [], inserts: [] }
const add = (a: Graft, b: Graft): Graft => ({
  faults: [...a.faults, ...b.faults],
  inserts: [...a.inserts, ...b.inserts],
  ...(a.strip === undefined ? {} : { strip: a.strip }),
})

/**
 * What makes a delivery of `type` arrive the target's way, near step `k` (1-based, where the
 * donor met the type): a reorder or a delay aimed at it, a duplicate or a redelivery, a receiver
 * down or too slow for it (a retry), the attacker's replay, a forged delivery about its object.
 */
function arrival(type: string, fault: string, k: number, n: number): fc.Arbitrary<Graft> {
  const at = fc.constantFrom(k, k, Math.max(1, k - 1))
  switch (fault) {
    case 'out_of_order':
      return fc
        .record({
          at,
          fault: fc.constantFrom('reorder_delivery' as const, 'delay_delivery' as const),
          delay: fc.constantFrom(2 * HOUR, 30 * HOUR),
        })
        .map(({ at: step, fault: f, delay }) => ({ faults: [{ step, fault: f, operation: type, delay, count: 1 }], inserts: [] }))
    case 'duplicate':
      return fc.oneof(
        fc.record({ at, count: fc.integer({ min: 1, max: 2 }) }).map(({ at: step, count }) => ({
          faults: [{ step, fault: 'duplicate_delivery' as const, operation: type, count }],
          inserts: [],
        })),
        fc.constant({ faults: [], inserts: [{ before: k, step: { kind: 'redeliver' as const, aim: type } }] }),
      )
    case 'retry':
      // Again after the app refused it: its own API reads failing while it handles the type (a
      // receiver down or too slow never reaches the app, whose retry is then its first arrival).
      return fc
        .record({
          at,
          fault: fc.constantFrom('server_error' as const, 'concurrent_conflict' as const, 'lock_timeout' as const),
          count: fc.integer({ min: 2, max: 4 }),
        })
        .map(({ at: step, fault: f, count }) => ({ faults: [{ step, fault: f, count }], inserts: [] }))
    case 'replayed':
      // The attacker replays the run's first delivery: its state on arrival is the object's at the
      // drawn step, so any step may be the one.
      return fc
        .nat({ max: n - 1 })
        .map((step) => ({ faults: [{ step: step + 1, fault: 'replay_delivery' as const, count: 1 }], inserts: [] }))
    case 'forged':
      return fc
        .constantFrom(...FLOW_FORGERIES)
        .map((forgery) => ({ faults: [], inserts: [{ before: k, step: { kind: 'forge' as const, forgery, aim: type } }] }))
    default:
      // In order, in a state the object reaches while the delivery is on its way: the donor's own
      // faults on the type dropped, or the delivery held back a little (not past the time-out).
      return fc.oneof(
        fc.constant({ ...none, strip: type }),
        at.map((step) => ({
          faults: [{ step, fault: 'receiver_slow' as const, operation: type, delay: 2_000, count: 1 }],
          inserts: [],
        })),
      )
  }
}

/** Now and then one step more after the donor's: time passing, so the object moves on (a renewal, an expiry). */
function drift(k: number): fc.Arbitrary<Graft> {
  return fc
    .option(fc.constantFrom(HOUR, 86_400_000, 32 * 86_400_000), { freq: 2 })
    .map((ms) => (ms === null ? none : { faults: [], inserts: [{ before: k, step: { kind: 'advance' as const, ms } }] }))
}

/**
 * Where the target's app stands when the delivery comes: redeployed after the event was made (a
 * redeploy right after its step, the first delivery held back past it unless the way of arriving
 * already comes late), or holding the secrets from before a roll (a roll just before its step).
 */
function standing(type: string, target: CoverageTarget, k: number): fc.Arbitrary<Graft> {
  // A replay comes at the step its fault is on: the app redeployed or rolled some steps before.
  if (target.fault === 'replayed' && target.deploy !== 'none')
    return fc.nat({ max: k - 1 }).map((before) => ({
      faults: [],
      inserts: [
        {
          before,
          step:
            target.deploy === 'in_roll'
              ? { kind: 'roll_secret' as const, redeployAfterMs: 20 * HOUR }
              : { kind: 'redeploy' as const },
        },
      ],
    }))
  if (target.deploy === 'in_roll')
    return fc.constantFrom(HOUR, 20 * HOUR).map((redeployAfterMs) => ({
      faults: [],
      inserts: [{ before: k - 1, step: { kind: 'roll_secret' as const, redeployAfterMs } }],
    }))
  if (target.deploy !== 'redeployed') return fc.constant(none)
  const redeploy: Insert = { before: k, step: { kind: 'redeploy' } }
  const late = target.fault === 'in_order' || target.fault === 'out_of_order'
  return fc.constantFrom(2 * HOUR, 30 * HOUR).map((delay) => ({
    faults: late ? [{ step: k, fault: 'delay_delivery' as const, operation: type, delay, count: 1 }] : [],
    inserts:
      target.fault === 'duplicate' ? [redeploy, { before: k, step: { kind: 'redeliver' as const, aim: type } }] : [redeploy],
  }))
}

/** The donor with the graft's steps inserted and every fault's step moved with the steps it rode on. */
function applied(donor: FlowProgram, graft: Graft): FlowProgram {
  const steps: FlowStep[] = []
  // New 1-based number of each donor step.
  const moved: number[] = []
  for (let i = 0; i <= donor.steps.length; i++) {
    for (const ins of graft.inserts) if (Math.max(0, Math.min(ins.before, donor.steps.length)) === i) steps.push(ins.step)
    const s = donor.steps[i]
    if (s !== undefined) {
      steps.push(s)
      moved[i + 1] = steps.length
    }
  }
  const at = (step: number) => moved[Math.min(step, donor.steps.length)] ?? step
  const kept = graft.strip === undefined ? donor.faults : donor.faults.filter((f) => f.operation !== graft.strip)
  return {
    ...donor,
    steps,
    faults: [...kept, ...graft.faults].map((f) => ({ ...f, step: at(f.step) })).sort((a, b) => a.step - b.step),
  }
}

/**
 * Programs aimed at one combination, drawn from a donor that met its event type (in its state when
 * it can): the donor's steps, seed and subscription kept, with what the target adds grafted on at
 * the step where the donor met the type. The way of arriving: a reorder or delay aimed at the type,
 * a duplicate or redelivery, a receiver down or a time-out (a retry), the attacker's replay (of the
 * run's first delivery), a forged delivery; where the app stands: a redeploy after that step (the
 * delivery held back past it), or a roll before it. Deterministic: the same seed draws the same graft.
 *
 * @example
 * fc.sample(graftedProgram(donor, { type: 'invoice.paid', state: 'paid', fault: 'duplicate', deploy: 'redeployed' }), 1)
 */
export function graftedProgram(donor: CoverageDonor, target: CoverageTarget): fc.Arbitrary<FlowProgram> {
  const n = donor.program.steps.length
  const k = Math.max(1, Math.min(donor.step, n))
  return fc.tuple(arrival(target.type, target.fault, k, n), standing(target.type, target, k), drift(k)).map(([a, b, c]) => {
    // The replay's fault comes after the redeploy or roll inserted before it.
    const replayAfter = target.fault === 'replayed' && b.inserts.length > 0
    const moved = replayAfter
      ? { ...a, faults: a.faults.map((f) => ({ ...f, step: Math.max(f.step, (b.inserts[0]?.before ?? 0) + 1) })) }
      : a
    return applied(donor.program, add(add(moved, b), c))
  })
}
