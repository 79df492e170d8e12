import fc from 'fast-check'
import { HarnessInputError, shownValue } from '../validate-input.js'
import type { EpisodeStep } from './flow-episodes.js'
import type { FlowStep, FlowWorkload } from './flow-program.js'

/** The success URL of the shop: the provider puts the session id in place of the template. */
export const FULFILMENT_SUCCESS_URL = 'https://shop.harness.test/success?session_id={CHECKOUT_SESSION_ID}'

/**
 * How the customer pays on the checkout page in a generated fulfilment flow: a test payment method
 * token and, for a 3-D Secure card, how the challenge ends.
 */
export interface FulfilmentPayment {
  readonly paymentMethod: string
  readonly authentication?: 'succeed' | 'fail'
}

/** How many of `fulfilmentPayments` the steps draw from: a count, or fast-check fails inside on `fc.nat`. */
function refusePaymentCount(api: string, payments: unknown): void {
  if (!Number.isInteger(payments) || (payments as number) < 1)
    throw new HarnessInputError(
      `${api}: payments must be how many payments to draw from, a positive integer (e.g. fulfilmentPayments.length), got ${shownValue(payments)}`,
    )
}

/**
 * The payments a fulfilment flow draws from, simplest first (shrinking goes towards the first): a
 * card that pays, one that declines (the session stays open), a 3-D Secure card authenticated or
 * failed, and the delayed bank debit that completes `unpaid` and pays later
 * (`checkout.session.async_payment_succeeded`). A list to extend: pass a longer one as
 * `checkFulfilment`'s `payments` (a delayed method that fails, for instance).
 *
 * @example
 * fulfilmentPayments[5] // { paymentMethod: 'pm_usBankAccount_accountClosed' }
 */
export const fulfilmentPayments: readonly FulfilmentPayment[] = [
  { paymentMethod: 'pm_card_visa' },
  { paymentMethod: 'pm_card_chargeDeclined' },
  { paymentMethod: 'pm_card_threeDSecure2Required', authentication: 'succeed' },
  { paymentMethod: 'pm_card_threeDSecure2Required', authentication: 'fail' },
  { paymentMethod: 'pm_usBankAccount' },
  { paymentMethod: 'pm_usBankAccount_accountClosed' },
]

/**
 * Event types a fulfilment client is sent when its program does not subscribe it to every type
 * (`FlowProgram.everyEvent`, a third of the programs, where one that answers 5xx to a type it does
 * not handle is seen doing so): the session's outcomes and the payment's, so an app that fulfils
 * on `payment_intent.succeeded` or `charge.succeeded` gets them in every run.
 */
export const FULFILMENT_EVENT_TYPES: readonly string[] = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.processing',
  'charge.succeeded',
  'charge.failed',
  'charge.refunded',
]

const session = fc.constantFrom(0, 0, 1, 2)

/**
 * The fulfilment steps (`x:` kinds): a checkout session made in `payment` or `subscription` mode
 * (for a known customer or a guest), the customer paying it on the page with one of `payments`
 * and returning to the success page at once (racing the webhook) or not, the customer opening the
 * success URL again later (a reload, a bookmark, a typed URL, whatever the session's state), the
 * shop expiring a session, and the shop's app redeployed (`x:restart`).
 *
 * @example
 * const workload = { extraSteps: fulfilmentSteps(fulfilmentPayments.length), builtInSteps: false }
 */
export function fulfilmentSteps(payments: number): fc.Arbitrary<FlowStep>[] {
  refusePaymentCount('fulfilmentSteps', payments)
  const checkout = fc.record({
    kind: fc.constant('x:checkout' as const),
    mode: fc.constantFrom('payment', 'subscription'),
    customer: fc.constantFrom(0, 0, 1, -1),
    plan: fc.nat({ max: 2 }),
  })
  const pay = fc.record({
    kind: fc.constant('x:pay' as const),
    session,
    payment: fc.nat({ max: Math.max(0, payments - 1) }),
    returns: fc.constantFrom<boolean | 'page_first' | 'webhook_first'>(false, true, 'page_first', 'webhook_first'),
  })
  // Every extra step has the same weight: listed twice, sessions are made and paid twice as often.
  return [
    checkout,
    checkout,
    pay,
    pay,
    fc.record({ kind: fc.constant('x:return' as const), session }),
    fc.record({ kind: fc.constant('x:expire' as const), session }),
    fc.record({ kind: fc.constant('x:restart' as const) }),
  ]
}

const DAY = 86_400_000

/** How late a delayed payment's outcome may reach the app: past the hour an age check would allow. */
const LATE_OUTCOME_MS = 3 * 3_600_000

/**
 * The episodes of a fulfilment flow, each drawn as one: the newest session paid (most often with a
 * card that pays at once), the app redeployed, then the same session again (the customer reloading
 * the success page, or the provider resending its `checkout.session.completed`): what an in-memory
 * dedupe forgets; and a payment-mode session bought with a bank debit (it settles or fails after
 * the checkout, as `checkout.session.async_payment_*`, half the time delivered three hours late),
 * the success page most often left alone, and days passing; a subscription checkout with a trial
 * (it needs no payment: `no_payment_required`) paid; and one customer's two orders, the first paid
 * by card, the second by a bank debit that fails (a reversal must take back that order alone).
 * Each pays session -1, the newest, so the payment meets a session still open.
 *
 * @example
 * const workload = { episodes: fulfilmentEpisodes(fulfilmentPayments.length) }
 */
export function fulfilmentEpisodes(payments: number): fc.Arbitrary<readonly EpisodeStep[]>[] {
  refusePaymentCount('fulfilmentEpisodes', payments)
  const returns = fc.constantFrom<boolean | 'page_first' | 'webhook_first'>(false, true, 'page_first', 'webhook_first')
  const pay = (payment: fc.Arbitrary<number>, on: fc.Arbitrary<number>, back = returns) =>
    fc.record({ kind: fc.constant('x:pay' as const), session: on, payment, returns: back })
  // A bank debit settles after the page: the page left alone as often as it is visited.
  const settling = fc.constantFrom<boolean | 'page_first' | 'webhook_first'>(
    false,
    false,
    false,
    true,
    'page_first',
    'webhook_first',
  )
  // Only a payment-mode session hears of its debit's outcome as the checkout events.
  const bought = fc.record({
    kind: fc.constant('x:checkout' as const),
    mode: fc.constant('payment'),
    customer: fc.constantFrom(0, 1, -1),
    plan: fc.nat({ max: 2 }),
  })
  const any = fc.nat({ max: Math.max(0, payments - 1) })
  // The card that pays and the 3-D Secure card authenticated pay at once.
  const paying = fc.oneof(fc.constantFrom(...[0, 2].filter((i) => i < payments), 0), any)
  const again = fc.oneof(
    fc.constant({ kind: 'x:return' as const, session: -1 }),
    fc.constant({ kind: 'redeliver' as const, aim: 'checkout.session.completed' }),
  )
  // The bank debit that settles and the one that fails, as often as each other.
  const banks = [4, 5].filter((i) => i < payments)
  const delayed = fc.constantFrom(...(banks.length > 0 ? banks : [Math.max(0, payments - 1)]))
  const settles = fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(DAY, 3 * DAY) })
  // Half the time the debit's outcome reaches the app hours after the checkout (a backlog, as a
  // live debit settling days later would): an app that takes an old session for a stale event drops it.
  const debit = fc.tuple(pay(delayed, fc.constant(-1), settling), fc.boolean()).map(
    ([step, late]): EpisodeStep =>
      late
        ? {
            step,
            faults: [{ fault: 'delay_delivery', count: 1, delay: LATE_OUTCOME_MS, operation: 'checkout.session.async_payment_' }],
          }
        : step,
  )
  // A session that needs no payment (a trial): fulfilled like a paid one.
  const free = fc.record({
    kind: fc.constant('x:checkout' as const),
    mode: fc.constant('subscription'),
    customer: fc.constantFrom(0, 1, -1),
    plan: fc.nat({ max: 2 }),
    trialDays: fc.constant(7),
  })
  // One customer's two orders: one paid by card, then a bank debit that fails.
  const ofFirst = fc.constant({ kind: 'x:checkout' as const, mode: 'payment', customer: 0, plan: 0 })
  const failing = fc.constant(banks.length > 1 ? (banks[1] as number) : Math.max(0, payments - 1))
  return [
    fc.tuple(pay(paying, fc.constant(-1)), fc.constant({ kind: 'x:restart' as const }), again),
    fc.tuple(bought, debit, settles),
    fc.tuple(free, pay(paying, fc.constant(-1))),
    fc.tuple(
      ofFirst,
      pay(fc.constant(0), fc.constant(-1), fc.constant(false)),
      ofFirst,
      pay(failing, fc.constant(-1), settling),
      settles,
    ),
  ]
}

/**
 * The shape of generated fulfilment flows: checkout steps and clock moves (from a minute to 32
 * days, past a session's 24-hour expiry), first a checkout session, delivery faults aimed at the
 * checkout events as often as not.
 *
 * @example
 * fc.sample(flowProgram(fulfilmentWorkload(fulfilmentPayments.length)), 1)
 */
export function fulfilmentWorkload(payments: number, base: FlowWorkload = {}): FlowWorkload {
  if (!Number.isInteger(payments) || payments < 1)
    throw new HarnessInputError(
      `fulfilmentWorkload: expected how many payments the checkouts draw from (an integer >= 1, e.g. fulfilmentPayments.length), got ${shownValue(payments)}`,
    )
  const steps = fulfilmentSteps(payments)
  return {
    ...base,
    builtInSteps: false,
    // A race needs a session paid and something after it (a reload, a redeploy, a replay): never one step alone.
    minSteps: base.minSteps ?? 4,
    firstStep: steps[0] as fc.Arbitrary<FlowStep>,
    extraSteps: [...steps, ...(base.extraSteps ?? [])],
    episodes: base.episodes ?? fulfilmentEpisodes(payments),
    // Twice the share of old for twice the episodes: each as often as when there were two.
    episodeShare: base.episodeShare ?? 0.3,
    faultAims: base.faultAims ?? [
      'checkout.session.completed',
      'checkout.session.async_payment_',
      'checkout.session.',
      'payment_intent.succeeded',
    ],
  }
}
