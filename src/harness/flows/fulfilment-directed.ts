import fc from 'fast-check'
import type { FaultEntry } from '#faults/index.js'
import type { CoverageTarget } from './flow-graft.js'
import { FLOW_FORGERIES, type FlowProgram, type FlowStep } from './flow-program.js'

const MINUTE = 60_000
const HOUR = 3_600_000
const DAY = 86_400_000
/** Virtual time a step that is not a clock move takes (its settle). */
const STEP_MS = 30_000

/**
 * A short checkout story: its steps, the 1-based step at which each event type is first made, the
 * types whose object a later step makes another event about (what a reorder can put behind), and
 * the state each kind of object ends in (a kind left out has several objects, or none).
 */
interface CheckoutStory {
  readonly steps: readonly FlowStep[]
  readonly makes: Readonly<Record<string, number>>
  readonly overtaken?: readonly string[]
  readonly ends: Readonly<Record<string, string>>
  /** When its events are made during a clock move (a renewal): how long before that move ends, at the earliest. */
  readonly beforeEnd?: number
  /** Its events' types were made before, by its earlier steps: none of them is the run's first of its type (what a replay needs). */
  readonly again?: boolean
}

// The payments by their place in `fulfilmentPayments`: a card that pays, one declined, 3-D Secure
// authenticated and failed, a bank debit that settles and one that fails.
const VISA = 0
const DECLINED = 1
const SECURE_OK = 2
const SECURE_FAIL = 3
const BANK = 4
const BANK_FAIL = 5

/** More deliveries than a story and its closing steps make. */
const EVERY = 60

/** The ways of arriving a story's faults make (a forgery is a step of its own). */
const ARRIVALS = new Set(['in_order', 'out_of_order', 'duplicate', 'retry', 'replayed'])

const checkout = (mode: 'payment' | 'subscription', customer = 0): FlowStep => ({ kind: 'x:checkout', mode, customer, plan: 0 })
const pay = (payment: number): FlowStep => ({ kind: 'x:pay', session: -1, payment, returns: false })
const at = (step: number, ...types: string[]) => Object.fromEntries(types.map((t) => [t, step]))

// A payment-mode session's ad-hoc price: its product and price made with the session.
const ITEM = at(1, 'product.created', 'price.created')
const ITEM_ENDS = { product: 'none', price: 'none' }
const PAID = { ...ITEM_ENDS, payment_intent: 'succeeded', charge: 'succeeded', 'checkout.session': 'complete/paid' }
const UNPAID = { ...ITEM_ENDS, payment_intent: 'requires_payment_method' }
const CARD_PAID = at(2, 'payment_intent.created', 'payment_intent.succeeded', 'charge.created', 'charge.succeeded')
const SESSION_PAID = at(2, 'checkout.session.completed')
const DECLINE = at(2, 'payment_intent.created', 'payment_intent.payment_failed')
const CHALLENGE_FAILED = at(2, 'payment_intent.created', 'payment_intent.requires_action', 'payment_intent.payment_failed')

/** The stories, each bringing the objects of one checkout to the states it ends in. */
const STORIES: readonly CheckoutStory[] = [
  { steps: [checkout('payment'), pay(VISA)], makes: { ...ITEM, ...CARD_PAID, ...SESSION_PAID }, ends: PAID },
  {
    steps: [checkout('payment'), pay(SECURE_OK)],
    makes: { ...ITEM, ...CARD_PAID, ...SESSION_PAID, ...at(2, 'payment_intent.requires_action') },
    ends: PAID,
  },
  {
    steps: [checkout('payment'), pay(DECLINED)],
    makes: { ...ITEM, ...DECLINE, ...at(2, 'charge.created', 'charge.failed') },
    ends: { ...UNPAID, charge: 'failed' },
  },
  { steps: [checkout('payment'), pay(SECURE_FAIL)], makes: { ...ITEM, ...CHALLENGE_FAILED }, ends: UNPAID },
  {
    steps: [checkout('payment'), pay(BANK)],
    makes: {
      ...ITEM,
      ...CARD_PAID,
      ...SESSION_PAID,
      ...at(2, 'payment_intent.processing', 'checkout.session.async_payment_succeeded'),
    },
    ends: PAID,
  },
  {
    steps: [checkout('payment'), pay(BANK_FAIL)],
    makes: {
      ...ITEM,
      ...DECLINE,
      ...SESSION_PAID,
      ...at(2, 'payment_intent.processing', 'charge.created', 'charge.failed', 'checkout.session.async_payment_failed'),
    },
    ends: { ...UNPAID, charge: 'failed', 'checkout.session': 'complete/unpaid' },
  },
  // Paid at the second try: what the first try said about the payment meets it succeeded.
  {
    steps: [checkout('payment'), pay(DECLINED), pay(VISA)],
    makes: { ...ITEM, ...DECLINE, ...at(3, 'payment_intent.succeeded', 'checkout.session.completed') },
    overtaken: ['payment_intent.created', 'payment_intent.payment_failed'],
    ends: { ...ITEM_ENDS, payment_intent: 'succeeded', 'checkout.session': 'complete/paid' },
  },
  {
    steps: [checkout('payment'), pay(SECURE_FAIL), pay(VISA)],
    makes: { ...ITEM, ...CHALLENGE_FAILED, ...at(3, 'payment_intent.succeeded', 'checkout.session.completed') },
    overtaken: ['payment_intent.created', 'payment_intent.requires_action', 'payment_intent.payment_failed'],
    ends: { ...ITEM_ENDS, payment_intent: 'succeeded', 'checkout.session': 'complete/paid' },
  },
  // Refused twice: the first refusal overtaken by the second.
  {
    steps: [checkout('payment'), pay(DECLINED), pay(DECLINED)],
    makes: { ...ITEM, ...DECLINE },
    overtaken: ['payment_intent.created', 'payment_intent.payment_failed'],
    ends: UNPAID,
  },
  {
    steps: [checkout('payment'), pay(SECURE_FAIL), pay(SECURE_FAIL)],
    makes: { ...ITEM, ...CHALLENGE_FAILED },
    overtaken: ['payment_intent.created', 'payment_intent.requires_action', 'payment_intent.payment_failed'],
    ends: UNPAID,
  },
  {
    steps: [checkout('payment'), { kind: 'x:expire', session: -1 }],
    makes: { ...ITEM, ...at(2, 'checkout.session.expired') },
    ends: { ...ITEM_ENDS, 'checkout.session': 'expired/unpaid' },
  },
  // A guest's subscription: its customer, card, subscription, invoice and payment made at checkout.
  {
    steps: [checkout('subscription', -1), pay(VISA)],
    makes: {
      ...CARD_PAID,
      ...SESSION_PAID,
      ...at(
        2,
        'customer.created',
        'payment_method.attached',
        'customer.subscription.created',
        'customer.subscription.updated',
        'invoice.created',
        'invoice.finalized',
        'invoice.paid',
        'invoice.payment_succeeded',
        'invoice_payment.paid',
      ),
    },
    ends: {
      customer: 'none',
      payment_method: 'none',
      subscription: 'active',
      invoice: 'paid',
      invoice_payment: 'paid',
      payment_intent: 'succeeded',
      charge: 'succeeded',
      'checkout.session': 'complete/paid',
    },
  },
  // A subscription paid with a 3-D Secure card, renewed a month later: the renewal's invoice still a
  // draft (it is finalized an hour after it is made), then its payment needing the customer.
  {
    steps: [checkout('subscription'), pay(SECURE_OK), { kind: 'advance', ms: 31 * DAY + 2 * MINUTE }],
    makes: at(3, 'invoice.created', 'customer.subscription.updated'),
    ends: { invoice: 'draft', subscription: 'active' },
    beforeEnd: 4 * MINUTE,
    again: true,
  },
  {
    steps: [checkout('subscription'), pay(SECURE_OK), { kind: 'advance', ms: 31 * DAY + 2 * HOUR }],
    makes: at(
      3,
      'invoice.created',
      'invoice.finalized',
      'invoice.payment_failed',
      'invoice.payment_action_required',
      'customer.subscription.updated',
      'payment_intent.created',
      'payment_intent.payment_failed',
      'charge.created',
      'charge.failed',
    ),
    ends: { invoice: 'open', subscription: 'past_due', payment_intent: 'requires_payment_method', charge: 'failed' },
    beforeEnd: 2 * HOUR + 5 * MINUTE,
    again: true,
  },
  // A subscription's 3-D Secure payment: the invoice's first payment canceled for the authenticated one.
  {
    steps: [checkout('subscription'), pay(SECURE_OK)],
    makes: at(2, 'payment_intent.created', 'payment_intent.canceled'),
    ends: { payment_intent: 'canceled' },
  },
]

/** The kind of object an event type is about (`checkout.session`, `subscription`, `payment_intent`, ...). */
function kindOf(type: string): string {
  if (type.startsWith('checkout.session.')) return 'checkout.session'
  if (type.startsWith('customer.subscription.')) return 'subscription'
  return type.split('.')[0] ?? ''
}

/** The prefix of every event type about the object a `type` event is about. */
function objectTypes(type: string): string {
  const kind = kindOf(type)
  return kind === 'subscription' ? 'customer.subscription.' : `${kind}.`
}

/** The type the attacker forges about an object of `kind` in `state` (the opposite of it, see `forgeFlowDelivery`). */
function forgedType(kind: string, state: string): string {
  if (kind === 'checkout.session') return 'checkout.session.completed'
  if (kind === 'subscription')
    return state === 'active' || state === 'trialing' ? 'customer.subscription.deleted' : 'customer.subscription.updated'
  if (kind === 'invoice') return state === 'paid' ? 'invoice.payment_failed' : 'invoice.paid'
  return 'payment_intent.succeeded'
}

/**
 * A forgery's aim in a story: the prefix of a type made about an object left in the target's state
 * whose forgery is of the target's type, if any.
 */
function forgeryAim(story: CheckoutStory, target: CoverageTarget): string | undefined {
  const made = Object.keys(story.makes).find((type) => {
    const kind = kindOf(type)
    return story.ends[kind] === target.state && forgedType(kind, target.state) === target.type
  })
  return made === undefined ? undefined : objectTypes(made)
}

/** The stories that make the target's type and end with its object in its state (and put it behind a later event, when it is to arrive out of order). */
function storiesFor(target: CoverageTarget): readonly CheckoutStory[] {
  return STORIES.filter(
    (s) =>
      s.makes[target.type] !== undefined &&
      s.ends[kindOf(target.type)] === target.state &&
      (target.fault !== 'out_of_order' || (s.overtaken ?? []).includes(target.type)) &&
      // The attacker replays the run's first delivery: the target's must be the first of its type.
      !(s.again === true && (target.fault === 'replayed' || target.fault === 'retry')),
  )
}

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
  const aimed = STORIES.flatMap((story) => {
    const aim = forgeryAim(story, target)
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
  const stories = storiesFor(target).filter((s) => s.steps.every((x) => drawn(x.kind)))
  if (stories.length === 0) return undefined
  return fc
    .record({ story: fc.constantFrom(...stories), seed: fc.integer({ min: 0, max: 1_000_000 }) })
    .map(({ story, seed }) => programOf(story, target, redeploy ?? { kind: 'redeploy' }, seed, drawn('roll_secret')))
}
