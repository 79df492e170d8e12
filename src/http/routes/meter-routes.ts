import { createHash } from 'node:crypto'
import { z } from 'zod'
import { formulaValue } from '#domain/meters/aggregates.js'
import { meterJson } from '#domain/meters/meter.js'
import { invalidRequest } from '#domain/service-error.js'
import { DAY, HOUR } from '#kernel/time.js'
import { expand, formInt, nonEmpty } from '../params.js'
import type { RequestContext, Route } from '../route.js'
import { listParams, page } from './meter-pagination.js'

/** Most windows one event-summaries query may span (a year of hours is 8,760). */
export const MAX_SUMMARY_WINDOWS = 10_000

const payloadKey = z.string().min(1).max(100)

const createBody = z.object({
  default_aggregation: z.object({ formula: z.enum(['sum', 'count', 'last']) }),
  display_name: nonEmpty.max(250),
  event_name: nonEmpty.max(100),
  customer_mapping: z.object({ event_payload_key: payloadKey, type: z.literal('by_id') }).optional(),
  value_settings: z.object({ event_payload_key: payloadKey }).optional(),
  event_time_window: z.enum(['day', 'hour']).optional(),
  expand,
})

const updateBody = z.object({ display_name: nonEmpty.max(250).optional(), expand })
const expandOnly = z.object({ expand })
const listQuery = z.object({ status: z.enum(['active', 'inactive']).optional(), expand, ...listParams })
const summariesQuery = z.object({
  customer: nonEmpty,
  start_time: formInt,
  end_time: formInt,
  value_grouping_window: z.enum(['hour', 'day']).optional(),
  expand,
  ...listParams,
})

function scope(ctx: RequestContext) {
  return { account: ctx.principal.account.id, mode: ctx.principal.mode }
}

function summaryId(meter: string, customer: string, start: number, end: number, livemode: boolean): string {
  const digest = createHash('sha256').update(`${meter}|${customer}|${start}|${end}`).digest('base64url').slice(0, 32)
  return `mtrusg_${livemode ? 'live' : 'test'}_${digest.replace(/[-_]/g, '0')}`
}

/** The windows an event-summaries query asks for, in unix seconds, validated as the provider does. */
function windows(q: z.infer<typeof summariesQuery>): [number, number][] {
  const { start_time: start, end_time: end } = q
  if (start % 60 !== 0) throw invalidRequest('start_time must be aligned with minute boundaries.', { param: 'start_time' })
  if (end % 60 !== 0) throw invalidRequest('end_time must be aligned with minute boundaries.', { param: 'end_time' })
  if (end <= start) throw invalidRequest('end_time must be after start_time.', { param: 'end_time' })
  if (q.value_grouping_window === undefined) return [[start, end]]
  const step = (q.value_grouping_window === 'hour' ? HOUR : DAY) / 1000
  for (const [name, t] of [
    ['start_time', start],
    ['end_time', end],
  ] as const) {
    if (t % step !== 0) {
      throw invalidRequest(
        `${name} must be aligned with ${q.value_grouping_window === 'hour' ? 'hour' : 'UTC day'} boundaries when value_grouping_window is '${q.value_grouping_window}'.`,
        { param: name },
      )
    }
  }
  if ((end - start) / step > MAX_SUMMARY_WINDOWS) {
    throw invalidRequest(`The range spans more than ${MAX_SUMMARY_WINDOWS} windows; narrow start_time and end_time.`, {
      param: 'end_time',
    })
  }
  const out: [number, number][] = []
  for (let t = start; t < end; t += step) out.push([t, t + step])
  return out
}

/** `/v1/billing/meters`: the meter operations and event summaries as the official client calls them. */
export const meterRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/billing/meters',
    operation: 'billing.meters.create',
    body: createBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof createBody>
      const meter = ctx.service.meters.create(scope(ctx), {
        eventName: b.event_name,
        displayName: b.display_name,
        formula: b.default_aggregation.formula,
        ...(b.customer_mapping ? { customerKey: b.customer_mapping.event_payload_key } : {}),
        ...(b.value_settings ? { valueKey: b.value_settings.event_payload_key } : {}),
        ...(b.event_time_window ? { eventTimeWindow: b.event_time_window } : {}),
      })
      return meterJson(meter)
    },
  },
  {
    method: 'GET',
    path: '/v1/billing/meters',
    operation: 'billing.meters.list',
    query: listQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof listQuery>
      const all = ctx.service.meters.list(scope(ctx)).filter((m) => q.status === undefined || m.status === q.status)
      return page(all.map(meterJson), q, '/v1/billing/meters')
    },
  },
  {
    method: 'GET',
    path: '/v1/billing/meters/:id',
    operation: 'billing.meters.retrieve',
    object: 'id',
    query: expandOnly,
    handle: (ctx) => meterJson(ctx.service.meters.retrieve(scope(ctx), ctx.params.id ?? '')),
  },
  {
    method: 'POST',
    path: '/v1/billing/meters/:id',
    operation: 'billing.meters.update',
    object: 'id',
    body: updateBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof updateBody>
      const changes = b.display_name === undefined ? {} : { displayName: b.display_name }
      return meterJson(ctx.service.meters.update(scope(ctx), ctx.params.id ?? '', changes))
    },
  },
  {
    method: 'POST',
    path: '/v1/billing/meters/:id/deactivate',
    operation: 'billing.meters.deactivate',
    object: 'id',
    body: expandOnly,
    handle: (ctx) => meterJson(ctx.service.meters.deactivate(scope(ctx), ctx.params.id ?? '')),
  },
  {
    method: 'POST',
    path: '/v1/billing/meters/:id/reactivate',
    operation: 'billing.meters.reactivate',
    object: 'id',
    body: expandOnly,
    handle: (ctx) => meterJson(ctx.service.meters.reactivate(scope(ctx), ctx.params.id ?? '')),
  },
  {
    method: 'GET',
    path: '/v1/billing/meters/:id/event_summaries',
    operation: 'billing.meters.listEventSummaries',
    object: 'id',
    query: summariesQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof summariesQuery>
      const meter = ctx.service.meters.retrieve(scope(ctx), ctx.params.id ?? '')
      const livemode = meter.mode === 'live'
      const data = windows(q).map(([start, end]) => ({
        id: summaryId(meter.id, q.customer, start, end, livemode),
        object: 'billing.meter_event_summary',
        aggregated_value: formulaValue(
          meter.formula,
          ctx.service.meterEvents.window(meter, q.customer, start * 1000, end * 1000),
        ),
        end_time: end,
        livemode,
        meter: meter.id,
        start_time: start,
      }))
      return page(data, q, `/v1/billing/meters/${meter.id}/event_summaries`)
    },
  },
]
