import fc from 'fast-check'
import { AFTER_KINDS, type FaultEntry, type FaultKind, rateLimitReasons } from '#faults/index.js'
import { afterDraw, withAfters } from './after-draw.js'
import { type EpisodeStep, episodeSlots, type Slot, scheduleOf, singleWeight } from './flow-episodes.js'
import { twinDraw, withTwin } from './twin-draw.js'
import { refuseBadWorkload } from './workload-input.js'

/**
 * One step of a billing flow program: what a subscription business's customers and operators do
 * through the public API, or time passing. Subscriptions are named by their order of creation in
 * the run (`sub` wraps around the ones made so far, -1 the newest; with none yet the step does nothing), customers
 * by their number in the setup.
 */
export type FlowStep = (
  | {
      readonly kind: 'subscribe'
      readonly customer: number
      readonly plan: number
      readonly quantity: number
      readonly trialDays: number
    }
  | { readonly kind: 'change_plan'; readonly sub: number; readonly plan: number }
  | { readonly kind: 'change_quantity'; readonly sub: number; readonly quantity: number }
  | { readonly kind: 'end_trial'; readonly sub: number }
  | { readonly kind: 'fail_card'; readonly customer: number }
  | { readonly kind: 'recover'; readonly customer: number }
  | { readonly kind: 'cancel'; readonly sub: number; readonly atPeriodEnd: boolean }
  | { readonly kind: 'resume'; readonly sub: number }
  | { readonly kind: 'advance'; readonly ms: number }
  /** The app redeployed: its factory called again, its memory lost, `env.store` kept. */
  | { readonly kind: 'redeploy' }
  /** The endpoint's signing secret rolled; the app redeployed with the new one `redeployAfterMs` later (inside the overlap), while later steps run. */
  | { readonly kind: 'roll_secret'; readonly redeployAfterMs: number }
  /** An attacker POSTs a forged or tampered delivery (`FlowForgery`) about the object of the latest event whose type starts with `aim`. */
  | { readonly kind: 'forge'; readonly forgery: FlowForgery; readonly aim: string }
  /** The provider sends the latest event whose type starts with `aim` again (a dashboard resend, a late retry). */
  | { readonly kind: 'redeliver'; readonly aim: string }
  /** A step another property brings (for instance a checkout completed by the customer): run by its `FlowAction`. */
  | { readonly kind: `x:${string}`; readonly [field: string]: unknown }
) &
  FlowStepPace

/**
 * How soon the next step follows one that is not a wait. By default a step leaves its deliveries
 * `FLOW_STEP_SETTLE_MS` of virtual time; under a second (`settleMs: 0` is back to back, once the
 * deliveries due at once are handled) the next step's change shares its second, so two changes of
 * one object carry the same `created`.
 *
 * @example
 * const steps: FlowStep[] = [
 *   { kind: 'change_plan', sub: -1, plan: 2, settleMs: 0 },
 *   { kind: 'change_quantity', sub: -1, quantity: 3 }, // the same second as the plan change
 * ]
 */
export interface FlowStepPace {
  /** Virtual ms before the next step (default `FLOW_STEP_SETTLE_MS`); not on an `advance`, whose wait is its `ms`. */
  readonly settleMs?: number
}

/**
 * How an attacker forges a delivery: signed with a secret of its own, a genuine signature over
 * other bytes (the body tampered after signing), or no signature at all.
 */
export type FlowForgery = 'wrong_secret' | 'altered_body' | 'unsigned'
/** The forgeries a flow draws from. */
export const FLOW_FORGERIES: readonly FlowForgery[] = ['wrong_secret', 'altered_body', 'unsigned']
/** The adversity steps a flow draws (besides its faults): redeploys, secret rolls, forgeries, redeliveries. */
export type FlowAdversity = 'redeploy' | 'roll_secret' | 'forge' | 'redeliver'

/** A billing flow program: data, as fast-check shrinks it; faults name 1-based step numbers. */
export interface FlowProgram {
  readonly seed: number
  readonly steps: readonly FlowStep[]
  readonly faults: readonly FaultEntry[]
  /**
   * The app's endpoint is subscribed to every event type (`*`), so it is also sent what it does not
   * handle (`payment_intent.*`, `charge.*`, `invoice.created`, ...) and must answer 2xx to it;
   * otherwise it gets the types its subject handles. Drawn in a third of the programs: most runs
   * stay as cheap as the events the rules read, and shrinking drops it when the failure does not
   * need it.
   */
  readonly everyEvent?: boolean
}

/** Plans of the setup, cheapest first: a change to a higher number is an upgrade. */
export const FLOW_PLANS = ['basic', 'pro', 'team'] as const
/** Customers of the setup (each with a card that pays). */
export const FLOW_CUSTOMERS = 3

const DAY = 86_400_000
const SECOND = 1000
const SUBSCRIPTION_AIMS = ['invoice.payment_failed', 'invoice.paid', 'customer.subscription.']

/**
 * Every fault kind that acts on a billing flow: the delivery faults (duplicates, reorders, delays,
 * a receiver down, slow or failing, an attacker's replay), a second event for the same change
 * (`redundant_event`), and the API faults the client's own reads meet (the harness's own requests
 * retry through them).
 */
export const flowFaultKinds: readonly FaultKind[] = [
  'duplicate_delivery',
  'reorder_delivery',
  'delay_delivery',
  'receiver_down',
  'receiver_up',
  'receiver_slow',
  'replay_delivery',
  'rate_limit',
  'lock_timeout',
  'concurrent_conflict',
  'server_error',
  'indeterminate',
  'redundant_event',
]

/** The shape of generated billing flows. */
export interface FlowWorkload {
  /**
   * Whether the app's endpoint is subscribed to every event type (`true`), only to the ones its
   * subject handles (`false`), or drawn per program (default: a third of the programs get `*`).
   */
  readonly everyEvent?: boolean
  /** Most steps in a program (default 12). */
  readonly maxSteps?: number
  /** Fewest steps in a program (default 1); a counterexample is still shrunk below it. */
  readonly minSteps?: number
  /** Most scheduled faults (default 4). */
  readonly maxFaults?: number
  /** Fault kinds the schedule draws from (default `flowFaultKinds`). */
  readonly faultKinds?: readonly FaultKind[]
  /** Steps another property adds to the mix (its `x:` kinds), each drawn as often as one built-in kind. */
  readonly extraSteps?: readonly fc.Arbitrary<FlowStep>[]
  /**
   * Whether the built-in subscription steps are drawn (default true). Without them a program is
   * `extraSteps` and clock moves, and starts with `firstStep`.
   */
  readonly builtInSteps?: boolean
  /** The first step of every program (default a subscription). */
  readonly firstStep?: fc.Arbitrary<FlowStep>
  /**
   * Short runs of steps drawn as one (a card starting to fail and the renewal it fails): a share
   * of the draws (`episodeShare`) are episodes, each as often as another. The program still holds single steps, each
   * with its own faults (on an episode's first four steps), and a counterexample is shrunk step by
   * step. A step may bring faults aimed at what it causes (`AimedStep`: a seat change delivered
   * twice), kept before the drawn ones when a program has more than `maxFaults`.
   */
  readonly episodes?: readonly fc.Arbitrary<readonly EpisodeStep[]>[]
  /** The share of draws that are episodes, above 0 and below 1 (default 1/3). */
  readonly episodeShare?: number
  /** Event types (or type prefixes) delivery faults may aim at (default the subscription and invoice events). */
  readonly faultAims?: readonly string[]
  /**
   * Adversity steps drawn among the others (redeploys, secret rolls with a redeploy inside the
   * overlap, forged deliveries, redeliveries of the events `faultAims` names): which kinds, and
   * their weight beside one other step kind (default every kind, weight 1; `false`: none).
   */
  readonly adversity?: false | { readonly kinds?: readonly FlowAdversity[]; readonly weight?: number }
}

const sub = fc.constantFrom(0, 0, 1, 2)
// Biased to the first customer, so steps meet the subscriptions other steps made.
const customer = fc.constantFrom(0, 0, 0, 1, 2)
const plan = fc.nat({ max: FLOW_PLANS.length - 1 })

/**
 * One generated billing flow step: subscriptions created (with or without a trial), upgraded,
 * downgraded, quantities changed, trials ended, the default card switched to one whose charges
 * fail (`pm_card_chargeCustomerFail`) and back with the open invoices paid, cancellations now and
 * at period end (and undone), and the clock moved across days and billing periods.
 *
 * @example
 * fc.sample(flowStep(), 3) // [{ kind: 'subscribe', customer: 0, plan: 1, quantity: 2, trialDays: 0 }, ...]
 */
export function flowStep(workload: FlowWorkload = {}): fc.Arbitrary<FlowStep> {
  refuseBadWorkload('flowStep', workload)
  const w = (weight: number, arbitrary: fc.Arbitrary<FlowStep>) => ({ weight, arbitrary })
  // Renewals failing need a subscription, a failing card and a month: those come more often.
  const built: fc.WeightedArbitrary<FlowStep>[] = [
    w(
      2,
      fc.record({
        kind: fc.constant('subscribe' as const),
        customer,
        plan,
        quantity: fc.integer({ min: 1, max: 5 }),
        trialDays: fc.constantFrom(0, 0, 3, 14),
      }),
    ),
    w(1, fc.record({ kind: fc.constant('change_plan' as const), sub, plan })),
    w(1, fc.record({ kind: fc.constant('change_quantity' as const), sub, quantity: fc.integer({ min: 1, max: 5 }) })),
    w(1, fc.record({ kind: fc.constant('end_trial' as const), sub })),
    w(2, fc.record({ kind: fc.constant('fail_card' as const), customer })),
    w(2, fc.record({ kind: fc.constant('recover' as const), customer })),
    w(1, fc.record({ kind: fc.constant('cancel' as const), sub, atPeriodEnd: fc.boolean() })),
    w(1, fc.record({ kind: fc.constant('resume' as const), sub })),
  ]
  const clock = w(
    3,
    fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.constantFrom(60_000, 3_600_000, DAY, 3 * DAY, 10 * DAY, 32 * DAY),
    }),
  )
  const kept = workload.builtInSteps === false ? [] : built
  const adverse = adversityStep(workload)
  return fc.oneof(...kept, clock, ...(workload.extraSteps ?? []).map((a) => w(1, a)), ...(adverse === undefined ? [] : [adverse]))
}

/**
 * The adversity steps of a workload, as one weighted choice: a redeploy, a secret roll and the
 * redeploy a drawn delay later (from seconds to most of the overlap), a forged delivery, a
 * redelivery of an aimed event type.
 *
 * @example
 * adversityStep({ adversity: { kinds: ['redeploy'] } })
 */
export function adversityStep(workload: FlowWorkload): fc.WeightedArbitrary<FlowStep> | undefined {
  refuseBadWorkload('adversityStep', workload ?? null)
  if (workload.adversity === false) return undefined
  const kinds = workload.adversity?.kinds ?? (['redeploy', 'roll_secret', 'forge', 'redeliver'] as const)
  const aims = workload.faultAims ?? SUBSCRIPTION_AIMS
  const aim = fc.constantFrom(...(aims.length === 0 ? [''] : aims))
  const byKind: Record<FlowAdversity, fc.Arbitrary<FlowStep>> = {
    redeploy: fc.constant({ kind: 'redeploy' as const }),
    roll_secret: fc.record({
      kind: fc.constant('roll_secret' as const),
      redeployAfterMs: fc.constantFrom(2 * 60 * SECOND, 10 * 60 * SECOND, 3_600_000, 20 * 3_600_000),
    }),
    forge: fc.record({ kind: fc.constant('forge' as const), forgery: fc.constantFrom(...FLOW_FORGERIES), aim }),
    redeliver: fc.record({ kind: fc.constant('redeliver' as const), aim }),
  }
  const chosen = kinds.map((k) => byKind[k])
  if (chosen.length === 0) return undefined
  return { weight: workload.adversity?.weight ?? 1, arbitrary: fc.oneof(...chosen) }
}

const DELIVERY_AIMED: ReadonlySet<FaultKind> = new Set<FaultKind>([
  'duplicate_delivery',
  'reorder_delivery',
  'delay_delivery',
  'receiver_slow',
])

function flowFault(kinds: readonly FaultKind[], aims: readonly string[]): fc.Arbitrary<FaultEntry> {
  return fc
    .record({
      fault: fc.constantFrom(...kinds),
      count: fc.integer({ min: 1, max: 3 }),
      reason: fc.constantFrom(...rateLimitReasons),
      // A delivery fault aimed at one event type reaches it even when other events come first.
      aim: fc.constantFrom<string | undefined>(undefined, undefined, ...aims),
      // Delays as the provider has them: seconds, or hours behind.
      delay: fc.constantFrom(undefined, 2 * 3_600_000),
    })
    .map(({ fault, count, reason, aim, delay }) => {
      const entry: FaultEntry = { step: 1, fault, count }
      if (fault === 'rate_limit') entry.reason = reason
      if (aim !== undefined && DELIVERY_AIMED.has(fault)) entry.operation = aim
      if (delay !== undefined && (fault === 'delay_delivery' || fault === 'reorder_delivery')) entry.delay = delay
      return entry
    })
}

/**
 * Generated billing flow programs: a seed, steps, and a fault schedule whose faults ride on the step
 * they come before (so shrinking an earlier step moves them with theirs).
 *
 * @example
 * fc.sample(flowProgram({ maxSteps: 8 }), 1)[0] // { seed, steps: [...], faults: [{ step: 2, fault: 'duplicate_delivery', count: 1 }] }
 */
export function flowProgram(workload: FlowWorkload = {}): fc.Arbitrary<FlowProgram> {
  refuseBadWorkload('flowProgram', workload)
  const maxSteps = workload.maxSteps ?? 12
  const maxFaults = workload.maxFaults ?? 4
  const drawnKinds = workload.faultKinds ?? flowFaultKinds
  const kinds = drawnKinds.filter((k) => k !== 'redundant_event')
  const aims = workload.faultAims ?? SUBSCRIPTION_AIMS
  const twins = maxFaults > 0 && drawnKinds.includes('redundant_event')
  const before =
    maxFaults === 0 || kinds.length === 0
      ? fc.constant([] as FaultEntry[])
      : fc.oneof(
          { withCrossShrink: true },
          { weight: 2, arbitrary: fc.constant([] as FaultEntry[]) },
          {
            weight: 1,
            arbitrary: fc.array(flowFault(kinds, aims), {
              minLength: 1,
              maxLength: Math.min(2, maxFaults),
            }),
          },
        )
  // A flow starts with a subscription more often than not: most steps act on one.
  const first =
    workload.firstStep ??
    fc.record({
      kind: fc.constant('subscribe' as const),
      customer,
      plan,
      quantity: fc.integer({ min: 1, max: 5 }),
      trialDays: fc.constantFrom(0, 0, 3, 14),
    })
  const single: fc.Arbitrary<Slot> = fc.record({ step: flowStep(workload), faults: before, aimed: fc.constant([]) })
  const lengths = { minLength: Math.min(Math.max(0, (workload.minSteps ?? 1) - 1), maxSteps - 1), maxLength: maxSteps - 1 }
  const episodes = workload.episodes ?? []
  // Without episodes the arbitrary is the one it always was: the same seed draws the same programs.
  const slots =
    episodes.length === 0
      ? fc.array(single, lengths)
      : fc
          .array(
            fc.oneof(
              { weight: singleWeight(episodes.length, workload.episodeShare), arbitrary: single.map((s) => [s]) },
              ...episodes.map((e) => ({ weight: 1, arbitrary: episodeSlots(e, before) })),
            ),
            lengths,
          )
          .map((runs) => runs.flat())
  const drawn = fc.record({
    seed: fc.integer({ min: 0, max: 1_000_000 }),
    head: fc.record({ step: first as fc.Arbitrary<FlowStep>, faults: before, aimed: fc.constant([]) }),
    slots,
    everyEvent: workload.everyEvent === undefined ? fc.constantFrom(false, false, true) : fc.constant(workload.everyEvent),
  })
  // The twin is drawn last: without it the arbitrary is the one it always was.
  const withDraw = twins ? fc.tuple(drawn, twinDraw(aims, maxSteps)) : drawn.map((d) => [d, undefined] as const)
  // Then how many requests each API fault lets through: the programs drawn before, with those.
  const lets = kinds.some((k) => AFTER_KINDS.has(k)) && maxFaults > 0
  const withAfter = lets ? fc.tuple(withDraw, afterDraw(maxFaults)) : withDraw.map((d) => [d, [] as readonly number[]] as const)
  return withAfter.map(([[{ seed, head, slots, everyEvent }, twin], afters]) => {
    const all = withAfters([head, ...slots].slice(0, maxSteps), afters)
    return {
      seed,
      steps: all.map((s) => s.step),
      faults: withTwin(scheduleOf(all, maxFaults), twin, all.length, maxFaults),
      ...(everyEvent ? { everyEvent } : {}),
    }
  })
}
