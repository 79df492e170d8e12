import type { ResourceDeclaration } from '../engine/declaration.js'
import { pageV2, v2Range } from '../engine/v2-list.js'
import type { ResourcePorts } from '../resource-ports.js'
import { resourceMissing } from '../service-error.js'

/**
 * v2 events (`/v2/core/events`): the thin events of the account and mode, served from the event
 * store where each is kept once as the full event (`GET /v2/core/events/{id}` answers it with
 * `data`, unlike the notification a destination receives). Newest first; filters `object_id`,
 * `types` and `created` (bounds in ISO 8601, or unix seconds as the client declares them).
 *
 * @example
 * engine.run('v2.core.events.list', { scope, origin, path: {}, params: { types: ['v1.billing.meter.no_meter_found'] } })
 */
export const v2Events: ResourceDeclaration<ResourcePorts> = {
  type: 'V2.Core.Event',
  object: 'v2.core.event',
  noun: 'event',
  idPrefix: 'evt',
  only: [],
  // `created` bounds are taken as ISO 8601 too: the behaviour judges them, not the catalogue check.
  traits: { 'v2.core.events.list': { checksOwn: ['created'] } },
  behaviours: {
    'v2.core.events.retrieve'(call, _next, { ports }) {
      const id = call.path.id ?? ''
      const e = ports.events.get(call.scope, id)
      if (e === undefined || e.kind !== 'thin') throw resourceMissing('event', id)
      return e.body
    },
    'v2.core.events.list'(call, _next, { ports }) {
      const { params } = call
      const inRange = v2Range(params.created, 'created')
      const types = params.types as readonly string[] | undefined
      const items = ports.events
        .list(call.scope, 'thin')
        .filter(
          (e) =>
            (params.object_id === undefined || e.objectId === params.object_id) &&
            (types === undefined || types.includes(e.type)) &&
            inRange(e.at),
        )
        .slice()
        .reverse()
      return pageV2(items, params, '/v2/core/events', undefined, (e) => e.body)
    },
  },
}
