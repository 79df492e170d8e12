import fc from 'fast-check'
import type { FaultEntry } from '#faults/index.js'
import { objectTypes } from './event-object.js'
import { APP_READS, type CoverageTarget } from './flow-graft.js'
import { FLOW_FORGERIES, type FlowProgram, type FlowStep } from './flow-program.js'
import { knownFlowCombinations } from './known-combinations.js'

const DAY = 86_400_000
const HOUR = 3_600_000
const MINUTE = 60_000

/**
 * How long a built program holds back what it resends: past any story and its closing steps, so
 * the resend is the app's first sight of the event whatever day of the advance made it.
 */
const HELD_MS = 10 * DAY

/** A trial's length that subscriptions of both billing flows draw: its end is known to the minute. */
const TRIAL_DAYS = 3

/** The steps that put the app where the target says, just before what it arrives at: a redeploy or a roll. */
function standingSteps(deploy: string, redeployAfterMs: number): FlowStep[] {
  if (deploy === 'redeployed') return [{ kind: 'redeploy' }]
  return deploy === 'in_roll' ? [{ kind: 'roll_secret', redeployAfterMs }] : []
}

/** A roll whose redeploy comes `redeployAfterMs` later, inside an advance; for `none` nothing. */
function timedStanding(deploy: string, redeployAfterMs: number): FlowStep[] {
  return deploy === 'none' ? [] : [{ kind: 'roll_secret', redeployAfterMs }]
}

/**
 * A program whose target event is made inside a long advance (a renewal, its day unknown within the
 * month) and arrives the target's way whatever that day was: held back for days from the step that
 * makes it (every event about its object for in order, only it for out of order, so the later ones
 * come first), the app redeployed or a secret rolled once the story is over, then the provider's
 * resend of the event as the app's first sight of it.
 *
 * @example
 * resentAfterStory({ type: 'invoice.payment_failed', state: 'paid', fault: 'in_order', deploy: 'in_roll' }, steps, 3, 7)
 */
export function resentAfterStory(target: CoverageTarget, story: readonly FlowStep[], made: number, seed: number): FlowProgram {
  const held: FaultEntry =
    target.fault === 'out_of_order'
      ? { step: made, fault: 'reorder_delivery', operation: target.type, delay: HELD_MS, count: 1 }
      : { step: made, fault: 'delay_delivery', operation: objectTypes(target.type), delay: HELD_MS, count: 30 }
  const steps: FlowStep[] = [
    ...story,
    ...standingSteps(target.deploy, 20 * HOUR),
    { kind: 'redeliver', aim: target.type },
    { kind: 'advance', ms: MINUTE },
  ]
  return { seed, steps, faults: [held], everyEvent: true }
}

/**
 * A retry of an event made inside a long advance (its day unknown within the month), the app
 * standing as the target says when it comes: the event held back for days from the step that
 * makes it, the app redeployed or a secret rolled once the story is over, then the provider's
 * resend of it while the app's reads fail (it answers 5xx: the delivery failed), then the resend
 * again. A retry the provider schedules itself could come after a roll's redeploy.
 *
 * @example
 * failedThenResent({ type: 'customer.subscription.updated', state: 'past_due', fault: 'retry', deploy: 'in_roll' }, steps, 4, 7)
 */
export function failedThenResent(target: CoverageTarget, story: readonly FlowStep[], made: number, seed: number): FlowProgram {
  const held: FaultEntry = { step: made, fault: 'delay_delivery', operation: objectTypes(target.type), delay: HELD_MS, count: 30 }
  const standing = standingSteps(target.deploy, 20 * HOUR)
  const refused = story.length + standing.length + 1
  const steps: FlowStep[] = [
    ...story,
    ...standing,
    { kind: 'redeliver', aim: target.type },
    { kind: 'redeliver', aim: target.type },
    { kind: 'advance', ms: MINUTE },
  ]
  const reads = APP_READS.map((operation) => ({ step: refused, fault: 'server_error' as const, operation, count: 2 }))
  return { seed, steps, faults: [held, ...reads], everyEvent: true }
}

/** Whether a trial-end invoice's draft hour can bring the target: what is made or forged then. */
function inDraftHour(target: CoverageTarget, drawn: (kind: string) => boolean): boolean {
  if (target.state !== 'draft' || !['subscribe', 'advance'].every(drawn)) return false
  if (target.deploy === 'redeployed' && (target.fault === 'forged' || !drawn('roll_secret'))) return false
  if (target.deploy === 'in_roll' && !drawn('roll_secret')) return false
  if (target.fault === 'forged') return target.type === 'invoice.paid' && drawn('forge')
  return target.type === 'invoice.created' && (target.fault === 'in_order' || target.fault === 'duplicate')
}

/**
 * Programs for a combination that exists only in the hour a trial's invoice stays a draft before
 * it is finalized: the trial's end known to the minute, so the clock stops two hours before it; a
 * secret rolled then, its redeploy timed twenty minutes past the trial's end (a redeploy inside
 * the hour, no step needed) or a day later (the app still on the old secret); then the hour itself,
 * the invoice's creation held forty minutes (after that redeploy, before the finalization) or sent
 * twice, or an attacker's `invoice.paid` about the draft half an hour in. Undefined for any other
 * combination, or one of step kinds the property's generation does not draw.
 *
 * @example
 * draftHourProgram({ type: 'invoice.paid', state: 'draft', fault: 'forged', deploy: 'none' }, () => true)
 */
export function draftHourProgram(
  target: CoverageTarget,
  drawn: (kind: string) => boolean,
): fc.Arbitrary<FlowProgram> | undefined {
  if (!inDraftHour(target, drawn)) return undefined
  const trial: FlowStep[] = [
    { kind: 'subscribe', customer: 0, plan: 1, quantity: 1, trialDays: TRIAL_DAYS },
    { kind: 'advance', ms: TRIAL_DAYS * DAY - 2 * HOUR },
    ...timedStanding(target.deploy, target.deploy === 'redeployed' ? 2 * HOUR + 20 * MINUTE : 20 * HOUR),
  ]
  return fc
    .record({ seed: fc.integer({ min: 0, max: 1_000_000 }), forgery: fc.constantFrom(...FLOW_FORGERIES) })
    .map(({ seed, forgery }): FlowProgram => {
      if (target.fault === 'forged') {
        const steps: FlowStep[] = [
          ...trial,
          { kind: 'advance', ms: 2 * HOUR + 30 * MINUTE },
          { kind: 'forge', forgery, aim: 'invoice.' },
        ]
        return { seed, steps, faults: [], everyEvent: true }
      }
      const hour = trial.length + 1
      const way: FaultEntry =
        target.fault === 'duplicate'
          ? { step: hour, fault: 'duplicate_delivery', operation: target.type, count: 1 }
          : { step: hour, fault: 'delay_delivery', operation: target.type, delay: 40 * MINUTE, count: 1 }
      return { seed, steps: [...trial, { kind: 'advance', ms: 3 * HOUR }], faults: [way], everyEvent: true }
    })
}

// Every event type the flows are known to deliver: what may come before the one a replay needs first.
const EVENT_TYPES: readonly string[] = [
  ...new Set(
    Object.values(knownFlowCombinations)
      .flat()
      .map((k) => k.split('|')[0] ?? ''),
  ),
].sort()

/**
 * Faults at `step` that hold every other known event type back (ten seconds, or `delay`), so the
 * app's first delivery of the run (what the attacker captures and replays) is of `type` when that
 * step, or a later one within the delay, makes it.
 *
 * @example
 * deliveredFirst('charge.succeeded', 1) // [{ step: 1, fault: 'delay_delivery', operation: 'charge.created', ... }, ...]
 */
export function deliveredFirst(type: string, step: number, delay = 10_000): FaultEntry[] {
  return EVENT_TYPES.filter((t) => t !== type).map((operation) => ({
    step,
    fault: 'delay_delivery' as const,
    operation,
    delay,
    count: 3,
  }))
}

/**
 * A retry that needs no failing read: the target type made the run's first delivery (by the story's
 * step `made`, what earlier steps make held past it), the attacker
 * replays it once the story is over (the app refuses the old signature, so the provider's record
 * of that delivery is a failure), then the provider sends it again, the app's standing changed
 * first when the target says so.
 *
 * @example
 * refusedThenResent({ type: 'customer.subscription.created', state: 'canceled', fault: 'retry', deploy: 'none' }, steps, 7)
 */
export function refusedThenResent(target: CoverageTarget, story: readonly FlowStep[], seed: number, made = 1): FlowProgram {
  const replayAt = story.length + 1
  const steps: FlowStep[] = [
    ...story,
    // The attacker replays a delivery some minutes old (older than the tolerance): it comes in this time.
    { kind: 'advance', ms: 10 * MINUTE },
    ...standingSteps(target.deploy, 20 * HOUR),
    { kind: 'redeliver', aim: target.type },
    { kind: 'advance', ms: MINUTE },
  ]
  const first = made === 1 ? deliveredFirst(target.type, 1) : deliveredFirst(target.type, 1, made * MINUTE)
  const faults: FaultEntry[] = [...first, { step: replayAt, fault: 'replay_delivery', count: 1 }]
  return { seed, steps, faults, everyEvent: true }
}
