import { z } from 'zod'
import { errorMessage } from '#catalogue/errors.js'
import type { StoredEvent } from '#domain/events/event.js'
import { invalidRequest, resourceMissing } from '#domain/service-error.js'
import { v1List, v1ListFields } from '../pagination.js'
import { expand, formBool, formInt } from '../params.js'
import type { Route } from '../route.js'
import { scopeOf } from './resource-helpers.js'

const created = z.union([
  formInt,
  z.object({ gt: formInt.optional(), gte: formInt.optional(), lt: formInt.optional(), lte: formInt.optional() }),
])
const listQuery = z.object({
  ...v1ListFields,
  type: z.string().min(1).optional(),
  types: z.array(z.string().min(1)).max(20).optional(),
  created: created.optional(),
  delivery_success: formBool.optional(),
})

/** Matches a type filter; `*` stands for any suffix (`customer.*`), as the provider allows. */
function typeMatches(pattern: string, type: string): boolean {
  return pattern.endsWith('*') ? type.startsWith(pattern.slice(0, -1)) : pattern === type
}

function inCreated(filter: z.infer<typeof created> | undefined, seconds: number): boolean {
  if (filter === undefined) return true
  if (typeof filter === 'number') return seconds === filter
  return (
    (filter.gt === undefined || seconds > filter.gt) &&
    (filter.gte === undefined || seconds >= filter.gte) &&
    (filter.lt === undefined || seconds < filter.lt) &&
    (filter.lte === undefined || seconds <= filter.lte)
  )
}

/** The stored body, unchanged: its structure was fixed by the account's version when it occurred. */
const eventJson = (e: StoredEvent) => e.body

/**
 * `GET /v1/events` and `GET /v1/events/:id`: the snapshot events of the account and mode, newest
 * first. The body is the one built at emission; `Service-Version` on these requests never changes it.
 */
export const eventRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v1/events/:id',
    operation: 'events.retrieve',
    object: 'id',
    query: z.object({ expand }),
    handle(ctx) {
      const e = ctx.service.events.get(scopeOf(ctx), ctx.params.id ?? '')
      if (e === undefined || e.kind !== 'snapshot') throw resourceMissing('event', ctx.params.id ?? '')
      return eventJson(e)
    },
  },
  {
    method: 'GET',
    path: '/v1/events',
    operation: 'events.list',
    query: listQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof listQuery>
      if (q.type !== undefined && q.types !== undefined) {
        throw invalidRequest(errorMessage('parameters_exclusive', { params: 'type, types' }), {
          code: 'parameters_exclusive',
          param: 'types',
        })
      }
      const patterns = q.types ?? (q.type === undefined ? undefined : [q.type])
      const items = [...ctx.service.events.list(scopeOf(ctx), 'snapshot')]
        .reverse()
        .filter(
          (e) =>
            (patterns === undefined || patterns.some((p) => typeMatches(p, e.type))) &&
            inCreated(q.created, Math.floor(e.at / 1000)),
        )
      return v1List(items, q, '/v1/events', eventJson, 'event')
    },
  },
]
