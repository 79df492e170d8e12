import type { Json } from '../engine/list.js'
import { NO_ORIGIN, type Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { createAlerts } from './alerts.js'
import { createAttachedPayments } from './attached-payments.js'
import { createCancellation } from './cancellation.js'
import { type BillingContext, type BillingOptions, createContext } from './context.js'
import { createCredits } from './credits.js'
import { createCustomerCurrency } from './customer-currency.js'
import { createCycles } from './cycles.js'
import { createDiscounts } from './discounts.js'
import { createEntitlements } from './entitlements.js'
import { createInvoicing } from './invoicing.js'
import { type BillingJobs, createJobs, type JobActions } from './jobs.js'
import { createLimits } from './limits.js'
import { isMetered } from './lines.js'
import { createPausing } from './pausing.js'
import { createPayments } from './payments.js'
import { createPreview } from './preview.js'
import { createPreviewNew } from './preview-new.js'
import { createProrations } from './prorations.js'
import { createQuoteExpiry } from './quote-expiry.js'
import { createSchedules } from './schedules.js'
import { registerBillingState } from './snapshot-state.js'
import { createStopCollection } from './stop-collection.js'
import { createSubSchedule } from './sub-schedule.js'
import { createTaxes } from './taxes.js'
import { createTestClocks, type TestClocks } from './test-clocks.js'
import { trialWillEnd } from './trial-notice.js'

export type { NewInvoice } from './billing-types.js'
export type { CancelOptions } from './cancellation.js'
export type { BillingOptions } from './context.js'
export type { PreviewChange, PreviewExtras } from './preview.js'
export type { UnmadeSubscription } from './preview-new.js'
export type { ItemChange, ItemTerms, ProrationBehavior } from './prorations.js'

/**
 * The billing loop: subscriptions with billing periods on the due-time queue (or a test clock's
 * own timeline), invoices created at each period end from meter aggregates and licensed
 * quantities, finalized after the grace period, paid through payment intents (the same path and
 * ledger as any payment), with automatic retries of failed payments. Resource behaviours
 * (src/domain/resources/) call it; it never re-implements storage or events.
 *
 * What is observable before any billing call is made at once: its snapshot part, its job kinds (a
 * loaded snapshot's pending work names them), test clocks, quote expiry, alerts and its listeners,
 * which ignore the events billing has no business with. The rest (invoicing, cycles, prorations,
 * previews, schedules...) is built on the first use of one of its members, so a simulation that
 * never bills (a fork running usage reports) never pays for it.
 *
 * @example
 * const billing = createBilling({ kernel, events, engine, meters, meterEvents, paymentMethods, paymentIntents, limitRows })
 * billing.preview(scope, 'sub_123') // the upcoming invoice
 */
export type Billing = EagerBilling & BuiltBilling

/** Billing's members made with the area (cheap, or observable before any billing call). */
type EagerBilling = ReturnType<typeof eagerMembers>
/** Billing's members built on first use. */
type BuiltBilling = BuiltArea['api']
type BuiltArea = ReturnType<typeof buildArea>

/** The members of `BuiltBilling`, for the facade's getters; the checks below keep the list whole. */
const BUILT_KEYS = [
  'voidInvoice',
  'markUncollectible',
  'resendInvoice',
  'itemsOf',
  'itemList',
  'createInvoice',
  'draftLines',
  'finalize',
  'finalizeAndPay',
  'attemptPayment',
  'markPaid',
  'attachPayment',
  'checkPayable',
  'invoiceIntent',
  'cancelNow',
  'stopCollection',
  'checkCurrency',
  'cancel',
  'discounts',
  'lineJson',
  'totals',
  'pendingItems',
  'pendingLine',
  'itemLine',
  'usage',
  'countQuantityUpdate',
  'checkInvoiceLimit',
  'start',
  'scheduleCancel',
  'startTrial',
  'endTrialNow',
  'preview',
  'previewNew',
  'prorate',
  'schedules',
  'credits',
  'entitlements',
  'pausing',
] as const satisfies readonly (keyof BuiltBilling)[]

/** The members of `EagerBilling`. */
const EAGER_KEYS = [
  'registerClock',
  'clockTimeline',
  'advanceClock',
  'completeAdvance',
  'dropClock',
  'timelineOfCustomer',
  'timelineOfClock',
  'newInvoiceId',
  'newId',
  'failed',
  'isMetered',
  'intentOutcome',
  'invoiceState',
  'subState',
  'usageRecords',
  'quoteExpiry',
] as const satisfies readonly (keyof EagerBilling)[]

// A member missing from its list fails to compile here (a getter would be missing at run time).
const builtKeysWhole: [Exclude<keyof BuiltBilling, (typeof BUILT_KEYS)[number]>] extends [never] ? true : false = true
const eagerKeysWhole: [Exclude<keyof EagerBilling, (typeof EAGER_KEYS)[number]>] extends [never] ? true : false = true

/**
 * What a facade reads its members from: the eager members, and the built area (built on first call).
 * Its members are methods, so a simulation's billing makes no closures for them.
 */
class BillingCore {
  readonly eager: EagerBilling
  readonly ctx: BillingContext
  readonly jobs: BillingJobs
  readonly testClocks: TestClocks
  #area: BuiltArea | undefined
  constructor(ctx: BillingContext, jobs: BillingJobs, testClocks: TestClocks) {
    this.ctx = ctx
    this.jobs = jobs
    this.testClocks = testClocks
    this.eager = eagerMembers(this)
  }
  area(): BuiltArea {
    this.#area ??= buildArea(this.ctx, this.jobs, this.testClocks)
    return this.#area
  }
  /** Job kinds' work, resolved when a job runs. */
  actions(): JobActions {
    return this.area().actions
  }
  /** `cancelNow` for test clocks (a deleted clock cancels its customers' subscriptions). */
  cancelNow(scope: Scope, id: string, origin: Origin): void {
    this.area().api.cancelNow(scope, id, origin)
  }
}

/**
 * The billing area's public shape, one object per simulation: the prototype's getters (made once,
 * from the key lists) read an eager member, or build the rest on the first read of one of its members.
 */
class BillingFacade {
  readonly core: BillingCore
  constructor(core: BillingCore) {
    this.core = core
  }
}
for (const k of EAGER_KEYS) {
  Object.defineProperty(BillingFacade.prototype, k, {
    get(this: BillingFacade) {
      return this.core.eager[k]
    },
  })
}
for (const k of BUILT_KEYS) {
  Object.defineProperty(BillingFacade.prototype, k, {
    get(this: BillingFacade) {
      return this.core.area().api[k]
    },
  })
}
void builtKeysWhole
void eagerKeysWhole

/**
 * Makes a simulation's billing area: its snapshot part, job kinds and listeners now, the rest on
 * the first use of one of its members.
 *
 * @example
 * const billing = createBilling({ kernel, events, engine, meters, meterEvents, paymentMethods, paymentIntents, limitRows })
 * billing.subState(scope, 'sub_123') // no invoicing built for this read
 */
export function createBilling(options: BillingOptions): Billing {
  const ctx = createContext(options)
  const core: BillingCore = new BillingCore(
    ctx,
    createJobs(ctx, () => core.actions()),
    createTestClocks(ctx, (scope, id, origin) => core.cancelNow(scope, id, origin)),
  )
  options.meterEvents.onProcessed(createAlerts(ctx).processed)
  registerBillingState(ctx, core.jobs, core.testClocks.clearAdvancing)
  // Listeners stay where they were in the event store's order; events billing ignores never build it.
  options.events.subscribe((event) => {
    if (event.type.startsWith('customer.subscription.')) core.area().api.entitlements.subscriptionChanged(event)
  })
  options.events.subscribe((event) => {
    if (event.type === 'payment_intent.succeeded' && event.objectId !== undefined) {
      core.area().attachedPayments.intentSucceeded({ account: event.account, mode: event.mode }, event.objectId)
    }
  })
  return new BillingFacade(core) as unknown as Billing
}

/** The members made with the area. */
function eagerMembers(core: BillingCore) {
  const { ctx, testClocks } = core
  const { kernel, subs, invoiceStates, intentInvoices, key } = ctx
  return {
    registerClock: testClocks.registerClock,
    clockTimeline: testClocks.clockTimeline,
    advanceClock: testClocks.advanceClock,
    completeAdvance: testClocks.completeAdvance,
    dropClock: testClocks.dropClock,
    timelineOfCustomer: testClocks.timelineOfCustomer,
    timelineOfClock: testClocks.timelineOfClock,
    newInvoiceId() {
      return kernel.ids.next('in', 24)
    },
    /** A new id of the seeded sequence for objects billing's behaviours make (`cn`, `cnli`). */
    newId(prefix: string) {
      return kernel.ids.next(prefix, 24)
    },
    failed: ctx.failed,
    isMetered,
    /**
     * Hears payment intents' outcomes: an open invoice's own intent succeeding pays the invoice.
     * An intent no invoice waits on is none of billing's business, and does not build it.
     */
    intentOutcome(outcome: 'succeeded' | 'failed' | 'requires_action', scope: Scope, p: Json, origin: Origin): void {
      if (!intentInvoices.has(key(scope, String(p.id)))) return
      core.area().intentOutcome(outcome, scope, p, origin)
    },
    invoiceState(scope: Scope, id: string) {
      return invoiceStates.get(key(scope, id))
    },
    subState(scope: Scope, id: string) {
      return subs.get(key(scope, id))
    },
    /** The legacy usage records of metered prices before basil. */
    usageRecords: ctx.usageRecords,
    /** Open quotes canceled at their `expires_at`. */
    quoteExpiry: createQuoteExpiry(ctx, core.jobs, testClocks.timelineOfCustomer),
  }
}

/** The rest of billing, built on first use. */
function buildArea(ctx: BillingContext, jobs: BillingJobs, testClocks: TestClocks) {
  const parts = buildParts(ctx, jobs, testClocks)
  return {
    api: apiOf(ctx, parts),
    actions: actionsOf(ctx, parts),
    attachedPayments: parts.attachedPayments,
    intentOutcome: parts.payments.intentOutcome,
  }
}

/** Billing's behaviours, each made from the ones it calls. */
function buildParts(ctx: BillingContext, jobs: BillingJobs, testClocks: TestClocks) {
  const limits = createLimits(ctx)
  const discounts = createDiscounts(ctx)
  const credits = createCredits(ctx)
  const invoicing = createInvoicing(ctx, jobs, limits, discounts, createTaxes(ctx), credits)
  const payments = createPayments(ctx, jobs, invoicing)
  const cycles = createCycles(ctx, jobs, limits, invoicing, payments)
  const schedule = createSubSchedule(ctx, jobs, cycles)
  const schedules = createSchedules(ctx, jobs.scheduleStep, testClocks.timelineOfCustomer)
  const prorations = createProrations(ctx, invoicing, payments, cycles)
  const preview = createPreview(ctx, invoicing, cycles, prorations)
  const cancel = createCancellation(ctx, cycles, invoicing, payments, prorations)
  const entitlements = createEntitlements(ctx)
  const pausing = createPausing(ctx, cycles, jobs, prorations)
  const attachedPayments = createAttachedPayments(ctx, payments)
  return {
    limits,
    discounts,
    credits,
    invoicing,
    payments,
    cycles,
    schedule,
    schedules,
    prorations,
    preview,
    cancel,
    entitlements,
    pausing,
    attachedPayments,
  }
}

type Parts = ReturnType<typeof buildParts>

/** What billing's job kinds do, once the parts that do it exist. */
function actionsOf(ctx: BillingContext, { cycles, schedule, payments, invoicing, schedules, pausing }: Parts): JobActions {
  return {
    periodEnd: cycles.periodEnd,
    expireIncomplete: cycles.expireIncomplete,
    cancelAt(s) {
      return schedule.cancelAt(s)
    },
    finalizeAndPay(scope, id) {
      return payments.finalizeAndPay(scope, id, NO_ORIGIN, true)
    },
    retry(scope, id) {
      return payments.attemptPayment(scope, id, NO_ORIGIN, { automatic: true })
    },
    overdue(scope, id) {
      return invoicing.overdue(scope, id)
    },
    scheduleStep: schedules.runStep,
    resumeCollection: pausing.collectionResumes,
    trialWillEnd: (a) => trialWillEnd(ctx, a),
  }
}

/** The built members of the billing area. */
function apiOf(ctx: BillingContext, parts: Parts) {
  const { lines } = ctx
  const { limits, discounts, credits, invoicing, payments, cycles, schedule, schedules } = parts
  const { prorations, preview, cancel, entitlements, pausing, attachedPayments } = parts
  return {
    voidInvoice: invoicing.voidInvoice,
    markUncollectible: invoicing.markUncollectible,
    resendInvoice: invoicing.resend,
    itemsOf: cycles.itemsOf,
    itemList: cycles.itemList,
    createInvoice: invoicing.createInvoice,
    draftLines: invoicing.draftLines,
    finalize: invoicing.finalize,
    finalizeAndPay: payments.finalizeAndPay,
    attemptPayment: payments.attemptPayment,
    markPaid: payments.markPaid,
    /** A payment intent attached to an open invoice by hand: paid with it when it succeeds. */
    attachPayment: attachedPayments.attach,
    checkPayable: payments.checkPayable,
    /** The payment intent an open invoice waits on (its `confirmation_secret`), if any. */
    invoiceIntent: invoicing.intents.intentOf,
    cancelNow: cycles.cancelNow,
    stopCollection: createStopCollection(ctx),
    checkCurrency: createCustomerCurrency(ctx),
    cancel,
    discounts,
    lineJson: lines.lineJson,
    totals: lines.totals,
    pendingItems: lines.pendingItems,
    pendingLine: lines.pendingLine,
    itemLine: lines.itemLine,
    usage: lines.usage,
    countQuantityUpdate: limits.countQuantityUpdate,
    checkInvoiceLimit: limits.checkInvoiceLimit,
    start: cycles.start,
    scheduleCancel: schedule.scheduleCancel,
    startTrial: schedule.startTrial,
    endTrialNow: schedule.endTrialNow,
    preview,
    /** The first invoice of a subscription not made yet (a preview; nothing stored). */
    previewNew: createPreviewNew(ctx, invoicing, discounts),
    prorate: prorations.apply,
    /** Subscription schedules: their start, phases and end on the customer's timeline. */
    schedules,
    /** Billing credits: grants, their balance transactions and balance, applied at finalization. */
    credits,
    /** Customers' active entitlements, following their subscriptions. */
    entitlements,
    /** Pausing a subscription's cycle and resuming it. */
    pausing,
  }
}
