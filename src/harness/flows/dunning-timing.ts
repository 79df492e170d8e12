import fc from 'fast-check'
import { customerOf, type FlowAction } from './flow-actions.js'
import type { EpisodeStep } from './flow-episodes.js'
import type { FlowStep } from './flow-program.js'
import { guardedActions } from './guarded-actions.js'

const DAY = 86_400_000
const HOUR = 3_600_000

// Most stories meet the first customer, as the other dunning steps do.
const customer = fc.constantFrom(0, 0, 0, 0, 1)
const subscribe = (c: number) =>
  fc.record({
    kind: fc.constant('subscribe' as const),
    customer: fc.constant(c),
    plan: fc.nat({ max: 2 }),
    quantity: fc.integer({ min: 1, max: 3 }),
    trialDays: fc.constant(0),
  })

/**
 * From just past a renewal's first attempt to past its third (3 then 5 days later) and every
 * redelivery of that one's failure (the sandbox retries a delivery for about three hours).
 */
const PAST_THIRD_ATTEMPT_MS = 8 * DAY + 6 * HOUR
/** From there to past the fourth and last automatic attempt (7 days after the third). */
const PAST_LAST_ATTEMPT_MS = 7 * DAY

// A renewal failing on every automatic attempt while the app's endpoint is down through some of
// them: down through the first three (their deliveries given up on) and up for the last, so the
// first failure the app hears of is the one without a next attempt (`next_payment_attempt` null);
// or up for the first three and down through the last. Drawn as often as one order as the other.
const receiverDownAcrossRetries: fc.Arbitrary<readonly EpisodeStep[]> = customer.chain((c) =>
  fc.tuple(subscribe(c), fc.constantFrom('early', 'early', 'last')).map(([s, down]): readonly EpisodeStep[] => {
    const renewal: FlowStep = { kind: 'x:renewal', customer: c }
    const third: FlowStep = { kind: 'advance', ms: PAST_THIRD_ATTEMPT_MS }
    const last: FlowStep = { kind: 'advance', ms: PAST_LAST_ATTEMPT_MS }
    const up: FlowStep = { kind: 'advance', ms: DAY }
    const fail: FlowStep = { kind: 'fail_card', customer: c }
    if (down === 'early')
      return [
        s,
        fail,
        { step: renewal, faults: [{ fault: 'receiver_down', count: 1 }] },
        third,
        { step: last, faults: [{ fault: 'receiver_up', count: 1 }] },
      ]
    return [
      s,
      fail,
      renewal,
      third,
      { step: last, faults: [{ fault: 'receiver_down', count: 1 }] },
      { step: up, faults: [{ fault: 'receiver_up', count: 1 }] },
    ]
  }),
)

// Two subscriptions of one customer made in the same second (a plan and an add-on bought
// together), renewing together on a failing card: two `invoice.payment_failed` of one customer
// share `created`, and so do the two `invoice.paid` when the customer pays at once or fixes the card
// before the next retry.
const renewingTogether: fc.Arbitrary<readonly EpisodeStep[]> = customer.chain((c) =>
  fc
    .tuple(subscribe(c), subscribe(c), fc.constantFrom(0, 400), fc.constantFrom('recover', 'retry', 'none'))
    .map(([first, second, settleMs, then]): readonly EpisodeStep[] => [
      { ...first, settleMs },
      second,
      { kind: 'fail_card', customer: c },
      { kind: 'x:renewal', customer: c },
      ...(then === 'recover'
        ? [{ kind: 'recover' as const, customer: c }]
        : then === 'retry'
          ? [
              { kind: 'x:update_card' as const, customer: c },
              { kind: 'advance' as const, ms: 3 * DAY },
            ]
          : []),
    ]),
)

// An automatic retry failing and, in the same second, the customer paying or the business writing
// the invoice off (as the provider's own "mark uncollectible once every retry failed" does): two
// events of one invoice share `created`. The retry is the second attempt or, past the third, the last.
const retryMeetsPayment: fc.Arbitrary<readonly EpisodeStep[]> = customer.chain((c) =>
  fc
    .tuple(subscribe(c), fc.boolean(), fc.constantFrom('recover' as const, 'x:write_off' as const))
    .map(([s, last, then]): readonly EpisodeStep[] => [
      s,
      { kind: 'fail_card', customer: c },
      { kind: 'x:renewal', customer: c },
      ...(last ? [{ kind: 'advance' as const, ms: PAST_THIRD_ATTEMPT_MS }] : []),
      // The clock stops at the end of the retry's second: the next step is back to back.
      { kind: 'x:next_attempt', customer: c, settleMs: 0 },
      { kind: then, customer: c },
    ]),
)

/**
 * The dunning stories about when deliveries reach the app: a renewal failing on every automatic
 * attempt while the app's endpoint is down through the first three and up for the last (the
 * first failure it hears of names no next attempt), or up for those and down for the last;
 * two subscriptions of one customer made in one second failing and paid together (two events of one
 * type and customer share `created`); and an automatic retry failing in the same second as the
 * customer pays or the business writes the invoice off (two events of one invoice share `created`).
 *
 * @example
 * const workload = { episodes: [...dunningEpisodes(), ...dunningTimingEpisodes()] }
 */
export function dunningTimingEpisodes(): fc.Arbitrary<readonly EpisodeStep[]>[] {
  // A pair of one invoice three times as often as a pair of one type: a coarser key is met by a
  // payment of two open invoices at once already.
  const sameSecond = fc.oneof({ weight: 1, arbitrary: renewingTogether }, { weight: 3, arbitrary: retryMeetsPayment })
  // Each listed twice: drawn twice as often as one other dunning story.
  return [receiverDownAcrossRetries, receiverDownAcrossRetries, sameSecond, sameSecond]
}

/**
 * The action of `x:next_attempt`: the clock moved to the end of the second in which the customer's
 * next automatic retry runs (the earliest `next_payment_attempt` of its open invoices), so the
 * retry has run and a step after it with `settleMs` under a second shares its second.
 *
 * @example
 * await dunningTimingActions['x:next_attempt']?.(ctx, { kind: 'x:next_attempt', customer: 0 })
 */
export const dunningTimingActions: Readonly<Record<string, FlowAction>> = guardedActions('dunningActions', {
  async 'x:next_attempt'(ctx, step) {
    const n = (step as { readonly customer?: unknown }).customer
    const open = await ctx.api(
      'GET',
      `/v1/invoices?customer=${customerOf(ctx, typeof n === 'number' ? n : 0)}&status=open&limit=100`,
    )
    const now = ctx.sim.clock.now
    // The retry runs at a millisecond of the second its `next_payment_attempt` names: past it by the end of that second.
    const due = ((open.body.data as { next_payment_attempt?: unknown }[] | undefined) ?? [])
      .flatMap((inv) => (typeof inv.next_payment_attempt === 'number' ? [inv.next_payment_attempt * 1000 + 999] : []))
      .filter((t) => t >= now)
    if (due.length === 0) return 'no retry due'
    await ctx.advance?.(Math.min(...due) - now)
    return undefined
  },
})
