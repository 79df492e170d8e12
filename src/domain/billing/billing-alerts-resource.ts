import { errorMessage } from '#catalogue/errors.js'
import { isPlainObject } from '../engine/apply-params.js'
import type { Behaviour, OperationCall, ResourceDeclaration } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import { type Json, pageV1 } from '../engine/list.js'
import type { ResourcePorts } from '../resource-ports.js'
import { invalidRequest } from '../service-error.js'

const invalid = (param: string, detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail }), { code: 'parameter_invalid', param })
const missing = (param: string) =>
  invalidRequest(errorMessage('parameter_missing', { param }), { code: 'parameter_missing', param })

function alertOf(engine: Engine, call: OperationCall): Json {
  return engine.resource('billing.alert').require(call.scope, call.path.id ?? '')
}

/** A status change; an archived alert stays archived ("cannot be reactivated"). */
const moveTo =
  (status: string): Behaviour<ResourcePorts> =>
  (call, _next, { engine }) => {
    const alert = alertOf(engine, call)
    if (alert.status === 'archived') throw invalid('id', 'an archived alert cannot be changed')
    return engine.resource('billing.alert').set(call.scope, alert.id, { status }, call.origin)
  }

/**
 * Billing alerts: a usage threshold (`gte`) on a meter, for every customer or those its filters
 * name; `billing.alert.triggered` once per customer when processed usage reaches it
 * (src/domain/billing/alerts.ts). `deactivate` pauses it, `activate` resumes it, `archive` ends it.
 *
 * @example
 * await stripe.billing.alerts.create({ alert_type: 'usage_threshold', title: '1k calls', usage_threshold: { gte: 1000, meter: 'mtr_…', recurrence: 'one_time' } })
 */
export const billingAlerts: ResourceDeclaration<ResourcePorts> = {
  type: 'Billing.Alert',
  object: 'billing.alert',
  idPrefix: 'alrt',
  defaults: () => ({ alert_type: 'usage_threshold', status: 'active' }),
  behaviours: {
    'billing.alerts.create'(call, next, { engine }) {
      const { alert_type: type, title, usage_threshold: threshold } = call.params
      if (type !== 'usage_threshold') throw invalid('alert_type', "must be 'usage_threshold'")
      if (typeof title !== 'string' || title === '') throw missing('title')
      if (!isPlainObject(threshold)) throw missing('usage_threshold')
      const gte = Number(threshold.gte)
      if (threshold.gte === undefined) throw missing('usage_threshold[gte]')
      if (!Number.isSafeInteger(gte) || gte < 1) throw invalid('usage_threshold[gte]', 'must be a positive integer')
      if (typeof threshold.meter !== 'string') throw missing('usage_threshold[meter]')
      engine.resource('billing.meter').requireParam(call.scope, threshold.meter, 'usage_threshold[meter]')
      if (threshold.recurrence !== 'one_time') throw invalid('usage_threshold[recurrence]', "must be 'one_time'")
      const raw = threshold.filters
      const entries = Array.isArray(raw) ? raw : isPlainObject(raw) ? Object.values(raw) : []
      const filters = entries.map((f, i) => {
        const param = `usage_threshold[filters][${i}]`
        if (!isPlainObject(f) || f.type !== 'customer') throw invalid(`${param}[type]`, "must be 'customer'")
        if (typeof f.customer !== 'string') throw missing(`${param}[customer]`)
        engine.resource('customer').requireParam(call.scope, f.customer, `${param}[customer]`)
        return { customer: f.customer, type: 'customer' }
      })
      return next(
        { alert_type: type, title },
        {
          usage_threshold: {
            filters: filters.length === 0 ? null : filters,
            gte,
            meter: threshold.meter,
            recurrence: 'one_time',
          },
        },
      )
    },
    'billing.alerts.list'(call, next, { engine }) {
      // `meter` sits under `usage_threshold`, out of reach of the engine's equality filters.
      const { meter, ...params } = call.params
      if (meter === undefined) return next()
      const items = engine
        .resource('billing.alert')
        .list(call.scope)
        .filter(
          (a) =>
            (a.usage_threshold as { meter: unknown } | null)?.meter === meter &&
            (params.alert_type === undefined || a.alert_type === params.alert_type),
        )
      return pageV1(items, params, '/v1/billing/alerts', 'billing.alert')
    },
    'billing.alerts.activate': moveTo('active'),
    'billing.alerts.deactivate': moveTo('inactive'),
    'billing.alerts.archive': moveTo('archived'),
  },
}
