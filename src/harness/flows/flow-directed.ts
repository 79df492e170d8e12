import fc from 'fast-check'
import type { FaultEntry } from '#faults/index.js'
import { withEncores } from './directed-encores.js'
import { objectTypes } from './event-object.js'
import { APP_READS, type CoverageTarget } from './flow-graft.js'
import { FLOW_FORGERIES, type FlowProgram, type FlowStep } from './flow-program.js'
import { forgeryStories } from './forgery-stories.js'
import {
  deliveredFirst,
  draftHourProgram,
  failedThenResent,
  refusedThenResent,
  resentAfterStory,
} from './subscription-directed.js'
import { madeAt, madeFirstAndLast, madeLast, storiesFor } from './subscription-stories.js'

const DAY = 86_400_000
const HOUR = 3_600_000

/**
 * The faults that make the event arrive the target's way once the story has ended: every event
 * about its object held back by the same time from the step that makes it (they keep their order,
 * the first arriving once the story is over), one of them held further (out of order: after a later
 * one), or refused when they come (the app's reads failing: a retry). A receiver down that long
 * would outlast the provider's retries.
 */
function arrivalFaults(target: CoverageTarget, made: number, close: number, heldMs: number): FaultEntry[] {
  if (target.fault === 'duplicate') return []
  if (target.fault === 'out_of_order')
    return [{ step: made, fault: 'reorder_delivery', operation: target.type, delay: heldMs, count: 1 }]
  const held: FaultEntry = { step: made, fault: 'delay_delivery', operation: objectTypes(target.type), delay: heldMs, count: 30 }
  if (target.fault !== 'retry') return [held]
  return [held, ...APP_READS.map((operation) => ({ step: close, fault: 'server_error' as const, operation, count: 2 }))]
}

/**
 * A forgery about the story's object once the story has brought it to the target's state: the
 * attacker copies the latest delivery of the target's type, or of a type about that object where no
 * story names the forged type (its object now in that state), and
 * sends it forged, to an app standing as it was or just after a roll (a forgery is never older than
 * a redeploy), and only where the property's flows forge at all.
 */
function forgedAfterStory(target: CoverageTarget, drawn: (kind: string) => boolean): fc.Arbitrary<FlowProgram> | undefined {
  if (target.deploy === 'redeployed' || !drawn('forge')) return undefined
  if (target.deploy === 'in_roll' && !drawn('roll_secret')) return undefined
  // A subscription's latest event of the type is about the story's subscription; else the latest of
  // a type that is about the object in that state (the latest `invoice.paid` may be about the first invoice).
  const named = target.type.startsWith('customer.subscription.') ? storiesFor(target, drawn) : []
  const { aim, stories } =
    named.length > 0 ? { aim: target.type, stories: named } : (forgeryStories(target, drawn) ?? { aim: '', stories: [] })
  if (stories.length === 0) return undefined
  // Just before it: a roll, the app redeployed with the new secret only much later.
  const standing: FlowStep[] = target.deploy === 'in_roll' ? [{ kind: 'roll_secret', redeployAfterMs: 20 * HOUR }] : []
  return fc
    .record({
      story: fc.constantFrom(...stories),
      seed: fc.integer({ min: 0, max: 1_000_000 }),
      forgery: fc.constantFrom(...FLOW_FORGERIES),
    })
    .map(({ story, seed, forgery }) => ({
      seed,
      steps: [...story.steps, ...standing, { kind: 'forge' as const, forgery, aim }],
      faults: [],
      everyEvent: true,
    }))
}

/**
 * The attacker's replay of the run's first delivery at the closing step, once the story has
 * brought its object to the target's state; the first `held` deliveries held back a little, so
 * that another type comes first.
 */
function replayFaults(held: number, close: number): FaultEntry[] {
  const replay: FaultEntry = { step: close, fault: 'replay_delivery', count: 1 }
  return held === 0 ? [replay] : [{ step: 1, fault: 'reorder_delivery', count: held, delay: 10_000 }, replay]
}

/** The steps after the story: a later event about the object, a roll, a resend, the closing step. */
function closing(target: CoverageTarget, drawn: (kind: string) => boolean, long: boolean): FlowStep[] {
  const steps: FlowStep[] = []
  // A reorder needs a later event about the object to be overtaken by.
  if (target.fault === 'out_of_order' && drawn('change_quantity')) steps.push({ kind: 'change_quantity', sub: -1, quantity: 3 })
  // Just before it arrives: a roll, the app redeployed with the new secret only much later.
  if (target.deploy === 'in_roll') steps.push({ kind: 'roll_secret', redeployAfterMs: 20 * HOUR })
  // A duplicate is the event sent again once the story is over.
  if (target.fault === 'duplicate') steps.push({ kind: 'redeliver', aim: target.type })
  // Long enough for an event held from a renewal (made a few days before its advance ends) to come.
  steps.push({ kind: 'advance', ms: long ? 3 * DAY : 60_000 })
  return steps
}

/**
 * Programs that produce one combination by construction, when a story reaches its object's state:
 * the story's steps, the event held from the step that makes it to a closing step after the
 * story (so it arrives in the state the story ends in), the app redeployed after it was made or
 * a secret rolled just before it arrives, and the way of arriving the target names (a replay: the
 * run's first delivery re-sent once the story is over, the first few held back so another type
 * may come first). Only stories
 * of the step kinds the property's own generation draws (`drawn`): a combination its flows cannot
 * make is not made for it; a forgery is sent once the story is over. Undefined when no story ends
 * in that state (a graft on a program that met the type is then the way).
 *
 * @example
 * directedProgram({ type: 'invoice.payment_failed', state: 'paid', fault: 'in_order', deploy: 'none' })
 */
export function directedProgram(
  target: CoverageTarget,
  drawn: (kind: string) => boolean = () => true,
): fc.Arbitrary<FlowProgram> | undefined {
  const hour = draftHourProgram(target, drawn)
  // A forgery sent again inside a roll meets its object as it was: a draft stays one for an hour.
  if (hour !== undefined) return target.fault === 'forged' ? hour.map((p) => withEncores(p, target, drawn)) : hour
  if (target.fault === 'forged') return forgedAfterStory(target, drawn)?.map((p) => withEncores(p, target, drawn))
  const stories = storiesFor(target, drawn)
  if (stories.length === 0) return undefined
  return fc
    .record({
      story: fc.constantFrom(...stories),
      seed: fc.integer({ min: 0, max: 1_000_000 }),
      held: fc.integer({ min: 0, max: 5 }),
      every: fc.boolean(),
    })
    .map(({ story, seed, held, every }) => {
      // A replay's is the first delivery of the type, a reorder's the first one a later one overtakes;
      // any other way, the latest event of it.
      // A retry of the run's first delivery: replayed (refused), then sent again (the resend takes
      // the latest of the type: the first one only when no later step makes another). Whatever the
      // app reads: failing its reads makes only an app that reads refuse.
      // Made later with no clock move up to it: what the steps before make is held past it.
      if (target.fault === 'retry' && drawn('redeliver') && madeFirstAndLast(story, target.type) !== undefined)
        return refusedThenResent(target, story.steps, seed, madeFirstAndLast(story, target.type))
      const first = target.fault === 'replayed' || target.fault === 'out_of_order'
      const made = (first ? madeAt(story, target.type) : madeLast(story, target.type)) ?? 1
      // After the step that makes the event: a redeploy (what the app remembered of it is gone).
      const redeploy: FlowStep[] = target.deploy === 'redeployed' ? [{ kind: 'redeploy' }] : []
      const long = (story.steps[made - 1] as FlowStep).kind === 'advance'
      // Made on an unknown day of a long advance: held past it and resent once the app stands right.
      // In order or out of order as it came, the app's standing unchanged, the delivery held from
      // its real creation does it (a later event of the same type may be what overtakes it).
      // Only when the resend (of the latest event of the type) sends the one held.
      const resend =
        target.deploy !== 'none' &&
        (target.fault === 'in_order' || target.fault === 'out_of_order') &&
        madeLast(story, target.type) === made
      if (long && resend && drawn('redeliver')) return resentAfterStory(target, story.steps, made, seed)
      // A retry the same way: the resend refused first, while the app stands as the target says;
      // so too for one a later step makes after time has passed (a resumption days after the pause),
      // whose held delivery would come only after the closing step's failing reads.
      const afterTime = story.steps.slice(0, made - 1).some((s) => s.kind === 'advance')
      if ((long ? target.deploy !== 'none' : afterTime) && target.fault === 'retry' && drawn('redeliver'))
        return failedThenResent(target, story.steps, made, seed)
      const steps = [...story.steps.slice(0, made), ...redeploy, ...story.steps.slice(made), ...closing(target, drawn, long)]
      // From the step that makes it to the end of the story; a renewal is made on the way through a
      // long advance, at most a few days before its end (months are 28 to 31 days).
      const later = story.steps.slice(made).reduce((ms, s) => ms + (s.kind === 'advance' ? s.ms : 30_000), 0)
      const renewing = long ? 2 * DAY : 0
      // Made by the first step: every other type held back a little, so the run's first delivery is of it.
      if (target.fault === 'replayed' && made === 1)
        return { seed, steps, faults: [...deliveredFirst(target.type, 1), ...replayFaults(0, steps.length)], everyEvent: true }
      // Made by a later step with no clock move up to it: what the steps before make held past it.
      if (target.fault === 'replayed' && story.steps.slice(0, made).every((s) => s.kind !== 'advance')) {
        const first = deliveredFirst(target.type, 1, made * 60_000)
        return { seed, steps, faults: [...first, ...replayFaults(0, steps.length)], everyEvent: true }
      }
      if (target.fault === 'replayed') return { seed, steps, faults: replayFaults(held, steps.length), everyEvent: every }
      const faults = arrivalFaults(target, made, steps.length, later + renewing + 2 * HOUR)
      return { seed, steps, faults: faults.sort((a, b) => a.step - b.step), everyEvent: true }
    })
    .map((program) => withEncores(program, target, drawn))
}
