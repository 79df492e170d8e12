import type { Scope } from '../mode.js'
import { NO_ORIGIN } from '../v1-events/emit.js'
import { createAlerts } from './alerts.js'
import { createAttachedPayments } from './attached-payments.js'
import { createCancellation } from './cancellation.js'
import { type BillingOptions, createContext } from './context.js'
import { createCredits } from './credits.js'
import { createCustomerCurrency } from './customer-currency.js'
import { createCycles } from './cycles.js'
import { createDiscounts } from './discounts.js'
import { createEntitlements } from './entitlements.js'
import { createInvoicing } from './invoicing.js'
import { createJobs } from './jobs.js'
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
import { createTestClocks } from './test-clocks.js'

export type { CancelOptions } from './cancellation.js'
export type { BillingOptions } from './context.js'
export type { PreviewChange } from './preview.js'
export type { UnmadeSubscription } from './preview-new.js'
export type { ItemChange, ItemTerms, ProrationBehavior } from './prorations.js'
export type { NewInvoice } from './types.js'

/**
 * The billing loop: subscriptions with billing periods on the due-time queue (or a test clock's
 * own timeline), invoices created at each period end from meter aggregates and licensed
 * quantities, finalized after the grace period, paid through payment intents (the same path and
 * ledger as any payment), with automatic retries of failed payments. Resource behaviours
 * (src/domain/resources/) call it; it never re-implements storage or events.
 *
 * @example
 * const billing = createBilling({ kernel, events, engine, meters, meterEvents, paymentMethods, paymentIntents, limitRows })
 * billing.preview(scope, 'sub_123') // the upcoming invoice
 */
export type Billing = ReturnType<typeof createBilling>

export function createBilling(options: BillingOptions) {
  const ctx = createContext(options)
  const { kernel, subs, invoiceStates, key, lines } = ctx
  const jobs = createJobs(ctx, () => ({
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
  }))
  const limits = createLimits(ctx)
  const discounts = createDiscounts(ctx)
  const credits = createCredits(ctx)
  options.meterEvents.onProcessed(createAlerts(ctx).processed)
  const invoicing = createInvoicing(ctx, jobs, limits, discounts, createTaxes(ctx), credits)
  const payments = createPayments(ctx, jobs, invoicing)
  const cycles = createCycles(ctx, jobs, limits, invoicing, payments)
  const schedule = createSubSchedule(ctx, jobs, cycles)
  const testClocks = createTestClocks(ctx, cycles.cancelNow)
  registerBillingState(ctx, jobs, testClocks.clearAdvancing)
  const schedules = createSchedules(ctx, jobs, testClocks.timelineOfCustomer)
  const prorations = createProrations(ctx, invoicing, payments, cycles)
  const preview = createPreview(ctx, invoicing, cycles, prorations)
  const cancel = createCancellation(ctx, cycles, invoicing, payments, prorations)
  const quoteExpiry = createQuoteExpiry(ctx, jobs, testClocks.timelineOfCustomer)
  const entitlements = createEntitlements(ctx)
  const pausing = createPausing(ctx, cycles)
  const attachedPayments = createAttachedPayments(ctx, payments)

  return {
    voidInvoice: invoicing.voidInvoice,
    markUncollectible: invoicing.markUncollectible,
    resendInvoice: invoicing.resend,
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
    itemsOf: cycles.itemsOf,
    itemList: cycles.itemList,
    isMetered,
    createInvoice: invoicing.createInvoice,
    draftLines: invoicing.draftLines,
    finalize: invoicing.finalize,
    finalizeAndPay: payments.finalizeAndPay,
    attemptPayment: payments.attemptPayment,
    markPaid: payments.markPaid,
    /** A payment intent attached to an open invoice by hand: paid with it when it succeeds. */
    attachPayment: attachedPayments.attach,
    checkPayable: payments.checkPayable,
    /** Hears payment intents' outcomes: an open invoice's own intent succeeding pays the invoice. */
    intentOutcome: payments.intentOutcome,
    /** The payment intent an open invoice waits on (its `confirmation_secret`), if any. */
    invoiceIntent: invoicing.intents.intentOf,
    cancelNow: cycles.cancelNow,
    stopCollection: createStopCollection(ctx),
    checkCurrency: createCustomerCurrency(ctx),
    cancel,
    discounts,
    invoiceState(scope: Scope, id: string) {
      return invoiceStates.get(key(scope, id))
    },
    subState(scope: Scope, id: string) {
      return subs.get(key(scope, id))
    },
    lineJson: lines.lineJson,
    totals: lines.totals,
    pendingItems: lines.pendingItems,
    pendingLine: lines.pendingLine,
    itemLine: lines.itemLine,
    usage: lines.usage,
    /** The legacy usage records of metered prices before basil. */
    usageRecords: ctx.usageRecords,
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
    /** Open quotes canceled at their `expires_at`. */
    quoteExpiry,
    /** Customers' active entitlements, following their subscriptions. */
    entitlements,
    /** Pausing a subscription's cycle and resuming it. */
    pausing,
  }
}
