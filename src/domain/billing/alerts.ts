import type { Json } from '../engine/list.js'
import { emitSnapshot, NO_ORIGIN } from '../events/emit-snapshot.js'
import { formulaValue } from '../meters/aggregates.js'
import type { ProcessedUsage } from '../meters/meter-event-types.js'
import type { Mode, Scope } from '../mode.js'
import type { BillingContext } from './context.js'

const TRIGGERED = 'billing.alert.triggered'

/** The scope of a processing key (`acct_…|test`). */
function scopeOfKey(key: string): Scope {
  const cut = key.lastIndexOf('|')
  return { account: key.slice(0, cut), mode: key.slice(cut + 1) as Mode }
}

/**
 * Billing alerts: after each processing task that counted usage, every active usage-threshold
 * alert on a meter it touched compares each customer's processed usage since the alert was made
 * (the meter's aggregate) with its `gte`, and fires `billing.alert.triggered` once per customer
 * (`recurrence: 'one_time'`). Whether an alert fired for a customer is read from the events
 * already emitted, so snapshots and forks need no state of their own.
 *
 * @example
 * meterEvents.onProcessed(createAlerts(ctx).processed)
 */
export type Alerts = ReturnType<typeof createAlerts>

export function createAlerts(ctx: BillingContext) {
  const { engine, kernel } = ctx
  const { meters, meterEvents } = ctx.options
  const own_ = {
    fired(scope: Scope, alert: string, customer: string): boolean {
      return ctx.events.list(scope, 'snapshot').some((e) => {
        if (e.type !== TRIGGERED) return false
        const object = (e.body.data as { object: { alert: { id: string }; customer: string } }).object
        return object.alert.id === alert && object.customer === customer
      })
    },
    check(scope: Scope, alert: Json, meterId: string, customer: string): void {
      const threshold = alert.usage_threshold as { gte: number; filters: { customer: string | null }[] | null }
      const wanted = threshold.filters?.map((f) => f.customer).filter((c): c is string => typeof c === 'string') ?? []
      if (wanted.length > 0 && !wanted.includes(customer)) return
      const meter = meters.find(scope, meterId)
      if (meter === undefined) return
      const since = Number(alert.created) * 1000
      const value = formulaValue(
        meter.default_aggregation.formula,
        meterEvents.window(meter, customer, since, Number.MAX_SAFE_INTEGER),
      )
      if (value < threshold.gte || own_.fired(scope, alert.id, customer)) return
      emitSnapshot(
        ctx.events,
        TRIGGERED,
        scope,
        {
          object: 'billing.alert_triggered',
          alert,
          created: Math.floor(kernel.clock.now / 1000),
          customer,
          livemode: scope.mode === 'live',
          value,
        },
        NO_ORIGIN,
      )
    },
    /** The processing listener: a quick exit while the account has no active alert. */
    processed(usage: ProcessedUsage): void {
      const scope = scopeOfKey(usage.key)
      const active = engine
        .resource('billing.alert')
        .list(scope)
        .filter((a) => a.status === 'active')
      if (active.length === 0) return
      const touched = new Map<string, Set<string>>()
      if (usage.kind === 'one') touched.set(usage.meter, new Set([usage.customer]))
      else {
        for (const e of usage.events) {
          const meter = meters.byEventName(scope, e.event_name)
          if (meter === undefined) continue
          const customer = e.payload[meter.customer_mapping.event_payload_key]
          if (typeof customer !== 'string') continue
          const set = touched.get(meter.id) ?? new Set<string>()
          set.add(customer)
          touched.set(meter.id, set)
        }
      }
      for (const alert of active) {
        const meterId = String((alert.usage_threshold as { meter: string }).meter)
        for (const customer of [...(touched.get(meterId) ?? [])].sort()) own_.check(scope, alert, meterId, customer)
      }
    },
  }

  return { processed: own_.processed }
}
