import fc from 'fast-check'
import { refuseArgument } from '../refuse-argument.js'
import type { EpisodeStep } from './flow-episodes.js'
import { FLOW_FORGERIES, type FlowStep, type FlowWorkload } from './flow-program.js'

const DAY = 86_400_000
const HOURS_LATE = 2 * 3_600_000
const customer = fc.constantFrom(0, 0, 0, 1, 2)
const sub = fc.constantFrom(0, 0, 1, 2)

// A renewal failing (a subscription turning past_due) needs the card to fail before a period ends.
const failingRenewal: fc.Arbitrary<readonly EpisodeStep[]> = fc.tuple(
  fc.record({ kind: fc.constant('fail_card' as const), customer }),
  fc.constant({ kind: 'advance' as const, ms: 32 * DAY }),
)

// A subscription made and paid at once: `customer.subscription.created` (incomplete) and the update
// that activates it share a second; the created one is delivered after the update. For a customer
// the other steps rarely subscribe, so no other subscription hides a gate left shut.
const createdAfterActivation: fc.Arbitrary<readonly EpisodeStep[]> = fc
  .record({
    kind: fc.constant('subscribe' as const),
    customer: fc.constantFrom(2, 1),
    plan: fc.nat({ max: 2 }),
    quantity: fc.integer({ min: 1, max: 5 }),
    trialDays: fc.constant(0),
  })
  .map((step: FlowStep) => [
    { step, faults: [{ fault: 'reorder_delivery' as const, count: 1, operation: 'customer.subscription.created' }] },
  ])

// A trial ended now: its two updates (trial_end moved, then active) share a second; the first is
// delivered after the second.
const trialEndCrossed: fc.Arbitrary<readonly EpisodeStep[]> = sub.map((n) => [
  {
    step: { kind: 'end_trial' as const, sub: n },
    faults: [{ fault: 'reorder_delivery' as const, count: 1, operation: 'customer.subscription.updated' }],
  },
])

// Seats changed, the update delivered twice (a retry after a lost answer).
const seatsTwice: fc.Arbitrary<readonly EpisodeStep[]> = fc
  .record({ kind: fc.constant('change_quantity' as const), sub, quantity: fc.integer({ min: 1, max: 5 }) })
  .map((step: FlowStep) => [
    { step, faults: [{ fault: 'duplicate_delivery' as const, count: 1, operation: 'customer.subscription.updated' }] },
  ])

// Two changes of one subscription, the first delivered hours after the second.
const changeOvertaken: fc.Arbitrary<readonly EpisodeStep[]> = fc
  .record({ n: sub, quantity: fc.integer({ min: 1, max: 5 }), plan: fc.nat({ max: 2 }) })
  .map(({ n, quantity, plan }) => [
    {
      step: { kind: 'change_quantity' as const, sub: n, quantity },
      faults: [{ fault: 'reorder_delivery' as const, count: 1, operation: 'customer.subscription.updated', delay: HOURS_LATE }],
    },
    { kind: 'change_plan' as const, sub: n, plan },
  ])

// Two changes of the newest subscription that each make an event whatever it holds (set to cancel
// at period end, then resumed), the first delivered hours late; and the app's next two requests
// (its reads of the subscription, of the event, whatever it reads) fail while it arrives: an app
// that writes the delivered payload when its read fails writes the older state last; one that
// answers 5xx is sent it again and reads it. The reads fail from a step of waiting, which makes no
// request of its own (a change step reads the subscription first and would use them up).
const lateChangeReadsFail: fc.Arbitrary<readonly EpisodeStep[]> = fc.constant([
  {
    step: { kind: 'cancel' as const, sub: -1, atPeriodEnd: true },
    faults: [{ fault: 'reorder_delivery' as const, count: 1, operation: 'customer.subscription.updated', delay: HOURS_LATE }],
  },
  { kind: 'resume' as const, sub: -1 },
  {
    step: { kind: 'advance' as const, ms: 3 * 3_600_000 },
    faults: [{ fault: 'server_error' as const, count: 2 }],
  },
])

// Two changes of one subscription in one second (a plan then its seats, seats then a cancellation,
// a cancellation at period end then undone), the first handled before the second is made: both
// events carry the same `created`, so an app that orders or deduplicates by it drops the second.
const sameSecond: fc.Arbitrary<readonly EpisodeStep[]> = fc
  .record({
    n: fc.constantFrom(-1, -1, 0, 1),
    plan: fc.nat({ max: 2 }),
    quantity: fc.integer({ min: 1, max: 5 }),
    pair: fc.constantFrom('plan-seats', 'seats-cancel', 'cancel-resume'),
    settleMs: fc.constantFrom(0, 400),
  })
  .map(({ n, plan, quantity, pair, settleMs }): readonly EpisodeStep[] =>
    pair === 'plan-seats'
      ? [
          { kind: 'change_plan', sub: n, plan, settleMs },
          { kind: 'change_quantity', sub: n, quantity },
        ]
      : pair === 'seats-cancel'
        ? [
            { kind: 'change_quantity', sub: n, quantity, settleMs },
            { kind: 'cancel', sub: n, atPeriodEnd: false },
          ]
        : [
            { kind: 'cancel', sub: n, atPeriodEnd: true, settleMs },
            { kind: 'resume', sub: n },
          ],
  )

// A new subscription paid at once, its invoice.paid delivered hours late, after the customer
// canceled: an app that takes a paid invoice for an active subscription brings it back.
const paidAfterCanceled: fc.Arbitrary<readonly EpisodeStep[]> = fc
  .record({
    kind: fc.constant('subscribe' as const),
    customer: fc.constantFrom(2, 1),
    plan: fc.nat({ max: 2 }),
    quantity: fc.integer({ min: 1, max: 5 }),
    trialDays: fc.constant(0),
  })
  .map((step: FlowStep) => [
    { step, faults: [{ fault: 'reorder_delivery' as const, count: 1, operation: 'invoice.paid', delay: HOURS_LATE }] },
    { kind: 'cancel' as const, sub: -1, atPeriodEnd: false },
  ])

// The newest subscription set to cancel at period end (access is due until the period ends), or
// paused (`customer.subscription.paused`: no access while paused), then resumed days later
// (`customer.subscription.resumed`) or left paused; the cancellation half the time.
const cancelAtPeriodEnd: fc.Arbitrary<readonly EpisodeStep[]> = fc.constantFrom<readonly EpisodeStep[]>(
  [{ kind: 'cancel', sub: -1, atPeriodEnd: true }],
  [{ kind: 'cancel', sub: -1, atPeriodEnd: true }],
  [{ kind: 'x:pause', sub: -1 }],
  [
    { kind: 'x:pause', sub: -1 },
    { kind: 'advance', ms: 3 * DAY },
    { kind: 'x:unpause', sub: -1 },
  ],
)

// A subscription whose first payment fails (`incomplete`), for a customer the other steps rarely
// subscribe (no other subscription grants access); then paid, left to expire after 23 hours, or
// left as it is.
const firstPaymentFails: fc.Arbitrary<readonly EpisodeStep[]> = fc
  .record({
    customer: fc.constantFrom(2, 1),
    plan: fc.nat({ max: 2 }),
    quantity: fc.integer({ min: 1, max: 5 }),
    after: fc.constantFrom('recover', 'expire', 'none'),
  })
  .map(({ customer: c, plan, quantity, after }): readonly EpisodeStep[] => [
    { kind: 'fail_card', customer: c },
    { kind: 'subscribe', customer: c, plan, quantity, trialDays: 0 },
    ...(after === 'recover'
      ? [{ kind: 'recover' as const, customer: c }]
      : after === 'expire'
        ? [{ kind: 'advance' as const, ms: DAY }]
        : []),
  ])

// What reaches the newest subscription after the app is redeployed: a change (a delivery the new
// instance handles first), or its latest event sent again.
const changeOfNewest: fc.Arbitrary<FlowStep> = fc.oneof(
  fc.record({ kind: fc.constant('change_quantity' as const), sub: fc.constant(-1), quantity: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ kind: fc.constant('change_plan' as const), sub: fc.constant(-1), plan: fc.nat({ max: 2 }) }),
  fc.constant({ kind: 'redeliver' as const, aim: 'customer.subscription.' }),
)

// The app redeployed between two deliveries about a live subscription (what it remembers in memory
// only, a welcome sent or an event processed, is gone), the signing secret rolled and the next
// deliveries signed with both secrets while the app still holds the old one, before its redeploy,
// or an attacker's forged delivery about a subscription.
const deployedMidway: fc.Arbitrary<readonly EpisodeStep[]> = fc.oneof(
  fc.tuple(fc.constant({ kind: 'redeploy' as const }), changeOfNewest),
  fc.tuple(
    fc.record({
      kind: fc.constant('roll_secret' as const),
      redeployAfterMs: fc.constantFrom(10 * 60_000, 3_600_000, 20 * 3_600_000),
    }),
    changeOfNewest,
  ),
  fc
    .record({
      kind: fc.constant('forge' as const),
      forgery: fc.constantFrom(...FLOW_FORGERIES),
      aim: fc.constant('customer.subscription.'),
    })
    .map((step: FlowStep) => [step]),
)

/**
 * The episodes of a subscription mirror's flows, each drawn as one: a card starting to fail and
 * the renewal it fails (access past a grace), the newest subscription set to cancel at period end
 * (access kept until then; subscription -1 is the newest) or paused (no access while `paused`)
 * and resumed days later or left so, a new subscription's first payment
 * failing (no access while `incomplete`), and the orderings the mirror's rules depend on: a new
 * subscription's `created` event delivered after the update of the same second that activated it,
 * a trial's two updates of one second crossed, a seat change delivered twice, and a change
 * delivered hours after the next change of the same subscription, a new subscription's
 * `invoice.paid` delivered hours after it was canceled, two changes of one subscription made in
 * the same second, the first handled before the second (one `created` for both; a third of the
 * orderings), and a late change arriving while the app's reads fail; and what happens to the app
 * between two deliveries (a redeploy, a secret roll before the app is redeployed with the new
 * secret, a forged delivery). The failing renewal, the orderings and the app's redeploys are each
 * drawn twice as often as the cancellation or pause or the failing first payment.
 *
 * @example
 * const workload = { episodes: mirrorEpisodes(), episodeShare: 0.3 }
 */
export function mirrorEpisodes(): fc.Arbitrary<readonly EpisodeStep[]>[] {
  const ordering = fc.oneof(
    { weight: 2, arbitrary: createdAfterActivation },
    { weight: 1, arbitrary: trialEndCrossed },
    { weight: 1, arbitrary: seatsTwice },
    { weight: 1, arbitrary: changeOvertaken },
    { weight: 1, arbitrary: paidAfterCanceled },
    // Three times as often as one other ordering: the pair is drawn often without taking draws
    // from the other episodes.
    { weight: 3, arbitrary: sameSecond },
  )
  // Listed twice: drawn twice as often.
  return [
    failingRenewal,
    failingRenewal,
    cancelAtPeriodEnd,
    ordering,
    ordering,
    firstPaymentFails,
    lateChangeReadsFail,
    deployedMidway,
    deployedMidway,
  ]
}

/**
 * The shape of generated subscription mirror flows: the built-in subscription steps, with
 * `mirrorEpisodes` as half of the draws, the rest single steps; `base` overrides any of it.
 *
 * @example
 * fc.sample(flowProgram(mirrorWorkload()), 1)
 */
export function mirrorWorkload(base: FlowWorkload = {}): FlowWorkload {
  if (base !== undefined) refuseArgument('mirrorWorkload', 'base', base, 'object')
  return { episodes: mirrorEpisodes(), episodeShare: 0.5, ...base }
}
