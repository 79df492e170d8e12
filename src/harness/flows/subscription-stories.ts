import { eventObjectKind, objectTypes } from './event-object.js'
import type { CoverageTarget } from './flow-graft.js'
import type { FlowStep } from './flow-program.js'

// The subscription stories the built programs start from (the mirror's and dunning's flows): what
// brings a subscription and its latest invoice to each state.

const DAY = 86_400_000
// How old an event the dashboard still resends.
const RESEND_MS = 15 * DAY

/**
 * A short story that brings a subscription and its latest invoice to a state: its steps, the
 * 1-based step at which each event type (a prefix) is first made about the objects it ends with,
 * and the state each kind of object ends in.
 *
 * @example
 * const story: Story = { steps: [failing, subscribe()], makes: { 'invoice.': 2 }, ends: { invoice: 'open' } }
 */
export interface Story {
  readonly steps: readonly FlowStep[]
  readonly makes: Readonly<Record<string, number>>
  readonly ends: Readonly<Record<string, string>>
  /** The step that makes the latest event of a type (a prefix) about those objects, where not the first. */
  readonly again?: Readonly<Record<string, number>>
}

const subscribe = (trialDays = 0): FlowStep => ({ kind: 'subscribe', customer: 0, plan: 1, quantity: 1, trialDays })
const seats: FlowStep = { kind: 'change_quantity', sub: -1, quantity: 2 }
const failing: FlowStep = { kind: 'fail_card', customer: 0 }
const renewal: FlowStep = { kind: 'advance', ms: 32 * DAY }
// The business writing the customer's open invoices off (a dunning flow's own step).
const writeOff: FlowStep = { kind: 'x:write_off', customer: 0 }
const PAID = { invoice: 'paid', payment_intent: 'succeeded', charge: 'succeeded', invoice_payment: 'paid' }
// A new subscription paid at once: every kind of object its first step makes.
const STARTED = {
  'customer.subscription.created': 1,
  'customer.subscription.updated': 2,
  'invoice.': 1,
  'payment_intent.': 1,
  'charge.': 1,
  'invoice_payment.': 1,
}

/** The stories, by the states they end in (subscription, then its latest invoice and payment). */
const WITH_SEATS: readonly Story[] = [
  { steps: [subscribe(), seats], makes: STARTED, ends: { subscription: 'active', ...PAID } },
  // A trial's first invoice is for nothing: paid with no payment or charge.
  { steps: [subscribe(14), seats], makes: STARTED, ends: { subscription: 'trialing', invoice: 'paid' } },
  // A trial shorter than three days: its end is announced (trial_will_end) as it is made.
  {
    steps: [subscribe(3), seats],
    makes: { ...STARTED, 'customer.subscription.trial_will_end': 1 },
    ends: { subscription: 'trialing', invoice: 'paid' },
  },
  {
    // The seat change's proration is pending when the cancellation deletes it.
    steps: [subscribe(), seats, { kind: 'cancel', sub: -1, atPeriodEnd: false }],
    makes: { ...STARTED, 'customer.subscription.deleted': 3, 'invoiceitem.': 2, 'invoiceitem.deleted': 3 },
    ends: { subscription: 'canceled', ...PAID, invoiceitem: 'none' },
  },
  {
    // The renewal makes the invoice left open, its payment and charge.
    steps: [subscribe(), seats, failing, renewal],
    makes: { ...STARTED, 'invoice.': 4, 'payment_intent.': 4, 'charge.': 4 },
    again: { 'customer.subscription.updated': 4 },
    ends: { subscription: 'past_due', invoice: 'open', payment_intent: 'requires_payment_method', charge: 'failed' },
  },
  {
    // The renewal fails and the invoice's automatic retry fails too, days later: a later failure about it.
    steps: [subscribe(), failing, renewal, { kind: 'advance', ms: 7 * DAY }],
    makes: { 'customer.subscription.': 1, 'invoice.': 3, 'payment_intent.': 3, 'charge.': 3 },
    again: { 'customer.subscription.updated': 3, 'invoice.payment_failed': 4, 'payment_intent.payment_failed': 4 },
    ends: { subscription: 'past_due', invoice: 'open', payment_intent: 'requires_payment_method', charge: 'failed' },
  },
  {
    // The renewal fails, then the customer pays: a failure notice still on its way meets a paid invoice.
    // The subscription goes past due at the renewal and active again when paid.
    steps: [subscribe(), failing, renewal, { kind: 'recover', customer: 0 }],
    makes: { 'customer.subscription.': 1, 'invoice.': 3, 'payment_intent.': 3, 'charge.': 3 },
    again: { 'customer.subscription.updated': 4 },
    ends: { subscription: 'active', ...PAID },
  },
  {
    // A subscription whose first payment fails is created incomplete and not updated.
    steps: [failing, subscribe()],
    makes: { 'customer.subscription.created': 2, 'invoice.': 2, 'payment_intent.': 2, 'charge.': 2 },
    ends: { subscription: 'incomplete', invoice: 'open', payment_intent: 'requires_payment_method', charge: 'failed' },
  },
  {
    steps: [failing, subscribe(), { kind: 'advance', ms: DAY }],
    // The day's end voids the invoice and cancels its payment.
    makes: {
      'customer.subscription.created': 2,
      'customer.subscription.updated': 3,
      'invoice.': 2,
      'invoice.voided': 3,
      'payment_intent.': 2,
      'payment_intent.canceled': 3,
    },
    ends: { subscription: 'incomplete_expired', invoice: 'void', payment_intent: 'canceled' },
  },
]

/**
 * The story without its seat change, for a property whose flows never change seats: the steps
 * after it one earlier, the update it made then made by the subscription's own first step.
 */
function withoutSeats(story: Story): Story {
  const at = story.steps.indexOf(seats) + 1
  if (at === 0) return story
  const earlier = (steps: Readonly<Record<string, number>>) =>
    Object.fromEntries(Object.entries(steps).map(([type, step]) => [type, step >= at ? Math.max(1, step - 1) : step]))
  const makes = earlier(story.makes)
  // A subscription made with a trial is not updated as it is made: without the seats, no update.
  const first = story.steps[0]
  if (first?.kind === 'subscribe' && first.trialDays > 0 && story.makes['customer.subscription.updated'] === at)
    delete makes['customer.subscription.updated']
  const moved = { ...story, steps: story.steps.filter((x) => x !== seats), makes }
  return withoutProration(story.again === undefined ? moved : { ...moved, again: earlier(story.again) })
}

/** The story with no seat change's proration (no invoice item made, none to end in a state). */
function withoutProration(story: Story): Story {
  const { invoiceitem: _ends, ...ends } = story.ends
  const makes = Object.fromEntries(Object.entries(story.makes).filter(([type]) => !type.startsWith('invoiceitem.')))
  return { ...story, makes, ends }
}

// Cancelling at the period's end updates a subscription and leaves its status as it was.
const atPeriodEnd: FlowStep = { kind: 'cancel', sub: -1, atPeriodEnd: true }

/**
 * The story with its seat change made a cancellation at the period's end, for a property whose
 * flows never change seats: the subscription still updated at that step, its status unchanged.
 */
function endingInstead(story: Story): Story {
  return withoutProration({ ...story, steps: story.steps.map((x) => (x === seats ? atPeriodEnd : x)) })
}

// A trial's end announced (`trial_will_end`), then the trial over before a held notice arrives:
// ended and paid, ended at once (the notice sent then), or the subscription cancelled during it.
// Only the notice's step is named: every other type keeps the stories above.
const NOTICE = 'customer.subscription.trial_will_end'
const TRIAL_NOTICES: readonly Story[] = [
  { steps: [subscribe(3), { kind: 'advance', ms: 4 * DAY }], makes: { [NOTICE]: 1 }, ends: { subscription: 'active' } },
  { steps: [subscribe(14), { kind: 'end_trial', sub: -1 }], makes: { [NOTICE]: 2 }, ends: { subscription: 'active' } },
  {
    steps: [subscribe(3), { kind: 'cancel', sub: -1, atPeriodEnd: false }],
    makes: { [NOTICE]: 1 },
    ends: { subscription: 'canceled' },
  },
]

// A subscription paused (no invoices while it lasts), then resumed days later (a new period billed
// from then), and then cancelled or paused again; a paused one cancelled; a trialing one paused. Paused, it names every
// subscription type; otherwise only the notices it adds (the pause's, the resumption's, the
// trial's): every other type keeps the stories above.
const pause: FlowStep = { kind: 'x:pause', sub: -1 }
const cancelNow: FlowStep = { kind: 'cancel', sub: -1, atPeriodEnd: false }
const PAUSED = 'customer.subscription.paused'
const RESUMED = 'customer.subscription.resumed'
const PAUSES: readonly Story[] = [
  {
    steps: [subscribe(), pause],
    makes: { 'customer.subscription.': 1, [PAUSED]: 2 },
    again: { 'customer.subscription.updated': 2 },
    ends: { subscription: 'paused' },
  },
  {
    steps: [subscribe(), pause, { kind: 'advance', ms: 3 * DAY }, { kind: 'x:unpause', sub: -1 }],
    makes: { [PAUSED]: 2, [RESUMED]: 4 },
    ends: { subscription: 'active' },
  },
  {
    steps: [subscribe(), pause, { kind: 'advance', ms: 3 * DAY }, { kind: 'x:unpause', sub: -1 }, cancelNow],
    makes: { [RESUMED]: 4 },
    ends: { subscription: 'canceled' },
  },
  // Paused, then cancelled: a pause's notice still on its way meets a cancelled subscription.
  { steps: [subscribe(), pause, cancelNow], makes: { [PAUSED]: 2 }, ends: { subscription: 'canceled' } },
  // Resumed, then paused again: a resumption's notice still on its way meets a paused subscription.
  {
    steps: [subscribe(), pause, { kind: 'advance', ms: 3 * DAY }, { kind: 'x:unpause', sub: -1 }, pause],
    makes: { [RESUMED]: 4 },
    ends: { subscription: 'paused' },
  },
  // A short trial's end announced as it is made, then the subscription paused during the trial.
  { steps: [subscribe(3), pause], makes: { [NOTICE]: 1 }, ends: { subscription: 'paused' } },
]

/**
 * Every story: as written, without the seat change, and with a cancellation at the period's end instead.
 *
 * @example
 * STORIES.filter((s) => s.ends.subscription === 'paused')
 */
export const STORIES: readonly Story[] = [
  ...WITH_SEATS,
  ...WITH_SEATS.filter((x) => x.steps.includes(seats)).map(withoutSeats),
  // Not before a renewal: a subscription cancelled at its period's end does not renew.
  ...WITH_SEATS.filter((x) => x.steps.includes(seats) && x.steps.every((y) => y.kind !== 'advance')).map(endingInstead),
  // The card switched and back: the customer updated twice, its new card attached.
  {
    steps: [failing, { kind: 'recover', customer: 0 }],
    makes: { 'customer.updated': 1, 'payment_method.': 1 },
    again: { 'customer.updated': 2, 'payment_method.': 2 },
    ends: { customer: 'none', payment_method: 'none' },
  },
  // Collection given up on the failed renewal (uncollectible), then paid after all.
  {
    steps: [subscribe(), failing, renewal, writeOff],
    makes: { 'invoice.': 3, 'invoice.marked_uncollectible': 4, 'payment_intent.': 3, 'charge.': 3 },
    ends: { invoice: 'uncollectible', payment_intent: 'requires_payment_method', charge: 'failed' },
  },
  {
    steps: [subscribe(), failing, renewal, writeOff, { kind: 'recover', customer: 0 }],
    makes: { 'invoice.': 3, 'invoice.marked_uncollectible': 4, 'payment_intent.': 3, 'charge.': 3 },
    ends: PAID,
  },
  // Written off, then voided: a write-off still on its way meets a void invoice.
  {
    steps: [subscribe(), failing, renewal, writeOff, { kind: 'x:void', customer: 0 }],
    makes: { 'invoice.marked_uncollectible': 4 },
    ends: { invoice: 'void' },
  },
  // A subscription that never started (its first payment failed) updated all the same.
  {
    steps: [failing, subscribe(), atPeriodEnd],
    makes: { 'customer.subscription.created': 2, 'customer.subscription.updated': 3 },
    ends: { subscription: 'incomplete' },
  },
  // Then left to expire: an update made while it was incomplete may come after the one that expired it.
  {
    steps: [failing, subscribe(), atPeriodEnd, { kind: 'advance', ms: DAY }],
    makes: {
      'customer.subscription.created': 2,
      'customer.subscription.updated': 3,
      'invoice.': 2,
      'invoice.voided': 4,
      'payment_intent.': 2,
      'payment_intent.canceled': 4,
    },
    again: { 'customer.subscription.updated': 4 },
    ends: { subscription: 'incomplete_expired', invoice: 'void', payment_intent: 'canceled' },
  },
  // A short trial ending on a failing card: past due days after its creation, which can still be resent.
  {
    steps: [subscribe(3), failing, { kind: 'advance', ms: 4 * DAY }],
    makes: {
      'customer.subscription.created': 1,
      'customer.subscription.trial_will_end': 1,
      'customer.subscription.updated': 3,
      'invoice.': 3,
      'payment_intent.': 3,
      'charge.': 3,
    },
    ends: { subscription: 'past_due', invoice: 'open', payment_intent: 'requires_payment_method', charge: 'failed' },
  },
  ...TRIAL_NOTICES,
  ...PAUSES,
]

/**
 * The step of `story` that first makes an event of `type` (the longest prefix that names it), if any.
 *
 * @example
 * madeAt(story, 'invoice.payment_failed') // 3: the renewal
 */
export function madeAt(story: Story, type: string): number | undefined {
  const prefix = Object.keys(story.makes)
    .filter((p) => type.startsWith(p))
    .sort((a, b) => b.length - a.length)[0]
  return prefix === undefined ? undefined : story.makes[prefix]
}

/**
 * The step of `story` that makes the latest event of `type` about the objects it ends with: what a
 * resend sends again, what a redeploy must come after.
 *
 * @example
 * madeLast(story, 'customer.subscription.updated') // 3: the renewal made it past due
 */
export function madeLast(story: Story, type: string): number | undefined {
  const again = Object.entries(story.again ?? {}).find(([prefix]) => type.startsWith(prefix))?.[1]
  return again ?? madeAt(story, type)
}

/**
 * The step that makes both the first and the latest event of `type` in the story, when no step
 * before it moves the clock: holding what those steps make for a minute each makes it the run's
 * first delivery (what the attacker replays), and a resend sends that one again.
 *
 * @example
 * madeFirstAndLast({ steps: [failing, subscribe()], makes: { 'invoice.': 2 }, ends: {} }, 'invoice.created') // 2
 */
export function madeFirstAndLast(story: Story, type: string): number | undefined {
  const made = madeLast(story, type)
  if (made === undefined || madeAt(story, type) !== made) return undefined
  return story.steps.slice(0, made).every((s) => s.kind !== 'advance') ? made : undefined
}

/**
 * The stories of steps `drawn` allows that end with the target's object in its state and make its
 * type (for a replay, one whose first step makes it; out of order, one where a later event follows).
 *
 * @example
 * storiesFor({ type: 'invoice.payment_failed', state: 'paid', fault: 'in_order', deploy: 'none' }, () => true)
 */
export function storiesFor(target: CoverageTarget, drawn: (kind: string) => boolean): readonly Story[] {
  // A failure's event is made only by a story whose card fails.
  const failure = /failed|action_required/.test(target.type)
  // A write-off's event only by a story that writes the invoice off.
  const writtenOff = target.type === 'invoice.marked_uncollectible'
  // A trial's notice only by a story with a trial (a story may name every subscription type at once).
  const notice = target.type === NOTICE
  // A pause's or a resumption's only by a story that pauses (a resumption's, that resumes: a story
  // that only pauses names every subscription type at once).
  const pausing = target.type === PAUSED || target.type === RESUMED
  const resuming = target.type === RESUMED
  const all = STORIES.filter(
    (s) =>
      s.ends[eventObjectKind(target.type)] === target.state &&
      madeAt(s, target.type) !== undefined &&
      (!failure || s.steps.includes(failing)) &&
      (!writtenOff || s.steps.includes(writeOff)) &&
      (!notice || s.steps.some((x) => x.kind === 'subscribe' && x.trialDays > 0)) &&
      (!pausing || s.steps.includes(pause)) &&
      (!resuming || s.steps.some((x) => x.kind === 'x:unpause')) &&
      s.steps.every((x) => drawn(x.kind)),
  )
  // A duplicate is the event resent once the story is over: the dashboard resends events up to 15
  // days old, so not one made before a renewal.
  if (target.fault === 'duplicate') return preferred(all, (s) => timeAfter(s, madeLast(s, target.type) ?? 1) < RESEND_MS)
  // A retry needs the app to refuse the event once: any app that verifies refuses the attacker's
  // replay of the run's first delivery, whatever it reads, so one a step makes first and last.
  if (target.fault === 'retry') {
    const refusable = (s: Story) => {
      const made = madeFirstAndLast(s, target.type)
      return made !== undefined && timeAfter(s, made) < RESEND_MS
    }
    // The first step's best: a later step's event may follow one of its type the first step made.
    return preferred(preferred(all, refusable), (s) => madeFirstAndLast(s, target.type) === 1)
  }
  // The attacker replays the run's first delivery: one the first step makes.
  if (target.fault === 'replayed') {
    const first = preferred(all, (s) => madeAt(s, target.type) === 1)
    // Else one with no clock move up to it: what the steps before make is held past it.
    return preferred(first, (s) => s.steps.slice(0, madeAt(s, target.type) ?? 1).every((x) => x.kind !== 'advance'))
  }
  if (target.fault !== 'out_of_order') return all
  // A later step makes a later event about the subscription.
  if (eventObjectKind(target.type) === 'subscription')
    return preferred(all, (s) => (madeAt(s, target.type) ?? 1) < s.steps.length)
  // One step makes an invoice's or a payment's events within the same second, none later than the
  // other: a renewal spreads them over its grace hour, so a later one can come first.
  const renewing = preferred(all, (s) => s.steps[(madeAt(s, target.type) ?? 1) - 1]?.kind === 'advance')
  // A later event about the same object, where a story names one (`again`), overtakes it.
  const later = objectTypes(target.type)
  const again = preferred(renewing, (s) => Object.keys(s.again ?? {}).some((p) => p.startsWith(later)))
  // Else a step after the renewal makes a later event about it, whatever its type.
  return preferred(again, (s) => (madeAt(s, target.type) ?? 1) < s.steps.length)
}

/** The virtual time the steps after `step` of a story (1-based) take: how old an event it made is at the end. */
function timeAfter(story: Story, step: number): number {
  return story.steps.slice(step).reduce((ms, x) => ms + (x.kind === 'advance' ? x.ms : 0), 0)
}

/** The stories that pass `test`, or all of them when none does. */
function preferred(all: readonly Story[], test: (s: Story) => boolean): readonly Story[] {
  const chosen = all.filter(test)
  return chosen.length === 0 ? all : chosen
}
