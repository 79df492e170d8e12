import { INVOICE_FINALIZATION_GRACE_MS, INVOICE_PAYMENT_RETRY_DAYS } from '#catalogue/rules.js'
import { fromPlain, toPlain } from '#kernel/plain.js'
import type { Task } from '#kernel/scheduler.js'
import { DAY, HOUR, MINUTE } from '#kernel/time.js'
import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel.js'
import type { LimitRow } from '../limits/limit-row.js'
import { rateLimited } from '../limits/refusals.js'
import { SlidingLog } from '../limits/sliding-log.js'
import type { MeterEvents } from '../meters/meter-events.js'
import type { Meters } from '../meters/meters.js'
import { type Scope, scopeKey } from '../mode.js'
import type { PaymentIntents } from '../payment-intents/payment-intents.js'
import type { PaymentMethods } from '../payment-intents/payment-methods.js'
import { invalidRequest, ServiceError } from '../service-error.js'
import { emitSnapshot, NO_ORIGIN, type Origin } from '../v1-events/emit.js'
import { boundary, type Interval } from './calendar.js'
import { createLines, isMetered } from './lines.js'
import {
  type Job,
  type JobKind,
  type SavedClockTimeline,
  simulatorTimeline,
  TestClockTimeline,
  type Timeline,
} from './timelines.js'
import { type InvoiceState, type LineSpec, type NewInvoice, type Ref, refOf, type SubState, scopeOf, sec } from './types.js'

/** A subscription's billing state as plain data: its timeline by index in the saved timelines (-1: the simulator clock). */
interface SavedSub {
  scope: Scope
  id: string
  customer: string
  timeline: number
  interval: Interval
  count: number
  anchor: number
  n: number
  periodStart: number
  periodEnd: number
  trialEnd: number | null
  invoiceLogs: number[][]
  quantityLog: number[]
}

interface SavedInvoice {
  scope: Scope
  id: string
  timeline: number
  subscription: string | null
  attempts: number
}

interface SavedBilling {
  timelines: SavedClockTimeline[]
  clocks: [string, number][]
  subs: SavedSub[]
  invoices: SavedInvoice[]
}

export interface BillingOptions {
  readonly kernel: Kernel
  readonly events: EventStore
  readonly engine: Engine
  readonly meters: Meters
  readonly meterEvents: MeterEvents
  readonly paymentMethods: PaymentMethods
  /** Resolved lazily: payment intents are made after the engine. */
  readonly paymentIntents: () => PaymentIntents
  /** The limit table in force; billing counts its `subscription` rows. */
  readonly limitRows: readonly LimitRow[]
}

/**
 * The billing loop: subscriptions with billing periods on the due-time queue (or a test clock's
 * own timeline), invoices created at each period end from meter aggregates and licensed
 * quantities, finalized after the grace period, paid through payment intents (the same path and
 * ledger as any payment), with automatic retries of failed payments. Resource behaviours
 * (src/domain/resources/) call it; it never re-implements storage or events.
 */
export type Billing = ReturnType<typeof createBilling>

export function createBilling(options: BillingOptions) {
  const { kernel, events, engine, meters, meterEvents } = options
  const simLine = simulatorTimeline(kernel.clock, kernel.scheduler)
  const clocks = new Map<string, TestClockTimeline>()
  const subs = new Map<string, SubState>()
  const invoiceStates = new Map<string, InvoiceState>()
  const rows = {
    updates: options.limitRows.find((r) => r.id === 'subscription.updates'),
    invoices: options.limitRows.filter((r) => r.scope === 'subscription' && r.id.startsWith('subscription.invoices')),
  }
  const r = {
    customer: () => engine.resource('customer'),
    price: () => engine.resource('price'),
    product: () => engine.resource('product'),
    subscription: () => engine.resource('subscription'),
    item: () => engine.resource('subscription_item'),
    invoice: () => engine.resource('invoice'),
    invoiceItem: () => engine.resource('invoiceitem'),
    clock: () => engine.resource('test_helpers.test_clock'),
  }
  const key = (scope: Scope, id: string) => `${scopeKey(scope)}|${id}`
  const failed = (label: string, error: unknown) =>
    kernel.trace.append('scheduler.task_failed', { label, message: error instanceof Error ? error.message : String(error) })

  // Pending work as data --------------------------------------------------------------------------
  // Each kind of billing job runs on the simulator's scheduler (a task kind of the same label) or
  // on a test clock's timeline; its args name the subscription or invoice, looked up when it runs.
  // `link` gives the record its handle back when a snapshot re-creates the job.

  const links = new Map<string, (job: Job, a: Ref) => void>()
  const jobKinds = new Map<string, JobKind<never>>()

  function jobKind(label: string, run: (a: Ref) => void, link: (job: Job, a: Ref) => void): JobKind<Ref> {
    const task = kernel.scheduler.define<Ref>(label, run, { restored: (t: Task, a: Ref) => link(t, a) })
    const kind: JobKind<Ref> = { label, run, task }
    links.set(label, link)
    jobKinds.set(label, kind as unknown as JobKind<never>)
    return kind
  }

  const linkSub = (job: Job, a: Ref) => {
    const s = subs.get(key(scopeOf(a), a.id))
    if (s !== undefined) s.job = job
  }
  const linkInvoice = (job: Job, a: Ref) => {
    const st = invoiceStates.get(key(scopeOf(a), a.id))
    if (st !== undefined) st.job = job
  }

  const periodEndJob = jobKind(
    'subscription.period_end',
    (a) => {
      const s = subs.get(key(scopeOf(a), a.id))
      if (s === undefined) return
      s.job = undefined
      periodEnd(s)
    },
    linkSub,
  )

  /** A job on one invoice: unlinks itself, then acts only while the invoice is still `status`. */
  const invoiceJob = (label: string, status: string, act: (scope: Scope, id: string) => void) =>
    jobKind(
      label,
      (a) => {
        const scope = scopeOf(a)
        const st = invoiceStates.get(key(scope, a.id))
        if (st !== undefined) st.job = undefined
        if (r.invoice().get(scope, a.id)?.status === status) act(scope, a.id)
      },
      linkInvoice,
    )
  const finalizeJob = invoiceJob('invoice.finalize', 'draft', (scope, id) => finalizeAndPay(scope, id, NO_ORIGIN, true))
  const retryJob = invoiceJob('invoice.retry', 'open', (scope, id) => attemptPayment(scope, id, NO_ORIGIN, { automatic: true }))

  interface Advance extends Ref {
    readonly frozenTime: number
  }
  const advancing = new Map<string, { job: Task; args: Advance }>()

  function runAdvance(a: Advance): void {
    const scope = scopeOf(a)
    const { id, frozenTime } = a
    const k = key(scope, id)
    advancing.delete(k)
    clocks.get(k)?.advanceTo(frozenTime * 1000, failed)
    const ready = r.clock().put(scope, id, { status: 'ready', frozen_time: frozenTime, status_details: {} })
    kernel.trace.append('test_clock.advanced', { id, account: scope.account, mode: scope.mode, frozen_time: frozenTime })
    emitSnapshot(events, 'test_helpers.test_clock.ready', scope, ready, NO_ORIGIN)
  }

  const advanceTask = kernel.scheduler.define<Advance>('test_clock.advance', runAdvance, {
    restored: (job, a) => advancing.set(key(scopeOf(a), a.id), { job, args: a }),
  })

  kernel.state.register('billing', {
    save() {
      const index = new Map<Timeline, number>()
      const timelines: SavedClockTimeline[] = []
      const lineRef = (t: Timeline): number => {
        if (!(t instanceof TestClockTimeline)) return -1
        let i = index.get(t)
        if (i === undefined) {
          i = timelines.length
          index.set(t, i)
          timelines.push(t.save())
        }
        return i
      }
      const saved: SavedBilling = {
        timelines,
        clocks: [...clocks].map(([k, t]) => [k, lineRef(t)]),
        subs: [...subs.values()].map((s) => ({
          scope: { account: s.scope.account, mode: s.scope.mode },
          id: s.id,
          customer: s.customer,
          timeline: lineRef(s.timeline),
          interval: s.interval,
          count: s.count,
          anchor: s.anchor,
          n: s.n,
          periodStart: s.periodStart,
          periodEnd: s.periodEnd,
          trialEnd: s.trialEnd,
          invoiceLogs: s.invoiceLogs.map((l) => l.save()),
          quantityLog: s.quantityLog.save(),
        })),
        invoices: [...invoiceStates.values()].map((st) => ({
          scope: { account: st.scope.account, mode: st.scope.mode },
          id: st.id,
          timeline: lineRef(st.timeline),
          subscription: st.subscription,
          attempts: st.attempts,
        })),
      }
      return toPlain(saved)
    },
    load(data) {
      const saved = fromPlain<SavedBilling>(data)
      clocks.clear()
      subs.clear()
      invoiceStates.clear()
      advancing.clear()
      const relink: [Job, string, Ref][] = []
      const lines = saved.timelines.map((t) =>
        TestClockTimeline.load(t, jobKinds, (job, label, args) => relink.push([job, label, args as Ref])),
      )
      const lineAt = (i: number): Timeline => (i < 0 ? simLine : (lines[i] as TestClockTimeline))
      for (const [k, i] of saved.clocks) clocks.set(k, lines[i] as TestClockTimeline)
      for (const s of saved.subs) {
        subs.set(key(s.scope, s.id), {
          scope: s.scope,
          id: s.id,
          customer: s.customer,
          timeline: lineAt(s.timeline),
          interval: s.interval,
          count: s.count,
          anchor: s.anchor,
          n: s.n,
          periodStart: s.periodStart,
          periodEnd: s.periodEnd,
          trialEnd: s.trialEnd,
          job: undefined,
          invoiceLogs: s.invoiceLogs.map((times) => SlidingLog.load(times)),
          quantityLog: SlidingLog.load(s.quantityLog),
        })
      }
      for (const st of saved.invoices) {
        invoiceStates.set(key(st.scope, st.id), {
          scope: st.scope,
          id: st.id,
          timeline: lineAt(st.timeline),
          subscription: st.subscription,
          job: undefined,
          attempts: st.attempts,
        })
      }
      for (const [job, label, args] of relink) links.get(label)?.(job, args)
    },
  })

  // Timelines ---------------------------------------------------------------------------------

  function timelineOfClock(scope: Scope, clock: unknown): Timeline {
    if (typeof clock !== 'string') return simLine
    return clocks.get(key(scope, clock)) ?? simLine
  }

  function timelineOfCustomer(scope: Scope, customer: Json): Timeline {
    return timelineOfClock(scope, customer.test_clock)
  }

  // Limits ------------------------------------------------------------------------------------

  function admit(logs: readonly SlidingLog[], rowsOf: readonly (LimitRow | undefined)[], now: number): void {
    rowsOf.forEach((row, i) => {
      const log = logs[i]
      if (row === undefined || log === undefined) return
      if (!log.admits(now, row.windowMs ?? 1000, row.max)) {
        throw rateLimited(
          'resource-specific',
          kernel.prefix,
          'v1',
          `Request rate limit exceeded for this subscription (${row.id}: ${row.max} per ${describeWindow(row.windowMs ?? 1000)}).`,
        )
      }
    })
  }

  function count(logs: readonly SlidingLog[], rowsOf: readonly (LimitRow | undefined)[], now: number): void {
    rowsOf.forEach((row, i) => {
      if (row !== undefined) logs[i]?.add(now)
    })
  }

  // Lines and amounts ---------------------------------------------------------------------------

  const linesOf = createLines({ kernel, engine, meters, meterEvents })
  const { productName, usage, itemLine, lineJson, pendingItems, pendingLine, totals } = linesOf

  // Invoices ------------------------------------------------------------------------------------

  function invoiceFields(scope: Scope, n: NewInvoice, id: string): Record<string, unknown> {
    const now = n.timeline.now()
    const lines = linesOf.linesJson(scope, id, n.currency, n.sub?.id ?? null, n.specs)
    const customer = n.customer
    const automatic = n.reason === 'subscription_cycle' || n.reason === 'subscription_update'
    return {
      account_country: 'US',
      auto_advance: true,
      automatically_finalizes_at: automatic ? sec(now + INVOICE_FINALIZATION_GRACE_MS) : null,
      billing_reason: n.reason,
      collection_method: 'charge_automatically',
      created: sec(now),
      currency: n.currency,
      customer: customer.id,
      customer_email: customer.email ?? null,
      customer_name: customer.name ?? null,
      customer_phone: customer.phone ?? null,
      customer_tax_exempt: customer.tax_exempt ?? 'none',
      effective_at: null,
      ending_balance: null,
      lines: { object: 'list', data: lines, has_more: false, total_count: lines.length, url: `/v1/invoices/${id}/lines` },
      parent:
        n.sub === null
          ? null
          : {
              type: 'subscription_details',
              quote_details: null,
              subscription_details: { metadata: {}, subscription: n.sub.id },
            },
      period_end: sec(n.period.end),
      period_start: sec(n.period.start),
      starting_balance: 0,
      status: 'draft',
      status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
      test_clock: n.timeline.clock,
      webhooks_delivered_at: null,
      ...totals(lines),
    }
  }

  function createInvoice(n: NewInvoice): Json {
    const { scope } = n
    if (n.sub !== null) count(n.sub.invoiceLogs, rows.invoices, n.timeline.now())
    const id = n.id ?? kernel.ids.next('in', 24)
    const invoice = r.invoice().create(scope, {}, n.origin, invoiceFields(scope, n, id), id)
    for (const spec of n.specs) {
      if (spec.invoiceItem !== null) r.invoiceItem().put(scope, spec.invoiceItem, { invoice: id })
    }
    invoiceStates.set(key(scope, id), {
      scope,
      id,
      timeline: n.timeline,
      subscription: n.sub?.id ?? null,
      job: undefined,
      attempts: 0,
    })
    return invoice
  }

  function emitInvoice(scope: Scope, type: string, invoice: Json, origin: Origin, previous?: Record<string, unknown>) {
    emitSnapshot(events, type, scope, invoice, origin, previous)
  }

  /** Metered lines of a draft are recounted when it is finalized: usage processed in the grace period counts. */
  function refreshDraft(scope: Scope, invoice: Json, st: InvoiceState): Json {
    if (st.subscription === null) return invoice
    const sub = subs.get(key(scope, st.subscription))
    if (sub === undefined) return invoice
    const list = invoice.lines as { data: Json[] }
    const data = list.data.map((line) => {
      const price = r
        .price()
        .get(scope, String((line.pricing as { price_details?: { price?: unknown } } | null)?.price_details?.price))
      if (
        price === undefined ||
        !isMetered(price) ||
        (Number(line.amount) === 0 && line.description?.toString().startsWith('Trial'))
      )
        return line
      return linesOf.recount(scope, line, price, sub.customer)
    })
    return r.invoice().put(scope, String(invoice.id), { lines: { ...list, data }, ...totals(data) })
  }

  function nextNumber(scope: Scope, customerId: string): string {
    const customer = r.customer().get(scope, customerId)
    const prefix = typeof customer?.invoice_prefix === 'string' ? customer.invoice_prefix : 'INV'
    const seq = Number(customer?.next_invoice_sequence ?? 1)
    if (customer !== undefined) r.customer().put(scope, customerId, { next_invoice_sequence: seq + 1 })
    return `${prefix}-${String(seq).padStart(4, '0')}`
  }

  function finalize(scope: Scope, id: string, origin: Origin): Json {
    const st = invoiceStates.get(key(scope, id))
    let invoice = r.invoice().require(scope, id)
    if (invoice.status !== 'draft') return invoice
    if (st !== undefined) {
      if (st.job !== undefined) st.timeline.cancel(st.job)
      st.job = undefined
      invoice = refreshDraft(scope, invoice, st)
    }
    const now = (st?.timeline ?? simLine).now()
    invoice = r.invoice().put(scope, id, {
      status: 'open',
      number: nextNumber(scope, String(invoice.customer)),
      effective_at: sec(now),
      automatically_finalizes_at: null,
      status_transitions: { ...(invoice.status_transitions as Json), finalized_at: sec(now) },
    })
    emitInvoice(scope, 'invoice.finalized', invoice, origin)
    return invoice
  }

  function defaultPaymentMethod(scope: Scope, invoice: Json): string | null {
    const st = invoiceStates.get(key(scope, String(invoice.id)))
    if (st?.subscription) {
      const sub = r.subscription().get(scope, st.subscription)
      if (typeof sub?.default_payment_method === 'string') return sub.default_payment_method
    }
    const customer = r.customer().get(scope, String(invoice.customer))
    const pm = (customer?.invoice_settings as { default_payment_method?: unknown } | undefined)?.default_payment_method
    return typeof pm === 'string' ? pm : null
  }

  function setSubStatus(scope: Scope, subId: string | null, status: string, origin: Origin): void {
    if (subId === null) return
    const sub = r.subscription().get(scope, subId)
    if (sub === undefined || sub.status === status || sub.status === 'canceled') return
    r.subscription().set(scope, subId, { status }, origin)
  }

  function markPaid(scope: Scope, id: string, pi: string | null, origin: Origin): Json {
    const st = invoiceStates.get(key(scope, id))
    const now = (st?.timeline ?? simLine).now()
    let invoice = r.invoice().require(scope, id)
    if (st?.job !== undefined) st.timeline.cancel(st.job)
    const payments =
      pi === null
        ? []
        : [
            {
              id: kernel.ids.next('inpay', 24),
              object: 'invoice_payment',
              amount_paid: invoice.amount_due,
              amount_requested: invoice.amount_due,
              created: sec(now),
              currency: invoice.currency,
              invoice: id,
              is_default: true,
              livemode: scope.mode === 'live',
              payment: { type: 'payment_intent', payment_intent: pi },
              status: 'paid',
              status_transitions: { canceled_at: null, paid_at: sec(now) },
            },
          ]
    invoice = r.invoice().put(scope, id, {
      status: 'paid',
      attempt_count: Number(invoice.attempt_count ?? 0) + (pi === null ? 0 : 1),
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      attempted: true,
      next_payment_attempt: null,
      ending_balance: 0,
      payments: {
        object: 'list',
        data: payments,
        has_more: false,
        total_count: payments.length,
        url: `/v1/invoice_payments?invoice=${id}`,
      },
      status_transitions: { ...(invoice.status_transitions as Json), paid_at: sec(now) },
    })
    kernel.trace.append('invoice.paid', { id, account: scope.account, mode: scope.mode })
    emitInvoice(scope, 'invoice.paid', invoice, origin)
    emitInvoice(scope, 'invoice.payment_succeeded', invoice, origin)
    const sub = st?.subscription ?? null
    if (sub !== null) {
      const current = r.subscription().get(scope, sub)
      if (current?.status === 'past_due' || current?.status === 'incomplete') {
        const stt = subs.get(key(scope, sub))
        setSubStatus(
          scope,
          sub,
          stt?.trialEnd !== null && stt !== undefined && stt.timeline.now() < stt.trialEnd ? 'trialing' : 'active',
          origin,
        )
      }
    }
    return invoice
  }

  /**
   * One payment attempt of an open invoice: an off-session payment intent for `amount_due` with
   * the subscription's or the customer's default payment method (or `paymentMethod`). A decline
   * records the failure (`invoice.payment_failed`, the subscription `past_due`) and, for automatic
   * attempts, queues the next retry; it answers the card error when `raise` is set (`invoices.pay`).
   */
  function attemptPayment(
    scope: Scope,
    id: string,
    origin: Origin,
    how: { automatic: boolean; paymentMethod?: string; raise?: boolean },
  ): Json {
    const invoice = r.invoice().require(scope, id)
    const st = invoiceStates.get(key(scope, id))
    const amount = Number(invoice.amount_due)
    if (amount <= 0) return markPaid(scope, id, null, origin)
    const pm = how.paymentMethod ?? defaultPaymentMethod(scope, invoice)
    let pi: string | null = null
    let error: ServiceError | undefined
    if (pm === null) {
      error = invalidRequest(
        'This customer has no attached payment source or default payment method. Please consider adding a default payment method.',
        { code: 'invoice_no_customer_payment_method' },
      )
    } else {
      try {
        const intent = options.paymentIntents().create(
          scope,
          {
            amount,
            currency: String(invoice.currency),
            customer: String(invoice.customer),
            paymentMethod: pm,
            confirm: true,
            offSession: true,
            description: invoice.billing_reason === 'manual' ? 'Invoice' : 'Subscription update',
            metadata: {},
          },
          origin,
        )
        pi = intent.id
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e
        error = e
        const extra = e.extra?.payment_intent as { id?: string } | undefined
        if (typeof extra?.id === 'string') pi = extra.id
      }
    }
    if (error === undefined) return markPaid(scope, id, pi, origin)
    const attempts = (st?.attempts ?? 0) + 1
    if (st !== undefined) st.attempts = attempts
    const timeline = st?.timeline ?? simLine
    const retryIn = how.automatic ? INVOICE_PAYMENT_RETRY_DAYS[attempts - 1] : undefined
    const nextAttempt = retryIn === undefined ? null : timeline.now() + retryIn * DAY
    const updated = r.invoice().put(scope, id, {
      attempt_count: Number(invoice.attempt_count ?? 0) + 1,
      attempted: true,
      next_payment_attempt: nextAttempt === null ? null : sec(nextAttempt),
      last_finalization_error: null,
    })
    kernel.trace.append('invoice.payment_failed', { id, account: scope.account, mode: scope.mode })
    emitInvoice(scope, 'invoice.payment_failed', updated, origin)
    const subId = st?.subscription ?? null
    if (subId !== null) {
      const sub = r.subscription().get(scope, subId)
      if (sub?.status === 'active' || sub?.status === 'trialing') setSubStatus(scope, subId, 'past_due', origin)
    }
    if (st !== undefined && nextAttempt !== null) {
      st.job = timeline.at(nextAttempt, retryJob, refOf(scope, id))
    }
    if (how.raise === true) throw error
    return updated
  }

  function finalizeAndPay(scope: Scope, id: string, origin: Origin, pay: boolean): Json {
    const invoice = finalize(scope, id, origin)
    if (!pay) return invoice
    return attemptPayment(scope, id, origin, { automatic: true })
  }

  // Subscriptions -------------------------------------------------------------------------------

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
    s.job = s.timeline.at(s.periodEnd, periodEndJob, refOf(s.scope, s.id))
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
    if (sub.cancel_at_period_end === true) {
      const metered = items.filter((i) => isMetered(i.price as Json))
      if (metered.length > 0 && !wasTrial) {
        const specs = metered.map((i) => itemLine(scope, s, i, usagePeriod, false))
        const inv = createInvoice({
          scope,
          customer,
          currency,
          sub: s,
          reason: 'subscription_cycle',
          specs,
          period: usagePeriod,
          origin: NO_ORIGIN,
          timeline: s.timeline,
        })
        scheduleFinalize(scope, String(inv.id))
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
        if (!wasTrial) specs.push(itemLine(scope, s, item, usagePeriod, false))
      } else specs.push(itemLine(scope, s, item, nextPeriod, false))
    }
    for (const ii of pendingItems(scope, s.customer, currency)) specs.push(pendingLine(scope, ii))
    s.periodStart = end
    s.periodEnd = nextEnd
    for (const item of items) {
      r.item().put(scope, String(item.id), { current_period_start: sec(end), current_period_end: sec(nextEnd) })
    }
    const invoiceId = kernel.ids.next('in', 24)
    const fields: Record<string, unknown> = { items: itemList(scope, s.id), latest_invoice: invoiceId }
    if (wasTrial && sub.status === 'trialing') fields.status = 'active'
    r.subscription().set(scope, s.id, fields, NO_ORIGIN)
    createInvoice({
      scope,
      customer,
      currency,
      sub: s,
      reason: 'subscription_cycle',
      specs,
      period: usagePeriod,
      origin: NO_ORIGIN,
      id: invoiceId,
      timeline: s.timeline,
    })
    scheduleFinalize(scope, invoiceId)
    schedulePeriodEnd(s)
  }

  function scheduleFinalize(scope: Scope, id: string): void {
    const st = invoiceStates.get(key(scope, id))
    if (st === undefined) return
    st.job = st.timeline.at(st.timeline.now() + INVOICE_FINALIZATION_GRACE_MS, finalizeJob, refOf(scope, id))
  }

  function cancelNow(scope: Scope, id: string, origin: Origin): Json {
    const s = subs.get(key(scope, id))
    const timeline = s?.timeline ?? simLine
    if (s?.job !== undefined) timeline.cancel(s.job)
    if (s !== undefined) s.job = undefined
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

  function voidInvoice(scope: Scope, id: string, origin: Origin): Json {
    const st = invoiceStates.get(key(scope, id))
    if (st?.job !== undefined) st.timeline.cancel(st.job)
    const invoice = r.invoice().require(scope, id)
    const now = (st?.timeline ?? simLine).now()
    const updated = r.invoice().put(scope, id, {
      status: 'void',
      amount_remaining: 0,
      next_payment_attempt: null,
      status_transitions: { ...(invoice.status_transitions as Json), voided_at: sec(now) },
    })
    emitInvoice(scope, 'invoice.voided', updated, origin)
    return updated
  }

  return {
    voidInvoice,
    /** A test clock's timeline (registered on create). */
    registerClock(scope: Scope, id: string, frozenMs: number): void {
      clocks.set(key(scope, id), new TestClockTimeline(id, frozenMs))
    },
    clockTimeline: (scope: Scope, id: string) => clocks.get(key(scope, id)),
    /**
     * Starts advancing a test clock: `advancing` now, and its billing work up to `frozenTime` (unix
     * seconds) queued on the simulator's due-time queue at the current instant (`sim.settle()`,
     * any clock movement, or the next read of the clock runs it); then `ready`.
     */
    advanceClock(scope: Scope, id: string, frozenTime: number, origin: Origin): Json {
      const k = key(scope, id)
      const json = r.clock().put(scope, id, {
        status: 'advancing',
        frozen_time: frozenTime,
        status_details: { advancing: { target_frozen_time: frozenTime } },
      })
      emitSnapshot(events, 'test_helpers.test_clock.advancing', scope, json, origin)
      const args: Advance = { ...refOf(scope, id), frozenTime }
      const job = advanceTask.after(0, args)
      advancing.set(k, { job, args })
      return json
    },
    /** Finishes an advance whose work is due (a read of the clock sees it `ready`, as polling code expects). */
    completeAdvance(scope: Scope, id: string): void {
      const pending = advancing.get(key(scope, id))
      if (pending === undefined || pending.job.due > kernel.clock.now) return
      kernel.scheduler.cancel(pending.job)
      runAdvance(pending.args)
    },
    /** A deleted test clock takes its customers (and their subscriptions) with it, as the provider does. */
    dropClock(scope: Scope, id: string, origin: Origin): void {
      const k = key(scope, id)
      const pending = advancing.get(k)
      if (pending !== undefined) kernel.scheduler.cancel(pending.job)
      advancing.delete(k)
      clocks.get(k)?.clear()
      clocks.delete(k)
      for (const customer of r
        .customer()
        .list(scope)
        .filter((c) => c.test_clock === id)) {
        for (const sub of r
          .subscription()
          .list(scope)
          .filter((x) => x.customer === customer.id && x.status !== 'canceled')) {
          cancelNow(scope, sub.id, origin)
        }
        r.customer().delete(scope, customer.id, origin)
      }
    },
    timelineOfCustomer,
    timelineOfClock,
    newInvoiceId: () => kernel.ids.next('in', 24),
    failed,
    itemsOf,
    itemList,
    isMetered,
    createInvoice,
    finalize,
    finalizeAndPay,
    attemptPayment,
    markPaid,
    cancelNow,
    invoiceState: (scope: Scope, id: string) => invoiceStates.get(key(scope, id)),
    subState: (scope: Scope, id: string) => subs.get(key(scope, id)),
    lineJson,
    totals,
    pendingItems,
    pendingLine,
    itemLine,
    usage,

    /** Refuses a quantity update past `subscription.updates`, then counts it. */
    countQuantityUpdate(scope: Scope, subId: string): void {
      const s = subs.get(key(scope, subId))
      if (s === undefined || rows.updates === undefined) return
      const now = kernel.clock.now
      admit([s.quantityLog], [rows.updates], now)
      count([s.quantityLog], [rows.updates], now)
    },

    /** Refuses a new invoice for a subscription past `subscription.invoices.*` (requests only). */
    checkInvoiceLimit(scope: Scope, subId: string): void {
      const s = subs.get(key(scope, subId))
      if (s === undefined) return
      admit(s.invoiceLogs, rows.invoices, s.timeline.now())
    },

    /**
     * Starts billing a created subscription: remembers its cycle, creates and (unless
     * `default_incomplete`) finalizes and pays its first invoice, and queues its period end.
     */
    start(
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
        invoiceLogs: rows.invoices.map(() => new SlidingLog()),
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
            ...itemLine(scope, s, item, period, true),
            quantity: 0,
            amount: 0,
            description: `0 × ${productName(scope, item.price as Json)}`,
          }
        return itemLine(scope, s, item, period, trial, cycle.prorate)
      })
      for (const ii of pendingItems(scope, s.customer, String(sub.currency))) specs.push(pendingLine(scope, ii))
      createInvoice({
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
      finalizeAndPay(scope, cycle.firstInvoice, origin, cycle.payNow)
      schedulePeriodEnd(s)
      return r.subscription().require(scope, s.id)
    },

    /** The upcoming invoice of a subscription (not stored): processed usage so far, next licensed period, pending items. */
    preview(scope: Scope, subId: string): Json {
      const s = subs.get(key(scope, subId))
      const sub = r.subscription().require(scope, subId)
      if (s === undefined || sub.status === 'canceled') {
        throw invalidRequest(`No upcoming invoices for customer: ${String(sub.customer)}`, {
          code: 'invoice_upcoming_none',
          status: 404,
        })
      }
      const customer = r.customer().require(scope, s.customer)
      const end = s.periodEnd
      const wasTrial = s.trialEnd !== null && end <= s.trialEnd
      const nextPeriod = { start: end, end: boundary(s.anchor, s.interval, s.count, s.n + 1) }
      const usagePeriod = { start: s.periodStart, end }
      const specs: LineSpec[] = []
      for (const item of itemsOf(scope, s.id)) {
        const price = item.price as Json
        if (isMetered(price)) {
          if (!wasTrial) specs.push(itemLine(scope, s, item, usagePeriod, false))
        } else if (sub.cancel_at_period_end !== true) specs.push(itemLine(scope, s, item, nextPeriod, false))
      }
      for (const ii of pendingItems(scope, s.customer, String(sub.currency))) specs.push(pendingLine(scope, ii))
      const id = `upcoming_${kernel.ids.next('in', 24)}`
      const fields = invoiceFields(
        scope,
        {
          scope,
          customer,
          currency: String(sub.currency),
          sub: s,
          reason: 'upcoming',
          specs,
          period: usagePeriod,
          origin: NO_ORIGIN,
          timeline: s.timeline,
        },
        id,
      )
      return engine.build('Invoice', 'invoice', scope, {
        ...fields,
        id,
        object: 'invoice',
        created: sec(end),
        automatically_finalizes_at: sec(end + INVOICE_FINALIZATION_GRACE_MS),
        next_payment_attempt: sec(end + INVOICE_FINALIZATION_GRACE_MS),
        billing_reason: 'upcoming',
      })
    },
  }
}

function describeWindow(ms: number): string {
  if (ms === MINUTE) return 'minute'
  if (ms === HOUR) return 'hour'
  if (ms === DAY) return 'day'
  return `${ms} ms`
}
