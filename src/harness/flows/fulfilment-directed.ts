import fc from 'fast-check'
import type { FaultEntry } from '#faults/index.js'
import { CHECKOUT_STORIES, type CheckoutStory, checkoutForgeryAim, checkoutStoriesFor } from './checkout-stories.js'
import type { CoverageTarget } from './flow-graft.js'
import { FLOW_FORGERIES, type FlowProgram, type FlowStep } from './flow-program.js'

const MINUTE = 60_000
const HOUR = 3_600_000
/** Virtual time a step that is not a clock move takes (its settle). */
const STEP_MS = 30_000

/** More deliveries than a story and its closing steps make. */
const EVERY = 60

/** The ways of arriving a story's faults make (a forgery is a step of its own). */
const ARRIVALS = new Set(['in_order', 'out_of_order', 'duplicate', 'retry', 'replayed'])

/** Virtual time from the start of step `from` (1-based) to the start of step `to`. */
function elapsed(steps: readonly FlowStep[], from: number, to: number): number {
  return steps.slice(from - 1, to - 1).reduce((ms, s) => ms + STEP_MS + (s.kind === 'advance' ? s.ms : 0), 0)
}

/**
 * The run's first delivery made the target's type (what the attacker replays): from the first step,
 * every other delivery held back until a little after the step `made` has sent it.
 */
function firstDelivered(type: string, hold: number): FaultEntry[] {
  return [
    { step: 1, fault: 'reorder_delivery', operation: type, delay: 0, count: 1 },
    { step: 1, fault: 'reorder_delivery', delay: hold, count: EVERY },
  ]
}

/**
 * The faults that make the target's event arrive its way during the closing step `close`, once the
 * story has ended (`made`: its step; `late`: a delay from then into the closing step): every event
 * from its step on held back alike (in order), it and the other types of its step a later step
 * overtakes (`behind`) held past their later events (out of order), every event sent at once and
 * again late (a duplicate), or it first delivered and then replayed, answered as a replay is
 * (refused) and sent again late (a retry), in the gap step or (a replay) the closing step.
 */
function arrivalFaults(
  target: CoverageTarget,
  made: number,
  gap: number,
  close: number,
  late: number,
  hold: number,
  behind: readonly string[],
): FaultEntry[] {
  const type = target.type
  // Sent at once and again late: the target alone, or (a duplicate) every event from its step on,
  // so the run meets the other types' duplicates where the app stands as well.
  const twice = (operation: string | undefined, count: number): FaultEntry[] => [
    { step: made, fault: 'delay_delivery', ...(operation === undefined ? {} : { operation }), delay: late, count },
    { step: made, fault: 'duplicate_delivery', ...(operation === undefined ? {} : { operation }), count },
  ]
  switch (target.fault) {
    case 'out_of_order':
      // Each type its step makes that a later step overtakes, the target's among them.
      return [type, ...behind.filter((t) => t !== type)].map((operation) => ({
        step: made,
        fault: 'reorder_delivery' as const,
        operation,
        delay: late,
        count: 1,
      }))
    case 'duplicate':
      return twice(undefined, EVERY)
    case 'retry':
      return [...firstDelivered(type, hold), ...twice(type, 1), { step: gap, fault: 'replay_delivery', count: 1 }]
    case 'replayed':
      // Its late copy comes after the replay was refused: a retry as well.
      return [...firstDelivered(type, hold), ...twice(type, 1), { step: close, fault: 'replay_delivery', count: 1 }]
    default:
      // Every event from its step on held back alike: they keep their order, each meeting its
      // object as the story left it.
      return [{ step: made, fault: 'delay_delivery', delay: late, count: EVERY }]
  }
}

/**
 * After the target's replay in the closing step `close`, the same delivery replayed where the app
 * stands otherwise (a replay costs the attacker nothing): inside a roll and after its redeploy, or
 * once the roll the target was in has ended in a redeploy.
 */
function replayedAgain(deploy: string, close: number, canRoll: boolean): { steps: FlowStep[]; faults: FaultEntry[] } {
  const replay = (step: number): FaultEntry => ({ step, fault: 'replay_delivery', count: 1 })
  const minutes: FlowStep = { kind: 'advance', ms: 10 * MINUTE }
  if (deploy === 'in_roll') return { steps: [{ kind: 'advance', ms: 20 * HOUR }, minutes], faults: [replay(close + 2)] }
  if (deploy !== 'none' || !canRoll) return { steps: [], faults: [] }
  return {
    steps: [{ kind: 'roll_secret', redeployAfterMs: HOUR }, minutes, { kind: 'advance', ms: HOUR }, minutes],
    faults: [replay(close + 2), replay(close + 4)],
  }
}

/** One program of a story for the target, its steps of the kinds the property draws. */
function programOf(
  story: CheckoutStory,
  target: CoverageTarget,
  redeploy: FlowStep,
  seed: number,
  canRoll: boolean,
): FlowProgram {
  const made = story.makes[target.type] as number
  const steps: FlowStep[] = [
    ...story.steps.slice(0, made),
    // After the event is made: what the app remembered of it is gone.
    ...(target.deploy === 'redeployed' ? [redeploy] : []),
    ...story.steps.slice(made),
    // Time for a replay to come of age (the attacker replays a delivery some minutes old).
    { kind: 'advance', ms: 10 * MINUTE },
    // Just before it arrives: a roll, the app redeployed with the new secret only much later.
    ...(target.deploy === 'in_roll' ? [{ kind: 'roll_secret' as const, redeployAfterMs: 20 * HOUR }] : []),
    { kind: 'advance', ms: HOUR },
  ]
  const close = steps.length
  const gap = steps.findIndex((s, i) => i >= made && s.kind === 'advance' && s.ms === 10 * MINUTE) + 1
  // Into the step that makes it: a renewal is made near the end of its clock move.
  const move = steps[made - 1] as FlowStep
  const into = move.kind === 'advance' && story.beforeEnd !== undefined ? Math.max(0, move.ms - story.beforeEnd) : 0
  // From when it is made to a few minutes into the closing step (before a renewal's next move).
  const late = elapsed(steps, made, close) - into + 5 * MINUTE
  // Until the step that makes it has ended (a renewal's events come over an hour or so).
  const hold = elapsed(steps, 1, made + 1) + 2 * MINUTE
  const behind = (story.overtaken ?? []).filter((t) => story.makes[t] === made)
  const faults = arrivalFaults(target, made, gap, close, late, hold, behind)
  if (target.fault === 'replayed') {
    const again = replayedAgain(target.deploy, close, canRoll)
    steps.push(...again.steps)
    faults.push(...again.faults)
  }
  return { seed, steps, faults: faults.sort((a, b) => a.step - b.step), everyEvent: true }
}

/**
 * Programs of a forgery: a story that leaves an object in the target's state, then (just after a
 * roll, for an app in one) the attacker's forged delivery about it, claiming the opposite.
 */
function forgedPrograms(target: CoverageTarget, drawn: (kind: string) => boolean): fc.Arbitrary<FlowProgram> | undefined {
  if (!drawn('forge') || target.deploy === 'redeployed' || (target.deploy === 'in_roll' && !drawn('roll_secret')))
    return undefined
  const aimed = CHECKOUT_STORIES.flatMap((story) => {
    const aim = checkoutForgeryAim(story, target)
    return aim === undefined || !story.steps.every((x) => drawn(x.kind)) ? [] : [{ story, aim }]
  })
  if (aimed.length === 0) return undefined
  return fc
    .record({
      pick: fc.constantFrom(...aimed),
      forgery: fc.constantFrom(...FLOW_FORGERIES),
      seed: fc.integer({ min: 0, max: 1_000_000 }),
    })
    .map(({ pick, forgery, seed }) => ({
      seed,
      steps: [
        ...pick.story.steps,
        ...(target.deploy === 'in_roll' ? [{ kind: 'roll_secret' as const, redeployAfterMs: 20 * HOUR }] : []),
        { kind: 'forge' as const, forgery, aim: pick.aim },
        { kind: 'advance' as const, ms: 10 * MINUTE },
      ],
      faults: [],
      everyEvent: true,
    }))
}

/**
 * Programs that produce one combination of a checkout flow by construction: a short story (a
 * session made and paid, declined, challenged, paid late by a bank debit, paid at the second try,
 * expired; a subscription bought through checkout) that ends with the target's object in its
 * state, the app subscribed to every type, and faults that make the target's event arrive its way
 * once the story is over (held back so it meets the object's final state; sent again; held behind
 * a later event about its object; the run's first delivery, replayed and sent again), the app
 * redeployed after the event was made or a secret rolled just before it arrives. Only when the
 * property draws the checkout steps, the clock and the redeploy or roll the target needs; the
 * payments are `fulfilmentPayments` by their place. A forgery: the attacker's delivery about an
 * object the story left in the target's state. Undefined for a combination no story makes.
 *
 * @example
 * fulfilmentDirectedProgram({ type: 'payment_intent.succeeded', state: 'succeeded', fault: 'replayed', deploy: 'none' }, drawn)
 */
export function fulfilmentDirectedProgram(
  target: CoverageTarget,
  drawn: (kind: string) => boolean,
): fc.Arbitrary<FlowProgram> | undefined {
  if (!['x:checkout', 'x:pay', 'advance'].every(drawn)) return undefined
  if (target.deploy === 'in_roll' && !drawn('roll_secret')) return undefined
  const redeploy: FlowStep | undefined = drawn('redeploy')
    ? { kind: 'redeploy' }
    : drawn('x:restart')
      ? { kind: 'x:restart' }
      : undefined
  if (target.deploy === 'redeployed' && redeploy === undefined) return undefined
  if (target.fault === 'forged') return forgedPrograms(target, drawn)
  if (!ARRIVALS.has(target.fault)) return undefined
  const stories = checkoutStoriesFor(target).filter((s) => s.steps.every((x) => drawn(x.kind)))
  if (stories.length === 0) return undefined
  return fc
    .record({ story: fc.constantFrom(...stories), seed: fc.integer({ min: 0, max: 1_000_000 }) })
    .map(({ story, seed }) => programOf(story, target, redeploy ?? { kind: 'redeploy' }, seed, drawn('roll_secret')))
}
