import type { Mode } from '../mode.js'
import type { Service } from '../service.js'
import { formulaValue } from './aggregates.js'
import { type BilledUsage, type BilledUsageInput, billedUsage, engineBillingSource } from './billed-usage.js'
import type { Meter, MeterFormula } from './meter.js'
import { meterJson } from './meter.js'
import type { MeterEventStats } from './meter-events.js'

/** Setup input of `admin.createMeter`; the account defaults to the platform and the mode to test. */
export interface AdminMeterInput {
  eventName: string
  displayName?: string
  formula?: MeterFormula
  customerKey?: string
  valueKey?: string
  account?: string
  mode?: Mode
}

/** Processed usage of one meter and customer: the formula's value and all three folds. */
export interface MeterSummary {
  readonly meter: string
  readonly customer: string
  readonly formula: MeterFormula
  readonly value: number
  readonly sum: number
  readonly count: number
  readonly last: number | null
}

/**
 * The metering part of `sim.admin`: meters without HTTP, and what the aggregates hold.
 *
 * @example
 * const meter = sim.admin.createMeter({ eventName: 'api_call' })
 * sim.admin.meterSummary({ meter: meter.id, customer: 'cus_1' }).value // processed usage only
 */
export interface MeterAdmin {
  /** Creates a meter (formula `sum` and display name = event name unless given); returns its `billing.meter` JSON. */
  createMeter(input: AdminMeterInput): Record<string, unknown>
  /** The `billing.meter` JSON of a meter of any account and mode. */
  meter(id: string): Record<string, unknown> | undefined
  meters(filter?: { account?: string; mode?: Mode }): Record<string, unknown>[]
  deactivateMeter(id: string): Record<string, unknown>
  reactivateMeter(id: string): Record<string, unknown>
  /** Processed usage of a meter and customer with timestamps in [start, end) (epoch ms; default: all time). */
  meterSummary(input: { meter: string; customer: string; start?: number; end?: number }): MeterSummary
  /** Pending, processed, invalid and duplicate event counts, and the size of the identifier indexes. */
  meterStats(): MeterEventStats
  /**
   * A customer's usage per meter and billing period: processed (aggregated as the meter defines),
   * pending and cancelled counts, and what each invoice billed for it.
   *
   * @example
   * sim.admin.billedUsage({ customer: 'cus_1' }).meters[0]?.periods // [{ start, end, value, pendingEvents, invoices, ... }]
   */
  billedUsage(input: BilledUsageInput): BilledUsage
}

export function createMeterAdmin(service: Service): MeterAdmin {
  function find(id: string, caller: string): Meter {
    const meter = service.meters.all().find((m) => m.id === id)
    if (meter === undefined) throw new TypeError(`admin.${caller}: no such meter '${id}'`)
    return meter
  }
  return {
    createMeter(input) {
      const scope = { account: input.account ?? service.accounts.platform.id, mode: input.mode ?? 'test' }
      const meter = service.meters.create(scope, {
        eventName: input.eventName,
        displayName: input.displayName ?? input.eventName,
        formula: input.formula ?? 'sum',
        ...(input.customerKey === undefined ? {} : { customerKey: input.customerKey }),
        ...(input.valueKey === undefined ? {} : { valueKey: input.valueKey }),
      })
      return meterJson(meter)
    },
    meter(id) {
      const meter = service.meters.all().find((m) => m.id === id)
      return meter === undefined ? undefined : meterJson(meter)
    },
    meters: (filter = {}) =>
      service.meters
        .all()
        .filter(
          (m) =>
            (filter.account === undefined || m.account === filter.account) &&
            (filter.mode === undefined || m.mode === filter.mode),
        )
        .map(meterJson),
    deactivateMeter(id) {
      const m = find(id, 'deactivateMeter')
      return meterJson(service.meters.deactivate(m, id))
    },
    reactivateMeter(id) {
      const m = find(id, 'reactivateMeter')
      return meterJson(service.meters.reactivate(m, id))
    },
    meterSummary({ meter, customer, start, end }) {
      const m = find(meter, 'meterSummary')
      const v = service.meterEvents.window(m, customer, start ?? Number.NEGATIVE_INFINITY, end ?? Number.POSITIVE_INFINITY)
      return { meter, customer, formula: m.formula, value: formulaValue(m.formula, v), ...v }
    },
    meterStats: () => service.meterEvents.stats(),
    billedUsage(input) {
      // Typed setup code gets a TypeError for a mistake, as the other admin calls do (an unknown
      // account or mode answered an empty result, as if the customer had no usage).
      if (input.account !== undefined && service.accounts.get(input.account) === undefined)
        throw new TypeError(`admin.billedUsage: no such account '${input.account}'`)
      if (input.mode !== undefined && input.mode !== 'test' && input.mode !== 'live')
        throw new TypeError(`admin.billedUsage: mode must be 'test' or 'live', got '${String(input.mode)}'`)
      if (input.meter !== undefined) find(input.meter, 'billedUsage')
      return billedUsage(service, input, engineBillingSource(service))
    },
  }
}
