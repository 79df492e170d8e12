import { eventObjectKind, objectTypes } from './event-object.js'
import { forgedType } from './flow-forgery.js'
import type { CoverageTarget } from './flow-graft.js'
import type { FlowStep } from './flow-program.js'

const MINUTE = 60_000
const HOUR = 3_600_000
const DAY = 86_400_000

/**
 * A short checkout story: its steps, the 1-based step at which each event type is first made, the
 * types whose object a later step makes another event about (what a reorder can put behind), and
 * the state each kind of object ends in (a kind left out has several objects, or none).
 *
 * @example
 * const story: CheckoutStory = { steps, makes: { 'checkout.session.expired': 2 }, ends: { 'checkout.session': 'expired/unpaid' } }
 */
export interface CheckoutStory {
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

const checkout = (mode: 'payment' | 'subscription', customer = 0): FlowStep => ({ kind: 'x:checkout', mode, customer, plan: 0 })
const pay = (payment: number): FlowStep => ({ kind: 'x:pay', session: -1, payment, returns: false })
// A subscription checkout with a week's trial, as the fulfilment episodes draw it: nothing to pay.
const trial: FlowStep = { kind: 'x:checkout', mode: 'subscription', customer: 0, plan: 0, trialDays: 7 }
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

// A trial bought through checkout: the session complete with nothing to pay, the subscription
// trialing, its card saved (a 3-D Secure card through a setup intent it authenticates).
const TRIAL = at(2, 'checkout.session.completed', 'customer.subscription.created')
const TRIAL_ENDS = { 'checkout.session': 'complete/no_payment_required', subscription: 'trialing' }
const SAVED = at(2, 'setup_intent.created', 'setup_intent.requires_action', 'setup_intent.succeeded')

/**
 * The trial stories: a trial checkout paid by card or by a 3-D Secure card (its setup intent
 * authenticated); days later, its end announced while it lasts (the subscription's creation
 * overtaken by the notice); a week later, the trial over (the notice overtaken by the activation),
 * or, for the 3-D Secure card, its first charge needing the customer (the subscription past due).
 */
const TRIAL_STORIES: readonly CheckoutStory[] = [
  { steps: [trial, pay(VISA)], makes: TRIAL, ends: TRIAL_ENDS },
  {
    steps: [trial, pay(SECURE_OK)],
    makes: { ...TRIAL, ...SAVED },
    ends: { ...TRIAL_ENDS, setup_intent: 'succeeded' },
  },
  {
    steps: [trial, pay(VISA), { kind: 'advance', ms: 5 * DAY }],
    makes: { ...at(2, 'customer.subscription.created'), ...at(3, 'customer.subscription.trial_will_end') },
    overtaken: ['customer.subscription.created'],
    ends: { subscription: 'trialing' },
    beforeEnd: DAY,
  },
  {
    steps: [trial, pay(VISA), { kind: 'advance', ms: 8 * DAY }],
    makes: at(3, 'customer.subscription.trial_will_end'),
    overtaken: ['customer.subscription.trial_will_end'],
    ends: { subscription: 'active' },
    beforeEnd: 4 * DAY,
  },
  // The 3-D Secure card's trial over: its first charge needs the customer, the subscription past due.
  {
    steps: [trial, pay(SECURE_OK), { kind: 'advance', ms: 8 * DAY }],
    makes: at(3, 'customer.subscription.trial_will_end'),
    overtaken: ['customer.subscription.trial_will_end'],
    ends: { subscription: 'past_due' },
    beforeEnd: 4 * DAY,
  },
]

/**
 * The checkout stories, each bringing the objects of one checkout to the states it ends in: a
 * session paid by card, by a 3-D Secure card, declined, failing its challenge, paid by a bank debit
 * that settles or fails, paid or refused at a second try, expired; a guest's subscription bought
 * through checkout; a subscription renewed a month later into a draft, then into a payment that
 * needs the customer; a subscription's 3-D Secure payment replacing the invoice's first one; a
 * trial bought through checkout with nothing to pay, through its end.
 *
 * @example
 * CHECKOUT_STORIES.filter((s) => s.ends.payment_intent === 'succeeded')
 */
export const CHECKOUT_STORIES: readonly CheckoutStory[] = [
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
    overtaken: ['invoice.created'],
    ends: { invoice: 'open', subscription: 'past_due', payment_intent: 'requires_payment_method', charge: 'failed' },
    beforeEnd: 2 * HOUR + 5 * MINUTE,
    again: true,
  },
  // The same renewal, then days of the invoice's automatic retries: its finalization and first
  // failure notices can come after a retry's.
  {
    steps: [
      checkout('subscription'),
      pay(SECURE_OK),
      { kind: 'advance', ms: 31 * DAY + 2 * HOUR },
      { kind: 'advance', ms: 3 * DAY },
    ],
    makes: at(3, 'invoice.finalized', 'invoice.payment_failed', 'invoice.payment_action_required'),
    overtaken: ['invoice.finalized', 'invoice.payment_failed', 'invoice.payment_action_required'],
    ends: { invoice: 'open' },
    beforeEnd: 2 * HOUR + 5 * MINUTE,
    again: true,
  },
  // A card subscription renewed: the invoice made, finalized and paid an hour later, so its
  // creation can come after its payment.
  {
    steps: [checkout('subscription'), pay(VISA), { kind: 'advance', ms: 31 * DAY + 2 * HOUR }],
    makes: at(3, 'invoice.created'),
    overtaken: ['invoice.created'],
    ends: { invoice: 'paid' },
    beforeEnd: 2 * HOUR + 5 * MINUTE,
    again: true,
  },
  // The same renewal seen from the subscription's start: its creation (the run's first delivery, for
  // a replay) or its activation (each after the renewal's updates, out of order) meets it past due.
  {
    steps: [checkout('subscription'), pay(SECURE_OK), { kind: 'advance', ms: 31 * DAY + 2 * HOUR }],
    makes: at(2, 'customer.subscription.created', 'customer.subscription.updated'),
    overtaken: ['customer.subscription.created', 'customer.subscription.updated'],
    ends: { subscription: 'past_due' },
  },
  // A subscription's 3-D Secure payment: the invoice's first payment canceled for the authenticated one.
  {
    steps: [checkout('subscription'), pay(SECURE_OK)],
    makes: at(2, 'payment_intent.created', 'payment_intent.canceled'),
    ends: { payment_intent: 'canceled' },
  },
  ...TRIAL_STORIES,
]

/**
 * A forgery's aim in a story: the prefix of a type made about an object left in the target's state
 * whose forgery is of the target's type, if any.
 *
 * @example
 * checkoutForgeryAim(story, { type: 'invoice.paid', state: 'open', fault: 'forged', deploy: 'none' }) // 'invoice.'
 */
export function checkoutForgeryAim(story: CheckoutStory, target: CoverageTarget): string | undefined {
  const made = Object.keys(story.makes).find((type) => {
    const kind = eventObjectKind(type)
    return story.ends[kind] === target.state && forgedType(kind, target.state) === target.type
  })
  return made === undefined ? undefined : objectTypes(made)
}

/**
 * The stories that make the target's type and end with its object in its state (and put it behind
 * a later event, when it is to arrive out of order; and make it first of its type, for a replay).
 *
 * @example
 * checkoutStoriesFor({ type: 'payment_intent.payment_failed', state: 'succeeded', fault: 'out_of_order', deploy: 'none' })
 */
export function checkoutStoriesFor(target: CoverageTarget): readonly CheckoutStory[] {
  return CHECKOUT_STORIES.filter(
    (s) =>
      s.makes[target.type] !== undefined &&
      s.ends[eventObjectKind(target.type)] === target.state &&
      (target.fault !== 'out_of_order' || (s.overtaken ?? []).includes(target.type)) &&
      // The attacker replays the run's first delivery: the target's must be the first of its type.
      !(s.again === true && (target.fault === 'replayed' || target.fault === 'retry')),
  )
}
