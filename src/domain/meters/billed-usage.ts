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
  const meters = service.meters
    .all()
    .filter((m) => m.account === scope.account && m.mode === scope.mode && (input.meter === undefined || m.id === input.meter))
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
        eventName: m.eventName,
        formula: m.formula,
        periods: periods.map((period) => {
          const v = aggregates.window(m.id, input.customer, period.start, period.end)
          const inPeriod = (e: { meter: string; timestamp: number }) =>
            e.meter === m.id && e.timestamp >= period.start && e.timestamp < period.end
          const p = pending.filter(inPeriod)
          const c = cancelled.filter(inPeriod)
          return {
            start: period.start,
            end: period.end,
            value: formulaValue(m.formula, v),
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
