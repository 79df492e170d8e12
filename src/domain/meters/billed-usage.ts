import type { Mode } from '../mode.js'
import type { Service } from '../service.js'
import { formulaValue } from './aggregates.js'
import type { MeterFormula } from './meter.js'

/** One billing period of one meter for one customer: what the meter holds and what was billed. */
export interface UsagePeriod {
  /** Epoch ms, inclusive. */
  readonly start: number
  /** Epoch ms, exclusive. */
  readonly end: number
  /** Processed usage as the meter aggregates it (`sum`, `count` or `last`). */
  readonly value: number
  readonly sum: number
  readonly count: number
  readonly last: number | null
  /** Accepted events of this period not processed yet (they will count), and their summed value. */
  readonly pendingEvents: number
  readonly pendingValue: number
  /** Events of this period cancelled by an adjustment, and their summed value. */
  readonly cancelledEvents: number
  readonly cancelledValue: number
  /** What invoices billed for this meter and period (empty until billing bills it). */
  readonly invoices: readonly BilledLine[]
}

/** One invoice line that billed a meter's usage for a period. */
export interface BilledLine {
  readonly invoice: string
  readonly status: string
  readonly line: string
  readonly quantity: number
  /** Minor units. */
  readonly amount: number
  readonly currency: string
  readonly price: string | null
  readonly subscriptionItem: string | null
}

/** A customer's usage per meter and billing period. */
export interface BilledUsage {
  readonly customer: string
  readonly account: string
  readonly mode: Mode
  readonly meters: readonly {
    readonly meter: string
    readonly eventName: string
    readonly formula: MeterFormula
    readonly periods: readonly UsagePeriod[]
  }[]
}

/** Input of {@link billedUsage}. */
export interface BilledUsageInput {
  readonly customer: string
  /** Default: the platform account. */
  readonly account?: string
  readonly mode?: Mode
  /** Only this meter (id). */
  readonly meter?: string
  /**
   * The periods to report (epoch ms, [start, end)). Default: the billing periods billing knows for
   * the customer and meter, else calendar months (UTC) from the first usage to now.
   */
  readonly periods?: readonly { start: number; end: number }[]
}

/**
 * Where billing plugs in: the periods it bills a customer's meter in, and the invoice lines that
 * billed them. Without billing, months and no lines.
 */
export interface UsageBillingSource {
  periods(scope: { account: string; mode: Mode }, customer: string, meter: string): { start: number; end: number }[]
  lines(
    scope: { account: string; mode: Mode },
    customer: string,
    meter: string,
    period: { start: number; end: number },
  ): BilledLine[]
}

type Json = Record<string, unknown>

const ms = (seconds: unknown) => Number(seconds) * 1000

/**
 * Billing as the engine stores it: periods are those of the customer's invoice lines and
 * subscription items priced on the meter; lines are the metered invoice lines of a period.
 *
 * @example
 * billedUsage(service, { customer: 'cus_1' }, engineBillingSource(service))
 */
export function engineBillingSource(service: Service): UsageBillingSource {
  const engine = service.engine
  const meterOf = (scope: { account: string; mode: Mode }, priceId: unknown): string | undefined => {
    if (typeof priceId !== 'string') return undefined
    const price = engine.resource('price').get(scope, priceId) as Json | undefined
    const meter = (price?.recurring as { meter?: unknown } | null | undefined)?.meter
    return typeof meter === 'string' ? meter : undefined
  }
  const priceOfLine = (line: Json): string | undefined => {
    const details = (line.pricing as { price_details?: { price?: unknown } } | null | undefined)?.price_details
    return typeof details?.price === 'string' ? details.price : undefined
  }
  const invoices = (scope: { account: string; mode: Mode }, customer: string): Json[] =>
    (engine.resource('invoice').list(scope) as Json[]).filter((i) => i.customer === customer)
  const meteredLines = function* (scope: { account: string; mode: Mode }, customer: string, meter: string) {
    for (const invoice of invoices(scope, customer)) {
      for (const line of ((invoice.lines as { data?: Json[] } | undefined)?.data ?? []) as Json[]) {
        if (meterOf(scope, priceOfLine(line)) === meter) yield { invoice, line }
      }
    }
  }
  return {
    periods(scope, customer, meter) {
      const seen = new Map<string, { start: number; end: number }>()
      for (const { line } of meteredLines(scope, customer, meter)) {
        const p = line.period as { start: number; end: number }
        seen.set(`${p.start}|${p.end}`, { start: ms(p.start), end: ms(p.end) })
      }
      const subs = (engine.resource('subscription').list(scope) as Json[]).filter((x) => x.customer === customer)
      for (const sub of subs) {
        for (const item of ((sub.items as { data?: Json[] } | undefined)?.data ?? []) as Json[]) {
          const priceId = (item.price as Json | undefined)?.id ?? item.price
          if (meterOf(scope, priceId) !== meter) continue
          const current = engine.resource('subscription_item').get(scope, String(item.id)) as Json | undefined
          const start = current?.current_period_start ?? item.current_period_start
          const end = current?.current_period_end ?? item.current_period_end
          if (typeof start === 'number' && typeof end === 'number')
            seen.set(`${start}|${end}`, { start: ms(start), end: ms(end) })
        }
      }
      return [...seen.values()].sort((a, b) => a.start - b.start)
    },
    lines(scope, customer, meter, period) {
      const out: BilledLine[] = []
      for (const { invoice, line } of meteredLines(scope, customer, meter)) {
        const p = line.period as { start: number; end: number }
        if (ms(p.start) !== period.start || ms(p.end) !== period.end) continue
        const parent = line.parent as { subscription_item_details?: { subscription_item?: unknown } | null } | null
        out.push({
          invoice: String(invoice.id),
          status: String(invoice.status),
          line: String(line.id),
          quantity: Number(line.quantity ?? 0),
          amount: Number(line.amount ?? 0),
          currency: String(line.currency ?? invoice.currency),
          price: priceOfLine(line) ?? null,
          subscriptionItem:
            typeof parent?.subscription_item_details?.subscription_item === 'string'
              ? parent.subscription_item_details.subscription_item
              : null,
        })
      }
      return out
    },
  }
}

function monthStart(t: number): number {
  const d = new Date(t)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
}

function nextMonth(t: number): number {
  const d = new Date(t)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
}

/** Calendar months (UTC) covering [from, to]. */
export function calendarMonths(from: number, to: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = []
  for (let start = monthStart(from); start <= to; start = nextMonth(start)) out.push({ start, end: nextMonth(start) })
  return out
}

/**
 * A customer's usage per meter and period: processed (aggregated as the meter defines), pending
 * and cancelled, and what each invoice billed for it.
 *
 * @example
 * billedUsage(service, { customer: 'cus_1' }).meters[0].periods[0] // { start, end, value: 42, pendingEvents: 0, ... }
 */
export function billedUsage(service: Service, input: BilledUsageInput, source?: UsageBillingSource): BilledUsage {
  const scope = { account: input.account ?? service.accounts.platform.id, mode: input.mode ?? ('test' as Mode) }
  const now = service.kernel.clock.now
  const meters = [...service.meters.list(scope)].reverse().filter((m) => input.meter === undefined || m.id === input.meter)
  const pending = service.meterEvents.pending(scope).filter((p) => p.customer === input.customer)
  const cancelled = service.meterEvents.cancelled(scope).filter((c) => c.customer === input.customer)
  const aggregates = service.meterEvents.aggregates
  return {
    customer: input.customer,
    account: scope.account,
    mode: scope.mode,
    meters: meters.map((m) => {
      let periods = input.periods ?? source?.periods(scope, input.customer, m.id)
      if (periods === undefined || periods.length === 0) {
        const first = Math.min(
          aggregates.firstMinute(m.id, input.customer) ?? now,
          ...pending.filter((p) => p.meter === m.id).map((p) => p.timestamp),
        )
        periods = calendarMonths(first, now)
      }
      return {
        meter: m.id,
        eventName: m.event_name,
        formula: m.default_aggregation.formula,
        periods: periods.map((period) => {
          const v = aggregates.window(m.id, input.customer, period.start, period.end)
          const inPeriod = (e: { meter: string; timestamp: number }) =>
            e.meter === m.id && e.timestamp >= period.start && e.timestamp < period.end
          const p = pending.filter(inPeriod)
          const c = cancelled.filter(inPeriod)
          return {
            start: period.start,
            end: period.end,
            value: formulaValue(m.default_aggregation.formula, v),
            ...v,
            pendingEvents: p.length,
            pendingValue: p.reduce((n, e) => n + e.value, 0),
            cancelledEvents: c.length,
            cancelledValue: c.reduce((n, e) => n + e.value, 0),
            invoices: source?.lines(scope, input.customer, m.id, period) ?? [],
          }
        }),
      }
    }),
  }
}
