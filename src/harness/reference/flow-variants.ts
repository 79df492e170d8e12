import type { DunningClientFactory } from '../flows/dunning-subject.js'
import type { FulfilmentClientFactory } from '../flows/fulfilment-subject.js'
import type { SubscriptionMirrorFactory } from '../flows/mirror-subject.js'
import { makeDunningClient } from './dunning-client.js'
import { makeFulfilmentClient } from './fulfilment-client.js'
import { makeSubscriptionMirror } from './subscription-mirror.js'
import type { Variant } from './variants.js'

/**
 * Subscription mirrors with one mistake each; `checkSubscriptionMirror` catches every one with a
 * counterexample of at most 10 steps.
 *
 * @example
 * for (const v of buggySubscriptionMirrors) expect((await checkSubscriptionMirror(v.factory)).ok).toBe(false)
 */
export const buggySubscriptionMirrors: readonly Variant<SubscriptionMirrorFactory>[] = [
  {
    name: 'last-delivered-wins',
    mistake: 'stores each event as it arrives: a late older update overwrites newer state',
    factory: makeSubscriptionMirror({ lastDeliveredWins: true }),
  },
  {
    name: 'created-ties',
    mistake: 'orders events by `created` alone: an older state of the same second comes back',
    factory: makeSubscriptionMirror({ createdTies: true }),
  },
  {
    name: 'ignores-deleted',
    mistake: 'ignores customer.subscription.deleted: access outlives the subscription',
    factory: makeSubscriptionMirror({ ignoreDeleted: true }),
  },
  {
    name: 'past-due-keeps-access',
    mistake: 'the payment failure never reaches the gate: past_due keeps access',
    factory: makeSubscriptionMirror({ pastDueKeepsAccess: true }),
  },
  {
    name: 'seat-deltas',
    mistake: 'applies seat changes as deltas without deduplicating events',
    factory: makeSubscriptionMirror({ seatDeltas: true }),
  },
  {
    name: 'ignores-cancel-at-period-end',
    mistake: 'never stores cancel_at_period_end',
    factory: makeSubscriptionMirror({ ignoreCancelAtPeriodEnd: true }),
  },
  {
    name: 'trial-denied',
    mistake: 'grants access to active subscriptions only, not trialing ones',
    factory: makeSubscriptionMirror({ trialDenied: true }),
  },
  {
    name: 'revokes-at-period-end-flag',
    mistake: 'revokes access when a cancellation at period end is scheduled',
    factory: makeSubscriptionMirror({ revokeAtPeriodEndFlag: true }),
  },
  {
    name: 'status-only',
    mistake: 'copies only status from customer.subscription.updated (plan and seats stay)',
    factory: makeSubscriptionMirror({ statusOnly: true }),
  },
  {
    name: 'top-level-period-end',
    mistake: "reads current_period_end from the subscription's top level, where older versions kept it",
    factory: makeSubscriptionMirror({ topLevelPeriodEnd: true }),
  },
  {
    name: 'revokes-on-first-failure',
    mistake: 'promises a week of grace on a failed renewal, and revokes access at the first failure',
    factory: makeSubscriptionMirror(),
    options: { access: { pastDueGraceMs: 7 * 86_400_000 } },
    breaks: 'mirror.access_withheld',
  },
  {
    name: 'welcome-on-activation',
    mistake: 'sends the welcome email whenever a subscription turns active: a converted trial is welcomed twice',
    factory: makeSubscriptionMirror({ welcomeOnActivation: true }),
    breaks: 'mirror.welcome_once',
  },
  {
    name: 'refuses-other-events',
    mistake: 'throws on the invoice events it has no handler for: answered 500, so the provider retries them for days',
    factory: makeSubscriptionMirror({ refusesOtherEvents: true }),
    breaks: 'ack.genuine_refused',
  },
  {
    name: 'writes-before-verifying',
    mistake:
      'writes the delivered subscription to its table before checking the signature: a forged cancellation revokes a paying customer',
    factory: makeSubscriptionMirror({ writesBeforeVerifying: true }),
    breaks: 'flow.forgery_ignored',
  },
  {
    name: 'welcome-in-memory',
    mistake: 'remembers whom it welcomed in memory only: after a redeploy the next event about a subscription welcomes it again',
    factory: makeSubscriptionMirror({ welcomeInMemory: true }),
    breaks: 'mirror.welcome_once',
  },
  {
    name: 'grants-incomplete',
    mistake: 'grants access to an incomplete subscription, whose first payment failed',
    factory: makeSubscriptionMirror({ grantsIncomplete: true }),
    breaks: 'mirror.access_granted',
  },
  {
    name: 'grants-paused',
    mistake: 'grants access to a paused subscription ("a pause only stops the billing")',
    factory: makeSubscriptionMirror({ grantsPaused: true }),
    breaks: 'mirror.access_granted',
  },
  {
    name: 'first-signature-only',
    mistake:
      "verifies with the secret it read at start-up against the header's first v1 only: after a roll, deliveries signed with both secrets are refused until it is redeployed",
    factory: makeSubscriptionMirror({ firstSignatureOnly: true }),
    breaks: 'flow.genuine_refused',
  },
  {
    name: 'payload-on-failed-read',
    mistake: 'stores the delivered payload when its read of the subscription fails: a late older change wins',
    factory: makeSubscriptionMirror({ payloadOnFailedRead: true }),
    breaks: 'mirror.converged',
  },
  {
    name: 'welcome-per-created-event',
    mistake:
      'welcomes on each customer.subscription.created event it has not processed: a second, distinct event for the same new subscription welcomes again',
    factory: makeSubscriptionMirror({ welcomePerCreatedEvent: true }),
    breaks: 'mirror.welcome_once',
  },
  {
    name: 'trial-will-end-ends-trial',
    mistake:
      'takes customer.subscription.trial_will_end (sent three days before) for the end of the trial: the customer loses access while still trialing',
    factory: makeSubscriptionMirror({ trialWillEndEndsTrial: true }),
    breaks: 'mirror.access_withheld',
  },
]

/**
 * Dunning clients with one mistake each; `checkDunning` catches every one with a counterexample of
 * at most 10 steps.
 *
 * @example
 * for (const v of buggyDunningClients) expect((await checkDunning(v.factory)).ok).toBe(false)
 */
export const buggyDunningClients: readonly Variant<DunningClientFactory>[] = [
  {
    name: 'notice-every-attempt',
    mistake: 'a notice for every automatic retry, not one per invoice',
    factory: makeDunningClient({ noticeEveryAttempt: true }),
  },
  {
    name: 'no-dedup',
    mistake: 'no event deduplication: a duplicate delivery notifies or restores again',
    factory: makeDunningClient({ noDedup: true }),
  },
  {
    name: 'notice-on-past-due',
    mistake: 'notifies when the subscription turns past_due, not when the invoice fails',
    factory: makeDunningClient({ noticeOnPastDue: true }),
  },
  {
    name: 'restore-every-paid',
    mistake: 'restores on every invoice.paid, failed before or not',
    factory: makeDunningClient({ restoreEveryPaid: true }),
  },
  {
    name: 'restore-on-succeeded-too',
    mistake: 'restores on invoice.payment_succeeded as well as invoice.paid',
    factory: makeDunningClient({ restoreOnSucceededToo: true }),
  },
  { name: 'never-restores', mistake: 'ignores invoice.paid', factory: makeDunningClient({ neverRestores: true }) },
  {
    name: 'per-customer-flag',
    mistake: 'one dunning flag per customer: a second failing invoice gets no notice',
    factory: makeDunningClient({ perCustomer: true }),
  },
  {
    name: 'only-final-attempt',
    mistake: 'tells the customer only once retries are exhausted',
    factory: makeDunningClient({ onlyFinalAttempt: true }),
  },
  {
    name: 'memory-only',
    mistake: 'remembers processed events and sent notices in memory only: after a redeploy a retried failure notifies again',
    factory: makeDunningClient({ memoryOnly: true }),
  },
  {
    name: 'refuses-unhandled',
    mistake: 'throws on event types it has no handler for: answered 500, so the provider retries them for days',
    breaks: 'ack.genuine_refused',
    factory: makeDunningClient({ refusesUnhandled: true }),
  },
  {
    name: 'answers-first',
    mistake: 'answers 200 at once and sends the notice afterwards: a crash in between loses it, and the provider never resends',
    breaks: 'ack.before_durable',
    factory: makeDunningClient({ answersFirst: true }),
  },
  {
    name: 'never-restricts',
    mistake: 'keeps serving a customer whose invoice collection gave up on (invoice.marked_uncollectible ignored)',
    breaks: 'dunning.standing',
    factory: makeDunningClient({ neverRestricts: true }),
  },
  {
    name: 'forgets-paid',
    mistake: 'never checks whether the invoice is paid before noticing: a failure delivered late notifies a paid invoice',
    breaks: 'dunning.notice_once',
    factory: makeDunningClient({ forgetsPaid: true }),
  },
  {
    name: 'reinstates-on-any-paid',
    mistake: "lifts the customer's restriction on any paid invoice, though another of its invoices is still written off",
    breaks: 'dunning.standing',
    factory: makeDunningClient({ reinstatesOnAnyPaid: true }),
  },
  {
    name: 'ignores-void',
    mistake:
      'promises to lift a restriction once the debt is settled, and lifts it only when the written-off invoice is paid: a voided one (the debt forgiven) keeps the account restricted',
    breaks: 'dunning.standing',
    factory: makeDunningClient({ ignoresVoid: true }),
    options: { standing: { liftOnVoid: true } },
  },
]

/**
 * Fulfilment clients with one mistake each; `checkFulfilment` catches every one with a
 * counterexample of at most 10 steps.
 *
 * @example
 * for (const v of buggyFulfilmentClients) expect((await checkFulfilment(v.factory)).ok).toBe(false)
 */
export const buggyFulfilmentClients: readonly Variant<FulfilmentClientFactory>[] = [
  {
    name: 'completed-regardless',
    mistake: 'fulfils on checkout.session.completed whatever its payment_status (a delayed payment not yet cleared)',
    factory: makeFulfilmentClient({ completedRegardless: true }),
  },
  {
    name: 'memory-dedupe',
    mistake: 'remembers fulfilled sessions in memory only: after a redeploy the next duplicate fulfils again',
    factory: makeFulfilmentClient({ memoryDedupe: true }),
  },
  {
    name: 'event-id-dedupe',
    mistake: 'deduplicates by event id only: the success page and the webhook both fulfil',
    factory: makeFulfilmentClient({ eventIdDedupe: true }),
  },
  {
    name: 'no-dedupe',
    mistake: 'fulfils on every paid delivery and page visit',
    factory: makeFulfilmentClient({ noDedupe: true }),
  },
  {
    name: 'ignores-async-succeeded',
    mistake: 'ignores checkout.session.async_payment_succeeded: a delayed payment is never fulfilled',
    factory: makeFulfilmentClient({ ignoresAsyncSucceeded: true }),
  },
  {
    name: 'never-reverses',
    mistake: 'fulfils a delayed payment before it clears and never reverses on async_payment_failed',
    factory: makeFulfilmentClient({ neverReverses: true }),
  },
  {
    name: 'page-unchecked',
    mistake: 'the success page fulfils a complete session without checking payment_status',
    factory: makeFulfilmentClient({ pageUnchecked: true }),
  },
  {
    name: 'trusts-redirect',
    mistake: 'the success page fulfils the session its URL names without retrieving it',
    factory: makeFulfilmentClient({ trustsRedirect: true }),
  },
  {
    name: 'payment-mode-only',
    mistake: 'fulfils payment-mode sessions only: a subscription bought through checkout is never provisioned',
    factory: makeFulfilmentClient({ paymentModeOnly: true }),
  },
  {
    name: 'refuses-expired',
    mistake: 'throws on checkout.session.expired, a type it has no code for: answered 500 and retried for days',
    factory: makeFulfilmentClient({ refusesExpired: true }),
    breaks: 'ack.genuine_refused',
  },
  {
    name: 'conflict-on-duplicate',
    mistake: 'answers 409 to an event it already processed instead of a 2xx that stops the retries',
    factory: makeFulfilmentClient({ conflictOnDuplicate: true }),
    breaks: 'flow.genuine_refused',
  },
  {
    name: 'paid-only',
    mistake: "fulfils payment_status 'paid' only: a session that needs no payment (a trial) is never fulfilled",
    factory: makeFulfilmentClient({ paidOnly: true }),
    breaks: 'fulfilment.once',
  },
  {
    name: 'reverses-customer',
    mistake: "on async_payment_failed takes back every order of the customer, another session's paid order too",
    factory: makeFulfilmentClient({ reversesCustomer: true }),
    breaks: 'fulfilment.once',
  },
]
