import { errorMessage } from '#catalogue/errors.js'
import type { AggregateUsage } from '../../billing/usage-records.js'
import type { Json } from '../../engine/list.js'
import { invalidRequest } from '../../service-error.js'
import type { RetiredBehaviour, RetiredCall } from './retired-call.js'

const invalid = (param: string, detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail }), { code: 'parameter_invalid', param })

/** The subscription item of the path, its legacy aggregate (a metered price without a meter) and its subscription's period. */
function legacyItem(call: RetiredCall): { item: Json; aggregate: AggregateUsage; period: { start: number; end: number } } {
  const { service, scope } = call
  const item = service.engine.resource('subscription_item').require(scope, call.path.subscription_item ?? '')
  const recurring = (item.price as Json | undefined)?.recurring as Json | null | undefined
  if (recurring?.usage_type !== 'metered' || typeof recurring.aggregate_usage !== 'string') {
    throw invalid('subscription_item', 'usage records can only be reported for an item whose price is metered without a meter')
  }
  const state = service.billing.subState(scope, String(item.subscription))
  const period =
    state === undefined
      ? { start: 0, end: 0 }
      : { start: Math.floor(state.periodStart / 1000), end: Math.floor(state.periodEnd / 1000) }
  return { item, aggregate: recurring.aggregate_usage as AggregateUsage, period }
}

/**
 * `subscriptionItems.createUsageRecord` (before basil): usage reported for a metered item at
 * `timestamp` (default now), added (`increment`, the default) or replacing what was reported at
 * that second (`set`). The item's next invoice bills it, as meter events bill a meter's price.
 *
 * @example
 * CREATE_USAGE_RECORD(call) // { id: 'mbur_…', object: 'usage_record', quantity: 5, subscription_item: 'si_…', timestamp }
 */
export const CREATE_USAGE_RECORD: RetiredBehaviour = (call) => {
  const { service, scope, params } = call
  const { item, period } = legacyItem(call)
  const quantity = Number(params.quantity)
  if (params.quantity === undefined) {
    throw invalidRequest(errorMessage('parameter_missing', { param: 'quantity' }), {
      code: 'parameter_missing',
      param: 'quantity',
    })
  }
  if (!Number.isSafeInteger(quantity) || quantity < 0) throw invalid('quantity', 'must be a non-negative integer')
  const now = Math.floor(service.kernel.clock.now / 1000)
  const timestamp = params.timestamp === undefined || params.timestamp === 'now' ? now : Number(params.timestamp)
  if (!Number.isSafeInteger(timestamp)) throw invalid('timestamp', "must be a unix timestamp or 'now'")
  if (timestamp < period.start) throw invalid('timestamp', 'must be within the current billing period')
  const action = params.action ?? 'increment'
  if (action !== 'increment' && action !== 'set') throw invalid('action', 'must be one of increment, set')
  const recorded = service.billing.usageRecords.record(scope, String(item.id), { quantity, at: timestamp, action })
  return {
    id: service.kernel.ids.next('mbur', 24),
    object: 'usage_record',
    livemode: scope.mode === 'live',
    quantity: recorded,
    subscription_item: item.id,
    timestamp,
  }
}

/**
 * `subscriptionItems.listUsageRecordSummaries` (before basil): the item's usage of its current
 * period, aggregated as its price says (not yet invoiced, so `invoice` is null).
 *
 * @example
 * LIST_USAGE_RECORD_SUMMARIES(call) // { object: 'list', data: [{ object: 'usage_record_summary', total_usage: 5, ... }] }
 */
export const LIST_USAGE_RECORD_SUMMARIES: RetiredBehaviour = (call) => {
  const { service, scope } = call
  const { item, aggregate, period } = legacyItem(call)
  const id = String(item.id)
  const total = service.billing.usageRecords.total(scope, id, aggregate, period.start, period.end)
  const data = [
    {
      id: `sis_${id.slice(id.indexOf('_') + 1)}_${period.start}`,
      object: 'usage_record_summary',
      invoice: null,
      livemode: scope.mode === 'live',
      period: { start: period.start, end: period.end },
      subscription_item: id,
      total_usage: total,
    },
  ]
  return { object: 'list', data, has_more: false, url: `/v1/subscription_items/${id}/usage_record_summaries` }
}
