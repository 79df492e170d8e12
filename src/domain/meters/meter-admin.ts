import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Mode, Scope } from '../mode.js'
import type { Service } from '../service.js'
import { formulaValue } from './aggregates.js'
import { type BilledUsage, type BilledUsageInput, billedUsage, engineBillingSource } from './billed-usage.js'
import type { Meter, MeterFormula } from './meter.js'
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

/** A meter with the account and mode it lives in. */
interface Placed {
  readonly scope: Scope
  readonly meter: Meter
}

/** Every meter of every account and mode, oldest first. */
function allMeters(service: Service): Placed[] {
  const out: Placed[] = []
  for (const account of service.accounts.list()) {
    for (const mode of ['test', 'live'] as const) {
      const scope = { account: account.id, mode }
      for (const meter of [...service.meters.list(scope)].reverse()) out.push({ scope, meter })
    }
  }
  return out
}

function adminCall(
  service: Service,
  operation: string,
  scope: Scope,
  path: Record<string, string>,
  params: Record<string, unknown>,
): Meter {
  return service.engine.run(operation, { scope, origin: NO_ORIGIN, path, params }) as Meter
}

/** An admin call's input that is no object fails on its first field: refused, naming the call. */
function refuseNotObject(caller: string, input: unknown): void {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new TypeError(
      `admin.${caller}: input must be an object, got ${input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input}`,
    )
}

export function createMeterAdmin(service: Service): MeterAdmin {
  function find(id: string, caller: string): Placed {
    const placed = allMeters(service).find((p) => p.meter.id === id)
    if (placed === undefined) throw new TypeError(`admin.${caller}: no such meter '${id}'`)
    return placed
  }
  const json = (m: Meter) => ({ ...m }) as Record<string, unknown>
  return {
    createMeter(input) {
      refuseNotObject('createMeter', input)
      const scope = { account: input.account ?? service.accounts.platform.id, mode: input.mode ?? 'test' }
      const params: Record<string, unknown> = {
        event_name: input.eventName,
        display_name: input.displayName ?? input.eventName,
        default_aggregation: { formula: input.formula ?? 'sum' },
      }
      if (input.customerKey !== undefined) params.customer_mapping = { event_payload_key: input.customerKey, type: 'by_id' }
      if (input.valueKey !== undefined) params.value_settings = { event_payload_key: input.valueKey }
      return json(adminCall(service, 'billing.meters.create', scope, {}, params))
    },
    meter(id) {
      const placed = allMeters(service).find((p) => p.meter.id === id)
      return placed === undefined ? undefined : json(placed.meter)
    },
    meters: (filter = {}) =>
      allMeters(service)
        .filter(
          (p) =>
            (filter.account === undefined || p.scope.account === filter.account) &&
            (filter.mode === undefined || p.scope.mode === filter.mode),
        )
        .map((p) => json(p.meter)),
    deactivateMeter(id) {
      const { scope } = find(id, 'deactivateMeter')
      return json(adminCall(service, 'billing.meters.deactivate', scope, { id }, {}))
    },
    reactivateMeter(id) {
      const { scope } = find(id, 'reactivateMeter')
      return json(adminCall(service, 'billing.meters.reactivate', scope, { id }, {}))
    },
    meterSummary(input) {
      refuseNotObject('meterSummary', input)
      const { meter, customer, start, end } = input
      const m = find(meter, 'meterSummary').meter
      const formula = m.default_aggregation.formula
      const v = service.meterEvents.window(m, customer, start ?? Number.NEGATIVE_INFINITY, end ?? Number.POSITIVE_INFINITY)
      return { meter, customer, formula, value: formulaValue(formula, v), ...v }
    },
    meterStats: () => service.meterEvents.stats(),
    billedUsage(input) {
      refuseNotObject('billedUsage', input)
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
