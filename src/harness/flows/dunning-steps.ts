import fc from 'fast-check'
import type { FaultKind } from '#faults/index.js'
import { refuseArgument } from '../refuse-argument.js'
import { dunningTimingActions, dunningTimingEpisodes } from './dunning-timing.js'
import { customerOf, type FlowAction, type FlowActionContext, setDefaultCard } from './flow-actions.js'
import type { EpisodeStep } from './flow-episodes.js'
import { type FlowStep, type FlowWorkload, flowFaultKinds } from './flow-program.js'
import { guardedActions } from './guarded-actions.js'

const DAY = 86_400_000

// Most steps meet the first customer, so its subscriptions fail together (several cycles at once).
const customer = fc.constantFrom(0, 0, 0, 0, 1)
const sub = fc.constantFrom(0, 0, 1, 2)

const renewal = fc.record({ kind: fc.constant('advance' as const), ms: fc.constant(32 * DAY) })
const retry = fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(3 * DAY, 5 * DAY, 7 * DAY) })
const failCard = fc.record({ kind: fc.constant('fail_card' as const), customer })
const updateCard = fc.record({ kind: fc.constant('x:update_card' as const), customer })
const recover = fc.record({ kind: fc.constant('recover' as const), customer })
const writeOff = fc.record({ kind: fc.constant('x:write_off' as const), customer })

const subscribe = fc.record({
  kind: fc.constant('subscribe' as const),
  customer,
  plan: fc.nat({ max: 2 }),
  quantity: fc.integer({ min: 1, max: 3 }),
  trialDays: fc.constantFrom(0, 0, 0, 3),
})

/**
 * The dunning steps: subscriptions (mostly without a trial), the default card switched to one
 * whose charges fail, renewals (a billing period passing), the clock moved across the automatic
 * retry schedule (3, 5 and 7 days apart), the card fixed so the next retry pays
 * (`x:update_card`), the open invoices paid at once (`recover`), the business writing a
 * customer's open invoices off (`x:write_off`, `invoice.marked_uncollectible`), and the occasional
 * trial end and cancellation. Built-in step kinds are drawn here with dunning's own weights.
 *
 * @example
 * const workload = { extraSteps: dunningSteps(), builtInSteps: false }
 */
export function dunningSteps(): fc.Arbitrary<FlowStep>[] {
  // Every extra step has the same weight: listed twice, a kind is drawn twice as often.
  return [
    subscribe,
    subscribe,
    failCard,
    failCard,
    renewal,
    renewal,
    retry,
    retry,
    updateCard,
    recover,
    writeOff,
    fc.record({ kind: fc.constant('end_trial' as const), sub }),
    fc.record({ kind: fc.constant('cancel' as const), sub, atPeriodEnd: fc.boolean() }),
  ]
}

// A failure delivered days late (a backlog on the provider's side) and the invoice paid meanwhile:
// the first failure the app sees is for a paid invoice. Either a renewal's (the clock stops just
// past it, so the payment comes first wherever in its period the customer was; the customer
// subscribes on a card that pays first, so it has a renewal whatever the steps before did) or a
// new subscription's first payment, made on the failing card.
const lateFailure = customer.chain((c) => {
  const fail = { kind: 'fail_card' as const, customer: c }
  const late = { kind: 'x:late_failure' as const }
  const pays = [
    { kind: 'recover' as const, customer: c },
    { kind: 'advance' as const, ms: 7 * DAY },
  ] as const
  const subscribes = subscribe.map((s) => ({ ...s, customer: c }))
  return fc.oneof(
    subscribes.map((s): readonly FlowStep[] => [
      { kind: 'x:update_card', customer: c },
      s,
      fail,
      late,
      { kind: 'x:renewal', customer: c },
      ...pays,
    ]),
    subscribes.map((s): readonly FlowStep[] => [fail, late, { ...s, trialDays: 0 }, ...pays]),
  )
})

// Collection gives up on one invoice while the customer pays the next (a renewal on a fixed card,
// or a new subscription): the written-off one is still owed, the account still restricted.
const paidBesideWrittenOff = customer.chain((c) =>
  fc.tuple(
    subscribe.map((s) => ({ ...s, customer: c })),
    fc.constant({ kind: 'fail_card' as const, customer: c }),
    renewal,
    fc.constant({ kind: 'x:write_off' as const, customer: c }),
    fc.constant({ kind: 'x:update_card' as const, customer: c }),
    fc.oneof(
      fc.constant({ kind: 'x:renewal' as const, customer: c }),
      subscribe.map((s) => ({ ...s, customer: c, trialDays: 0 })),
    ),
  ),
)

/** How late a written-off invoice's `invoice.marked_uncollectible` may reach the app: past its payment. */
const LATE_WRITE_OFF_MS = 2 * 3_600_000

// Collection gives up and the customer pays at once, while the write-off's delivery runs two hours
// late (a backlog): it reaches the app after the payment and must not restrict the account again.
const lateWriteOff = customer.chain((c) =>
  fc.tuple(
    fc.constant({ kind: 'fail_card' as const, customer: c }),
    renewal,
    fc.constant<EpisodeStep>({
      step: { kind: 'x:write_off', customer: c },
      faults: [{ fault: 'delay_delivery', count: 1, delay: LATE_WRITE_OFF_MS, operation: 'invoice.marked_uncollectible' }],
    }),
    fc.constant({ kind: 'recover' as const, customer: c }),
  ),
)

// The app redeployed while a failure is retried: what it remembers must outlive the process.
const redeployedWhileRetried = customer.chain((c) =>
  fc.tuple(
    fc.constant({ kind: 'fail_card' as const, customer: c }),
    renewal,
    fc.constant({ kind: 'redeploy' as const }),
    fc.constant({ kind: 'redeliver' as const, aim: 'invoice.payment_failed' }),
  ),
)

// Collection gives up, and the business then forgives the debt: the written-off invoice voided. The
// customer subscribes first, so it has a renewal to fail whatever the steps before did.
const forgiven = customer.chain((c) =>
  fc.tuple(
    subscribe.map((s) => ({ ...s, customer: c, trialDays: 0 })),
    fc.constant({ kind: 'fail_card' as const, customer: c }),
    renewal,
    fc.constant({ kind: 'x:write_off' as const, customer: c }),
    fc.constant({ kind: 'x:void' as const, customer: c }),
  ),
)

/** Past the whole automatic retry schedule (3, 5 and 7 days) from a renewal's first attempt. */
const RETRIES_RUN_OUT_MS = 16 * DAY

// The renewal fails and every automatic retry after it: the last failure has no next attempt
// (`next_payment_attempt` null), yet nobody wrote the invoice off: it stays open and payable, the
// subscription past due, so collection has not given up and the account must not be restricted.
const retriesRunOut = customer.chain((c) =>
  fc.tuple(
    fc.constant({ kind: 'fail_card' as const, customer: c }),
    renewal,
    fc.constant({ kind: 'advance' as const, ms: RETRIES_RUN_OUT_MS }),
  ),
)

/**
 * The episodes of a dunning flow, each a short story drawn as one: a card starting to fail and
 * the renewal it fails; the card fixed and the retry it pays; the clock through the retry
 * schedule; a whole cycle (fails at renewal, fixed, paid by the next retry, or paid at once); a
 * failure delivered days after the invoice was paid (a renewal's or a first payment's), drawn three
 * times as often as one other; collection given up on one invoice while the customer pays the
 * next, three times as often; a written-off invoice paid or voided (the debt forgiven); one
 * written off and paid at once, its write-off delivered after the payment, twice as often; and a new subscription's failed renewal written off and voided; every automatic retry of a renewal failing with nobody writing the invoice off (the last failure without a next attempt is no write-off); and the app redeployed while a failure is retried, twice as often; and `dunningTimingEpisodes`
 * (the app's endpoint down through some automatic retries of a renewal, events sharing a second).
 * Each step keeps its own faults and shrinks alone.
 *
 * @example
 * const workload = { episodes: dunningEpisodes() }
 */
export function dunningEpisodes(): fc.Arbitrary<readonly EpisodeStep[]>[] {
  const failsAtRenewal = fc.tuple(failCard, renewal)
  return [
    failsAtRenewal,
    failsAtRenewal,
    fc.tuple(updateCard, retry),
    fc.tuple(retry, retry),
    // A second invoice failing while the first is still open (two periods on a failing card), or
    // every retry of the first failing with nobody writing it off.
    fc.oneof(
      customer.chain((c) => fc.tuple(fc.constant({ kind: 'fail_card' as const, customer: c }), renewal, renewal)),
      retriesRunOut,
    ),
    // Paid while its failure is still on its way: the failure's notice arrives after the payment,
    // sent again (a resend, the same event) or for the first time (its delivery running late).
    customer.chain((c) =>
      fc.tuple(
        fc.constant({ kind: 'fail_card' as const, customer: c }),
        renewal,
        fc.constant({ kind: 'recover' as const, customer: c }),
        fc.constant({ kind: 'redeliver' as const, aim: 'invoice.payment_failed' }),
      ),
    ),
    lateFailure,
    lateFailure,
    lateFailure,
    redeployedWhileRetried,
    redeployedWhileRetried,
    // Collection gives up and stays given up: the account must end restricted.
    customer.chain((c) =>
      fc.tuple(
        fc.constant({ kind: 'fail_card' as const, customer: c }),
        renewal,
        fc.constant({ kind: 'x:write_off' as const, customer: c }),
      ),
    ),
    paidBesideWrittenOff,
    paidBesideWrittenOff,
    paidBesideWrittenOff,
    // Collection gives up: the invoice written off, later paid or voided (the debt forgiven).
    customer.chain((c) =>
      fc.tuple(
        fc.constant({ kind: 'fail_card' as const, customer: c }),
        renewal,
        fc.constant({ kind: 'x:write_off' as const, customer: c }),
        fc.constantFrom({ kind: 'recover' as const, customer: c }, { kind: 'x:void' as const, customer: c }),
      ),
    ),
    lateWriteOff,
    lateWriteOff,
    forgiven,
    customer.chain((c) =>
      fc.oneof(
        fc.tuple(
          fc.constant({ kind: 'fail_card' as const, customer: c }),
          renewal,
          fc.constant({ kind: 'x:update_card' as const, customer: c }),
          retry,
        ),
        fc.tuple(
          fc.constant({ kind: 'fail_card' as const, customer: c }),
          renewal,
          fc.constant({ kind: 'recover' as const, customer: c }),
        ),
      ),
    ),
    ...dunningTimingEpisodes(),
  ]
}

/**
 * How late the provider delivers the failures of a cycle after `x:late_failure`: past a payment
 * made when the renewal's billing period is over, whatever the month's length.
 */
const LATE_FAILURE_MS = 5 * DAY

/**
 * How far past the period end `x:renewal` stops: the renewal's invoice is finalized and charged
 * after the provider's grace hour, so a minute after that its charge is made and its deliveries are
 * on their way.
 */
const RENEWAL_PAST_MS = 61 * 60_000

const RENEWING = new Set(['active', 'trialing', 'past_due'])

/** Period ends (Unix seconds) of a customer's subscriptions that still renew. */
async function periodEnds(ctx: FlowActionContext, customer: string): Promise<number[]> {
  const listed = await ctx.api('GET', `/v1/subscriptions?customer=${customer}&limit=100`)
  const subs = (listed.body.data as Record<string, unknown>[] | undefined) ?? []
  return subs.flatMap((s) => {
    if (!RENEWING.has(String(s.status))) return []
    const item = ((s.items as { data?: Record<string, unknown>[] } | undefined)?.data ?? [])[0]
    const end = s.status === 'trialing' ? s.trial_end : (item?.current_period_end ?? s.current_period_end)
    return typeof end === 'number' ? [end] : []
  })
}

/**
 * The actions of the dunning steps' own kinds: `x:update_card` makes a card that pays the
 * customer's default and pays nothing (the invoice's next automatic retry does); `x:write_off`
 * marks the customer's open invoices uncollectible (the business giving up on collection);
 * `x:void` voids the customer's written-off invoices (the business forgiving the debt);
 * `x:late_failure` makes the provider's next three `invoice.payment_failed` deliveries run five
 * days late (a backlog on its side), so a payment made meanwhile is delivered first;
 * `x:renewal` moves the clock to just past the customer's next renewal (the earliest period or
 * trial end of its active, trialing or past-due subscriptions, and the provider's grace hour before
 * it charges), so the next step meets the renewal's deliveries still on their way.
 *
 * @example
 * await dunningActions['x:update_card']?.(ctx, { kind: 'x:update_card', customer: 0 })
 */
export const dunningActions: Readonly<Record<string, FlowAction>> = guardedActions('dunningActions', {
  ...dunningTimingActions,
  async 'x:update_card'(ctx, step) {
    const n = (step as { readonly customer?: unknown }).customer
    await setDefaultCard(ctx, customerOf(ctx, typeof n === 'number' ? n : 0), 'pm_card_visa')
    return undefined
  },
  async 'x:renewal'(ctx, step) {
    const n = (step as { readonly customer?: unknown }).customer
    const now = ctx.sim.clock.now
    const ends = (await periodEnds(ctx, customerOf(ctx, typeof n === 'number' ? n : 0)))
      .map((s) => s * 1000)
      .filter((t) => t > now)
    if (ends.length === 0) return 'no renewal due'
    await ctx.advance?.(Math.min(...ends) - now + RENEWAL_PAST_MS)
    return undefined
  },
  async 'x:late_failure'(ctx) {
    ctx.sim.admin.injectFault({ fault: 'delay_delivery', count: 3, delay: LATE_FAILURE_MS, operation: 'invoice.payment_failed' })
    return undefined
  },
  async 'x:void'(ctx, step) {
    const n = (step as { readonly customer?: unknown }).customer
    const off = await ctx.api(
      'GET',
      `/v1/invoices?customer=${customerOf(ctx, typeof n === 'number' ? n : 0)}&status=uncollectible&limit=100`,
    )
    const invoices = (off.body.data as { id?: unknown }[] | undefined) ?? []
    for (const inv of invoices) await ctx.api('POST', `/v1/invoices/${String(inv.id)}/void`)
    return invoices.length === 0 ? 'no written-off invoice' : undefined
  },
  async 'x:write_off'(ctx, step) {
    const n = (step as { readonly customer?: unknown }).customer
    const open = await ctx.api(
      'GET',
      `/v1/invoices?customer=${customerOf(ctx, typeof n === 'number' ? n : 0)}&status=open&limit=100`,
    )
    const invoices = (open.body.data as { id?: unknown }[] | undefined) ?? []
    for (const inv of invoices) await ctx.api('POST', `/v1/invoices/${String(inv.id)}/mark_uncollectible`)
    return invoices.length === 0 ? 'no open invoice' : undefined
  },
})

// Half of the draws are stories: most dunning mistakes show only in one (a cycle paid, a
// failure late, a write-off beside a payment, a redeploy while retried).
const DUNNING_EPISODE_SHARE = 0.5

// Duplicates and reorders of the invoice events are what dunning code gets wrong: drawn more often.
const DUNNING_FAULT_KINDS: readonly FaultKind[] = [
  ...flowFaultKinds,
  'duplicate_delivery',
  'duplicate_delivery',
  'duplicate_delivery',
  'reorder_delivery',
  'reorder_delivery',
]

/**
 * The shape of generated dunning flows: first a subscription, then the dunning steps and clock
 * moves, `dunningEpisodes` as half of the draws, with every flow fault kind (duplicates and reorders more often) aimed at the invoice
 * events as often as not.
 *
 * @example
 * fc.sample(flowProgram(dunningWorkload()), 1)
 */
export function dunningWorkload(base: FlowWorkload = {}): FlowWorkload {
  if (base !== undefined) refuseArgument('dunningWorkload', 'base', base, 'object')
  return {
    ...base,
    builtInSteps: base.builtInSteps ?? false,
    // A dunning story (subscribe, a failing card, a renewal, retries, a fix) needs several steps.
    minSteps: base.minSteps ?? 4,
    maxSteps: base.maxSteps ?? 16,
    firstStep: base.firstStep ?? subscribe,
    extraSteps: [...dunningSteps(), ...(base.extraSteps ?? [])],
    episodes: base.episodes ?? dunningEpisodes(),
    episodeShare: base.episodeShare ?? DUNNING_EPISODE_SHARE,
    faultKinds: base.faultKinds ?? DUNNING_FAULT_KINDS,
    faultAims: base.faultAims ?? [
      'invoice.payment_failed',
      'invoice.paid',
      'invoice.payment_',
      'invoice.marked_uncollectible',
      'invoice.voided',
    ],
  }
}
