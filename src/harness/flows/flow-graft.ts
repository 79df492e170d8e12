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
  /** For a forgery: the event type whose latest object the attacker lies about (default the target's type). */
  readonly aim?: string
  /** For a replay: the donor's first delivery was of the target's type (what the attacker replays). */
  readonly first?: boolean
}

const HOUR = 3_600_000

/** The reads apps make of the objects their deliveries are about (what a refused delivery follows from). */
export const APP_READS: readonly string[] = [
  'subscriptions.retrieve',
  'events.retrieve',
  'checkout.sessions.retrieve',
  'invoices.retrieve',
]

/**
 * A step that makes another event about the object of a `type` event without moving it on: a seat
 * change of a subscription (the newest or the first), the customer paying what is open for an
 * invoice, else the donor's step made again (`again`; a new subscription makes no event about the old).
 */
function touchOf(type: string, again: FlowStep, drawn: (kind: string) => boolean): fc.Arbitrary<FlowStep> | undefined {
  const seats = fc.record({
    kind: fc.constant('change_quantity' as const),
    sub: fc.constantFrom(-1, 0),
    quantity: fc.integer({ min: 1, max: 5 }),
  })
  const pay = fc.constant<FlowStep>({ kind: 'recover', customer: 0 })
  const redo: [string, fc.Arbitrary<FlowStep>][] = again.kind === 'subscribe' ? [] : [[again.kind, fc.constant(again)]]
  const kinds: [string, fc.Arbitrary<FlowStep>][] = type.startsWith('customer.subscription.')
    ? [['change_quantity', seats]]
    : type.startsWith('invoice.')
      ? [['recover', pay], ...redo]
      : [['change_quantity', seats], ...redo]
  // Only steps the property's own generation draws.
  const usable = kinds.filter(([kind]) => drawn(kind)).map(([, a]) => a)
  return usable.length === 0 ? undefined : fc.oneof(...usable)
}

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
function arrival(
  type: string,
  fault: string,
  donor: CoverageDonor,
  k: number,
  drawn: (kind: string) => boolean,
): fc.Arbitrary<Graft> {
  const { aim, first } = donor
  const n = donor.program.steps.length
  // The donor's step that met the type, made again: another event about the same object.
  const again = donor.program.steps[k - 1] as FlowStep
  const at = fc.constantFrom(k, k, Math.max(1, k - 1))
  switch (fault) {
    case 'out_of_order':
      return reordered(type, touchOf(type, again, drawn), k, at)
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
      // Aimed at the reads apps make of the objects they are told about, so the step's own
      // requests do not use them up; or at whatever request comes next.
      return fc
        .record({
          at,
          fault: fc.constantFrom('server_error' as const, 'concurrent_conflict' as const, 'lock_timeout' as const),
          count: fc.integer({ min: 1, max: 3 }),
          aimed: fc.boolean(),
        })
        .map(({ at: step, fault: f, count, aimed }) => ({
          faults: aimed
            ? APP_READS.map((operation) => ({ step, fault: f, count, operation }))
            : [{ step, fault: f, count: count + 1 }],
          inserts: [],
        }))
    case 'replayed':
      // The attacker replays the run's first delivery: its state on arrival is the object's when
      // the replay goes out, so a replay armed on every step from a drawn one on meets the object
      // in each state it passes through. A donor whose first delivery was of another type has its
      // first few deliveries held back a little, so another comes first.
      return fc.record({ from: fc.nat({ max: n - 1 }), held: fc.integer({ min: 1, max: 6 }) }).map(({ from, held }) => ({
        faults: [
          ...(first ? [] : [{ step: 1, fault: 'reorder_delivery' as const, count: held, delay: 10_000 }]),
          ...Array.from({ length: n - from }, (_, i) => ({ step: from + i + 1, fault: 'replay_delivery' as const, count: 1 })),
        ],
        inserts: [],
      }))
    case 'forged':
      return fc
        .constantFrom(...FLOW_FORGERIES)
        .map((forgery) => ({ faults: [], inserts: [{ before: k, step: { kind: 'forge' as const, forgery, aim: aim ?? type } }] }))
    default:
      return inOrder(type, k, n, at)
  }
}

/**
 * Held back past a later event about the same object: one the donor's own next steps make, or one
 * a step inserted after the type's makes (`touch`).
 */
function reordered(
  type: string,
  touch: fc.Arbitrary<FlowStep> | undefined,
  k: number,
  at: fc.Arbitrary<number>,
): fc.Arbitrary<Graft> {
  return fc
    .record({
      at,
      fault: fc.constantFrom('reorder_delivery' as const, 'delay_delivery' as const),
      delay: fc.constantFrom(2 * HOUR, 2 * HOUR, 30 * HOUR),
      touch: touch === undefined ? fc.constant(null) : fc.option(touch, { freq: 4 }),
    })
    .map(({ at: step, fault: f, delay, touch: t }) => ({
      faults: [{ step, fault: f, operation: type, delay, count: 1 }],
      inserts: t === null ? [] : [{ before: k, step: t }],
      // The donor's own faults on the type would take the later event instead.
      strip: type,
    }))
}

/**
 * In order, in a state the object reaches while the delivery is on its way: the donor's own faults
 * on the type dropped, the delivery held back a little (not past the time-out), or the receiver
 * down from that step until a later one (or the end), its retries coming in the order the events
 * were made, each meeting its object as it is by then.
 */
function inOrder(type: string, k: number, n: number, at: fc.Arbitrary<number>): fc.Arbitrary<Graft> {
  return fc.oneof(
    fc.constant({ ...none, strip: type }),
    at.map((step) => ({
      faults: [{ step, fault: 'receiver_slow' as const, operation: type, delay: 2_000, count: 1 }],
      inserts: [],
    })),
    fc.record({ step: at, up: fc.integer({ min: k + 1, max: n + 1 }) }).map(({ step, up }) => ({
      faults: [
        { step, fault: 'receiver_down' as const, count: 1 },
        ...(up > n ? [] : [{ step: up, fault: 'receiver_up' as const, count: 1 }]),
      ],
      inserts: [],
      strip: type,
    })),
  )
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
  // A forgery is sent after the step: the roll just before it, or a long step between them (a
  // subscription expiring, a month passing) would outlast the roll.
  if (target.deploy === 'in_roll')
    return fc.constantFrom(HOUR, 20 * HOUR).map((redeployAfterMs) => ({
      faults: [],
      inserts: [{ before: target.fault === 'forged' ? k : k - 1, step: { kind: 'roll_secret' as const, redeployAfterMs } }],
    }))
  if (target.deploy !== 'redeployed') return fc.constant(none)
  const redeploy: Insert = { before: k, step: { kind: 'redeploy' } }
  // A reorder already holds the delivery back: a second delay aimed at the type would take the later event.
  const late = target.fault === 'in_order'
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
  const strip = graft.strip
  // A fault aimed at a prefix of the type acts on it too.
  const kept =
    strip === undefined ? donor.faults : donor.faults.filter((f) => f.operation === undefined || !strip.startsWith(f.operation))
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
export function graftedProgram(
  donor: CoverageDonor,
  target: CoverageTarget,
  drawn: (kind: string) => boolean = () => true,
): fc.Arbitrary<FlowProgram> {
  const n = donor.program.steps.length
  const k = Math.max(1, Math.min(donor.step, n))
  return fc
    .tuple(arrival(target.type, target.fault, donor, k, drawn), standing(target.type, target, k), drift(k))
    .map(([a, b, c]) => {
      // The replay's fault comes after the redeploy or roll inserted before it.
      const replayAfter = target.fault === 'replayed' && b.inserts.length > 0
      const moved = replayAfter
        ? {
            ...a,
            faults: a.faults.map((f) =>
              f.fault === 'replay_delivery' ? { ...f, step: Math.max(f.step, (b.inserts[0]?.before ?? 0) + 1) } : f,
            ),
          }
        : a
      // A roll for a forgery goes in first: the forgery comes inside it.
      const graft = target.fault === 'forged' ? add(b, moved) : add(moved, b)
      return applied(donor.program, add(graft, c))
    })
}
