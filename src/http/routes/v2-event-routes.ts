import { z } from 'zod'
import type { StoredEvent } from '#domain/events/event.js'
import { resourceMissing } from '#domain/service-error.js'
import { v2List, v2ListFields } from '../pagination.js'
import type { Route } from '../route.js'

const types = z
  .union([z.string().min(1), z.array(z.string().min(1)).max(20)])
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .optional()
/** A `created` bound: an ISO 8601 time as the API takes it, or unix seconds as the official client declares it (`RangeQueryParam`). */
function boundMs(s: string): number {
  return /^\d+$/.test(s) ? Number(s) * 1000 : Date.parse(s)
}
const isoTime = z.string().refine((s) => Number.isFinite(boundMs(s)), {
  message: 'Invalid timestamp: expected ISO 8601 or unix seconds',
})
// The route judges `created` itself (see checksOwn below), so it refuses unknown bounds here.
const created = z.object({ gt: isoTime, gte: isoTime, lt: isoTime, lte: isoTime }).partial().strict().optional()
const listQuery = z.object({ ...v2ListFields, object_id: z.string().min(1).optional(), types, created })

/** The full v2 event, as `GET /v2/core/events/{id}` answers (with `data`, unlike the notification). */
function eventJson(e: StoredEvent): Record<string, unknown> {
  return e.body as Record<string, unknown>
}

/** `/v2/core/events`: retrieve and list thin (v2) events of the acting account and mode. */
export const v2EventRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v2/core/events/:id',
    operation: 'v2.core.events.retrieve',
    object: 'id',
    query: z.object({}),
    handle(ctx) {
      const id = ctx.params.id ?? ''
      const e = ctx.service.events.get({ account: ctx.principal.account.id, mode: ctx.principal.mode }, id)
      if (e === undefined || e.kind !== 'thin') throw resourceMissing('event', id)
      return eventJson(e)
    },
  },
  {
    method: 'GET',
    path: '/v2/core/events',
    operation: 'v2.core.events.list',
    query: listQuery,
    checksOwn: ['created'],
    handle(ctx) {
      const q = ctx.query as z.infer<typeof listQuery>
      const scope = { account: ctx.principal.account.id, mode: ctx.principal.mode }
      const c = q.created ?? {}
      const bound = (s: string | undefined) => (s === undefined ? undefined : boundMs(s))
      const [gt, gte, lt, lte] = [bound(c.gt), bound(c.gte), bound(c.lt), bound(c.lte)]
      const items = ctx.service.events
        .list(scope, 'thin')
        .filter(
          (e) =>
            (q.object_id === undefined || e.objectId === q.object_id) &&
            (q.types === undefined || q.types.includes(e.type)) &&
            (gt === undefined || e.at > gt) &&
            (gte === undefined || e.at >= gte) &&
            (lt === undefined || e.at < lt) &&
            (lte === undefined || e.at <= lte),
        )
        .slice()
        .reverse()
      const filter: Record<string, string> = {}
      if (q.object_id !== undefined) filter.object_id = q.object_id
      for (const [i, t] of (q.types ?? []).entries()) filter[`types[${i}]`] = t
      for (const [k, v] of Object.entries(c)) if (v !== undefined) filter[`created[${k}]`] = v
      return v2List(items, q, '/v2/core/events', eventJson, filter)
    },
  },
]
