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
import { isMetered } from './lines.js'
import type { Payments } from './payments.js'
import type { Timeline } from './timelines.js'

/**
 * A subscription's billing cycle: its first invoice, each period end (the next period starts on
 * time and a `subscription_cycle` invoice bills metered usage of the period that ended and licensed
 * items for the new one), cancellation now or at the period end.
 */
export type Cycles = ReturnType<typeof createCycles>

export function createCycles(
  ctx: BillingContext,
  jobs: BillingJobs,
  limits: BillingLimits,
  invoicing: Invoicing,
  payments: Payments,
) {
  const { kernel, events, r, lines, subs, key, simLine } = ctx

  function itemsOf(scope: Scope, subId: string): Json[] {
    return r
      .item()
      .list(scope)
      .filter((i) => i.subscription === subId)
      .reverse()
  }

  function itemList(scope: Scope, subId: string): Record<string, unknown> {
    const data = itemsOf(scope, subId)
    return {
      object: 'list',
      data,
      has_more: false,
      total_count: data.length,
      url: `/v1/subscription_items?subscription=${subId}`,
    }
  }

  function schedulePeriodEnd(s: SubState): void {
    if (s.job !== undefined) s.timeline.cancel(s.job)
    s.job = s.timeline.at(s.periodEnd, jobs.periodEnd, refOf(s.scope, s.id))
  }

  function periodEnd(s: SubState): void {
    const { scope } = s
    const sub = r.subscription().get(scope, s.id)
    if (sub === undefined || sub.status === 'canceled' || sub.status === 'incomplete_expired') return
    const customer = r.customer().get(scope, s.customer)
    if (customer === undefined) return
    const end = s.periodEnd
    const wasTrial = s.trialEnd !== null && end <= s.trialEnd
    const items = itemsOf(scope, s.id)
    const usagePeriod = { start: s.periodStart, end }
    const currency = String(sub.currency)
    // The period's invoice (usage in arrears, licensed items ahead), finalized after the grace hour.
    const cycleInvoice = (specs: LineSpec[], id?: string): void => {
      const inv = invoicing.createInvoice({
        scope,
        customer,
        currency,
        sub: s,
        reason: 'subscription_cycle',
        specs,
        period: usagePeriod,
        origin: NO_ORIGIN,
        timeline: s.timeline,
        ...(id === undefined ? {} : { id }),
      })
      invoicing.scheduleFinalize(scope, String(inv.id))
    }
    // A `cancel_at` due by this period end cancels now rather than renewing (its own job may come later in the queue).
    if (sub.cancel_at_period_end === true || (typeof sub.cancel_at === 'number' && sub.cancel_at * 1000 <= end)) {
      const metered = items.filter((i) => isMetered(i.price as Json))
      if (metered.length > 0 && !wasTrial) {
        cycleInvoice(metered.map((i) => lines.itemLine(scope, s, i, usagePeriod, false)))
      }
      cancelNow(scope, s.id, NO_ORIGIN)
      return
    }
    s.n += 1
    const nextEnd = boundary(s.anchor, s.interval, s.count, s.n)
    const nextPeriod = { start: end, end: nextEnd }
    const specs: LineSpec[] = []
    for (const item of items) {
      const price = item.price as Json
      if (isMetered(price)) {
        if (!wasTrial) specs.push(lines.itemLine(scope, s, item, usagePeriod, false))
      } else specs.push(lines.itemLine(scope, s, item, nextPeriod, false))
    }
    for (const ii of lines.pendingItems(scope, s.customer, currency)) specs.push(lines.pendingLine(scope, ii))
    s.periodStart = end
    s.periodEnd = nextEnd
    for (const item of items) {
      r.item().put(scope, String(item.id), { current_period_start: sec(end), current_period_end: sec(nextEnd) })
    }
    const invoiceId = kernel.ids.next('in', 24)
    const fields: Record<string, unknown> = { items: itemList(scope, s.id), latest_invoice: invoiceId }
    if (wasTrial && sub.status === 'trialing') fields.status = 'active'
    r.subscription().set(scope, s.id, fields, NO_ORIGIN)
    cycleInvoice(specs, invoiceId)
    schedulePeriodEnd(s)
  }

  /**
   * The first invoice was not paid in time: the subscription is `incomplete_expired` (terminal: no
   * more periods) and its open invoice is voided, as the provider does.
   */
  function expireIncomplete(s: SubState): void {
    const { scope } = s
    const sub = r.subscription().get(scope, s.id)
    if (sub?.status !== 'incomplete') return
    if (s.job !== undefined) s.timeline.cancel(s.job)
    s.job = undefined
    r.subscription().set(scope, s.id, { status: 'incomplete_expired', ended_at: sec(s.timeline.now()) }, NO_ORIGIN)
    const invoice = typeof sub.latest_invoice === 'string' ? r.invoice().get(scope, sub.latest_invoice) : undefined
    if (invoice?.status === 'open') invoicing.voidInvoice(scope, String(invoice.id), NO_ORIGIN)
  }

  function cancelNow(scope: Scope, id: string, origin: Origin): Json {
    const s = subs.get(key(scope, id))
    const timeline = s?.timeline ?? simLine
    if (s?.job !== undefined) timeline.cancel(s.job)
    if (s?.expiry !== undefined) timeline.cancel(s.expiry)
    if (s?.cancelJob !== undefined) timeline.cancel(s.cancelJob)
    if (s !== undefined) {
      s.job = undefined
      s.expiry = undefined
      s.cancelJob = undefined
    }
    const now = sec(timeline.now())
    const sub = r.subscription().put(scope, id, {
      status: 'canceled',
      canceled_at: now,
      ended_at: now,
      cancellation_details: { comment: null, feedback: null, reason: 'cancellation_requested' },
    })
    kernel.trace.append('subscription.canceled', { id, account: scope.account, mode: scope.mode })
    emitSnapshot(events, 'customer.subscription.deleted', scope, sub, origin)
    return sub
  }

  /**
   * Starts billing a created subscription: remembers its cycle, creates and (unless
   * `default_incomplete`) finalizes and pays its first invoice, and queues its period end.
   */
  function start(
    scope: Scope,
    sub: Json,
    cycle: {
      timeline: Timeline
      interval: Interval
      count: number
      anchor: number
      periodStart: number
      periodEnd: number
      n: number
      trialEnd: number | null
      firstInvoice: string
      prorate: number
      payNow: boolean
    },
    origin: Origin,
  ): Json {
    const s: SubState = {
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
      invoiceLogs: Array.from({ length: limits.invoiceRows }, () => new SlidingLog()),
      quantityLog: new SlidingLog(),
    }
    subs.set(key(scope, s.id), s)
    const customer = r.customer().require(scope, s.customer)
    const period = { start: cycle.periodStart, end: cycle.periodEnd }
    const trial = cycle.trialEnd !== null
    const specs = itemsOf(scope, s.id).map((item) => {
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
    for (const ii of lines.pendingItems(scope, s.customer, String(sub.currency))) specs.push(lines.pendingLine(scope, ii))
    invoicing.createInvoice({
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
    payments.finalizeAndPay(scope, cycle.firstInvoice, origin, cycle.payNow)
    schedulePeriodEnd(s)
    const started = r.subscription().require(scope, s.id)
    if (started.status === 'incomplete') {
      s.expiry = s.timeline.at(s.timeline.now() + SUBSCRIPTION_INCOMPLETE_EXPIRY_MS, jobs.expireIncomplete, refOf(scope, s.id))
    }
    return started
  }

  return { itemsOf, itemList, periodEnd, expireIncomplete, cancelNow, start, schedulePeriodEnd }
}
