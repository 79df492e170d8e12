import { SUBSCRIPTION_INCOMPLETE_EXPIRY_MS } from '#catalogue/rules.js'
import type { Json } from '../engine/list.js'
import { emitSnapshot, NO_ORIGIN, type Origin } from '../events/emit-snapshot.js'
import { SlidingLog } from '../limits/sliding-log.js'
import type { Scope } from '../mode.js'
import { type LineSpec, refOf, type SubState, sec } from './billing-types.js'
import { boundary, type Interval } from './calendar.js'
import type { BillingContext } from './context.js'
import type { Invoicing } from './invoicing.js'
import type { BillingJobs } from './jobs.js'
import type { BillingLimits } from './limits.js'
import { isMetered, type Lines } from './lines.js'
import { holdCycleInvoice } from './pause-collection.js'
import type { Payments } from './payments.js'
import type { Timeline } from './timelines.js'
import { scheduleTrialNotice } from './trial-notice.js'

/**
 * What a subscription's cycle works with: billing's shared records, its lines, its job kinds, its
 * limits and the parts that invoice and charge.
 */
interface CycleParts {
  readonly ctx: BillingContext
  readonly lines: Lines
  readonly jobs: BillingJobs
  readonly limits: BillingLimits
  readonly invoicing: Invoicing
  readonly payments: Payments
}

/**
 * A subscription's billing cycle: its first invoice, each period end (the next period starts on
 * time and a `subscription_cycle` invoice bills metered usage of the period that ended and licensed
 * items for the new one), cancellation now or at the period end.
 */
export type Cycles = ReturnType<typeof createCycles>

/**
 * Billing's cycle members, each a plain function of the cycle's parts (the members are handed
 * around unbound: job actions and the billing facade read them off this record).
 *
 * @example
 * const cycles = createCycles(ctx, jobs, limits, invoicing, payments)
 * cycles.periodEnd(ctx.subs.get(ctx.key(scope, 'sub_1')) as SubState) // renews or cancels it
 */
export function createCycles(
  ctx: BillingContext,
  jobs: BillingJobs,
  limits: BillingLimits,
  invoicing: Invoicing,
  payments: Payments,
) {
  const p: CycleParts = { ctx, lines: ctx.lines, jobs, limits, invoicing, payments }
  return {
    itemsOf: (scope: Scope, subId: string): Json[] => itemsOf(ctx, scope, subId),
    itemList: (scope: Scope, subId: string): Record<string, unknown> => itemList(ctx, scope, subId),
    periodEnd: (s: SubState): void => periodEnd(p, s),
    expireIncomplete: (s: SubState): void => expireIncomplete(p, s),
    cancelNow: (scope: Scope, id: string, origin: Origin): Json => cancelNow(ctx, scope, id, origin),
    start: (scope: Scope, sub: Json, cycle: CycleStart, origin: Origin): Json => startCycle(p, scope, sub, cycle, origin),
    schedulePeriodEnd: (s: SubState): void => schedulePeriodEnd(jobs, s),
  }
}

/** A subscription's items, oldest first. */
function itemsOf(ctx: BillingContext, scope: Scope, subId: string): Json[] {
  return ctx.r
    .item()
    .list(scope)
    .filter((i) => i.subscription === subId)
    .reverse()
}

/** A subscription's `items` field: the list object of its items. */
function itemList(ctx: BillingContext, scope: Scope, subId: string): Record<string, unknown> {
  const data = itemsOf(ctx, scope, subId)
  return {
    object: 'list',
    data,
    has_more: false,
    total_count: data.length,
    url: `/v1/subscription_items?subscription=${subId}`,
  }
}

/** Queues the subscription's period end on its timeline, replacing the one pending. */
function schedulePeriodEnd(jobs: BillingJobs, s: SubState): void {
  if (s.job !== undefined) s.timeline.cancel(s.job)
  s.job = s.timeline.at(s.periodEnd, jobs.periodEnd, refOf(s.scope, s.id))
}

/** The period that ends: what its invoice bills and whether it was a trial. */
interface EndingPeriod {
  readonly customer: Json
  readonly currency: string
  readonly items: Json[]
  readonly usage: { start: number; end: number }
  readonly wasTrial: boolean
}

/**
 * A period end: the subscription renews (the next period and its invoice) or, when it is set to
 * cancel by now, cancels after billing the metered usage of the period.
 */
function periodEnd(p: CycleParts, s: SubState): void {
  const { r } = p.ctx
  const { scope } = s
  const sub = r.subscription().get(scope, s.id)
  if (sub === undefined || sub.status === 'canceled' || sub.status === 'incomplete_expired') return
  const customer = r.customer().get(scope, s.customer)
  if (customer === undefined) return
  const end = s.periodEnd
  const ending: EndingPeriod = {
    customer,
    currency: String(sub.currency),
    items: itemsOf(p.ctx, scope, s.id),
    usage: { start: s.periodStart, end },
    wasTrial: s.trialEnd !== null && end <= s.trialEnd,
  }
  // A `cancel_at` due by this period end cancels now rather than renewing (its own job may come later in the queue).
  if (sub.cancel_at_period_end === true || (typeof sub.cancel_at === 'number' && sub.cancel_at * 1000 <= end)) {
    const metered = ending.items.filter((i) => isMetered(i.price as Json))
    if (metered.length > 0 && !ending.wasTrial) {
      cycleInvoice(
        p,
        s,
        ending,
        metered.map((i) => p.lines.itemLine(scope, s, i, ending.usage, false)),
      )
    }
    cancelNow(p.ctx, scope, s.id, NO_ORIGIN)
    return
  }
  renew(p, s, sub, ending)
}

/** The next period: its boundaries on the items, its invoice, its own period end queued. */
function renew(p: CycleParts, s: SubState, sub: Json, ending: EndingPeriod): void {
  const { ctx, lines } = p
  const { r } = ctx
  const { scope } = s
  const end = ending.usage.end
  s.n += 1
  const nextEnd = boundary(s.anchor, s.interval, s.count, s.n)
  const nextPeriod = { start: end, end: nextEnd }
  const specs: LineSpec[] = []
  for (const item of ending.items) {
    const price = item.price as Json
    if (isMetered(price)) {
      if (!ending.wasTrial) specs.push(lines.itemLine(scope, s, item, ending.usage, false))
    } else specs.push(lines.itemLine(scope, s, item, nextPeriod, false))
  }
  for (const ii of lines.pendingItems(scope, s.customer, ending.currency)) specs.push(lines.pendingLine(scope, ii))
  s.periodStart = end
  s.periodEnd = nextEnd
  for (const item of ending.items) {
    r.item().put(scope, String(item.id), { current_period_start: sec(end), current_period_end: sec(nextEnd) })
  }
  const invoiceId = ctx.kernel.ids.next('in', 24)
  const fields: Record<string, unknown> = { items: itemList(ctx, scope, s.id), latest_invoice: invoiceId }
  if (ending.wasTrial && sub.status === 'trialing') fields.status = 'active'
  r.subscription().set(scope, s.id, fields, NO_ORIGIN)
  cycleInvoice(p, s, ending, specs, invoiceId)
  schedulePeriodEnd(p.jobs, s)
}

/** The period's invoice (usage in arrears, licensed items ahead), finalized after the grace hour unless collection is paused. */
function cycleInvoice(p: CycleParts, s: SubState, ending: EndingPeriod, specs: LineSpec[], id?: string): void {
  const { scope } = s
  const inv = p.invoicing.createInvoice({
    scope,
    customer: ending.customer,
    currency: ending.currency,
    sub: s,
    reason: 'subscription_cycle',
    specs,
    period: ending.usage,
    origin: NO_ORIGIN,
    timeline: s.timeline,
    ...(id === undefined ? {} : { id }),
  })
  // While collection is paused the invoice is held as the pause says, and no payment is attempted.
  const sub = p.ctx.r.subscription().get(scope, s.id)
  if (sub !== undefined && holdCycleInvoice(p.ctx, p.invoicing, scope, sub, String(inv.id))) return
  p.invoicing.scheduleFinalize(scope, String(inv.id))
}

/**
 * The first invoice was not paid in time: the subscription is `incomplete_expired` (terminal: no
 * more periods) and its open invoice is voided, as the provider does.
 */
function expireIncomplete(p: CycleParts, s: SubState): void {
  const { r } = p.ctx
  const { scope } = s
  const sub = r.subscription().get(scope, s.id)
  if (sub?.status !== 'incomplete') return
  if (s.job !== undefined) s.timeline.cancel(s.job)
  s.job = undefined
  r.subscription().set(scope, s.id, { status: 'incomplete_expired', ended_at: sec(s.timeline.now()) }, NO_ORIGIN)
  const invoice = typeof sub.latest_invoice === 'string' ? r.invoice().get(scope, sub.latest_invoice) : undefined
  if (invoice?.status === 'open') p.invoicing.voidInvoice(scope, String(invoice.id), NO_ORIGIN)
}

/** Cancels a subscription now: its pending jobs dropped, `canceled`, `customer.subscription.deleted`. */
function cancelNow(ctx: BillingContext, scope: Scope, id: string, origin: Origin): Json {
  const s = ctx.subs.get(ctx.key(scope, id))
  const timeline = s?.timeline ?? ctx.simLine
  if (s?.job !== undefined) timeline.cancel(s.job)
  if (s?.expiry !== undefined) timeline.cancel(s.expiry)
  if (s?.cancelJob !== undefined) timeline.cancel(s.cancelJob)
  if (s !== undefined) {
    s.job = undefined
    s.expiry = undefined
    s.cancelJob = undefined
  }
  const now = sec(timeline.now())
  const sub = ctx.r.subscription().put(scope, id, {
    status: 'canceled',
    canceled_at: now,
    ended_at: now,
    cancellation_details: { comment: null, feedback: null, reason: 'cancellation_requested' },
  })
  ctx.kernel.trace.append('subscription.canceled', { id, account: scope.account, mode: scope.mode })
  emitSnapshot(ctx.events, 'customer.subscription.deleted', scope, sub, origin)
  return sub
}

/** A created subscription's cycle, as `subscriptions.create` worked it out. */
export interface CycleStart {
  readonly timeline: Timeline
  readonly interval: Interval
  readonly count: number
  readonly anchor: number
  readonly periodStart: number
  readonly periodEnd: number
  readonly n: number
  readonly trialEnd: number | null
  readonly firstInvoice: string
  /** The fraction of a full period the first (shorter) period bills. */
  readonly prorate: number
  readonly payNow: boolean
}

/**
 * Starts billing a created subscription: remembers its cycle, creates and (unless
 * `default_incomplete`) finalizes and pays its first invoice, and queues its period end.
 */
function startCycle(p: CycleParts, scope: Scope, sub: Json, cycle: CycleStart, origin: Origin): Json {
  const { r, subs, key } = p.ctx
  const s = newSubState(p, scope, sub, cycle)
  subs.set(key(scope, s.id), s)
  const customer = r.customer().require(scope, s.customer)
  const specs = firstSpecs(p, scope, s, cycle)
  for (const ii of p.lines.pendingItems(scope, s.customer, String(sub.currency))) specs.push(p.lines.pendingLine(scope, ii))
  p.invoicing.createInvoice({
    scope,
    customer,
    currency: String(sub.currency),
    sub: s,
    reason: 'subscription_create',
    specs,
    period: { start: cycle.periodStart, end: cycle.periodStart },
    origin,
    id: cycle.firstInvoice,
    timeline: s.timeline,
  })
  p.payments.finalizeAndPay(scope, cycle.firstInvoice, origin, cycle.payNow)
  schedulePeriodEnd(p.jobs, s)
  if (cycle.trialEnd !== null) scheduleTrialNotice(p.jobs, s, cycle.trialEnd)
  const started = r.subscription().require(scope, s.id)
  if (started.status === 'incomplete') {
    s.expiry = s.timeline.at(s.timeline.now() + SUBSCRIPTION_INCOMPLETE_EXPIRY_MS, p.jobs.expireIncomplete, refOf(scope, s.id))
  }
  return started
}

/** What billing keeps about a new subscription: its cycle, no timers yet, fresh limit logs. */
function newSubState(p: CycleParts, scope: Scope, sub: Json, cycle: CycleStart): SubState {
  return {
    scope,
    id: String(sub.id),
    customer: String(sub.customer),
    timeline: cycle.timeline,
    interval: cycle.interval,
    count: cycle.count,
    anchor: cycle.anchor,
    n: cycle.n,
    periodStart: cycle.periodStart,
    periodEnd: cycle.periodEnd,
    trialEnd: cycle.trialEnd,
    job: undefined,
    expiry: undefined,
    invoiceLogs: Array.from({ length: p.limits.invoiceRows }, () => new SlidingLog()),
    quantityLog: new SlidingLog(),
  }
}

/** The first invoice's item lines: metered items at zero (billed in arrears), licensed ones ahead. */
function firstSpecs(p: CycleParts, scope: Scope, s: SubState, cycle: CycleStart): LineSpec[] {
  const { lines } = p
  const period = { start: cycle.periodStart, end: cycle.periodEnd }
  const trial = cycle.trialEnd !== null
  return itemsOf(p.ctx, scope, s.id).map((item) => {
    const metered = isMetered(item.price as Json)
    if (metered)
      return {
        ...lines.itemLine(scope, s, item, period, true),
        quantity: 0,
        amount: 0,
        description: `0 × ${lines.productName(scope, item.price as Json)}`,
      }
    return lines.itemLine(scope, s, item, period, trial, cycle.prorate)
  })
}
