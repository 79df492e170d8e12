import { z } from 'zod'
import { DELIVERY_STATUSES } from '#catalogue/index.js'
import { json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import { eventWindow } from '../event-window.js'
import { ERROR, ok, ref } from '../openapi-components.js'
import { requestWindow } from '../request-window.js'

/** Most rows one window answers: a screenful many times over, never the whole log. */
const MAX_LIMIT = 500

const offsetMessage = 'expected a non-negative integer offset'
const limitMessage = `expected an integer limit from 0 to ${MAX_LIMIT}`

/** The window's place: `offset` rows skipped (newest first), `limit` rows answered. */
const windowQuery = {
  offset: z.coerce
    .number(offsetMessage)
    .int(offsetMessage)
    .nonnegative(offsetMessage)
    .optional()
    .meta({ description: 'Matching rows skipped, newest first; default 0' }),
  limit: z.coerce
    .number(limitMessage)
    .int(limitMessage)
    .min(0, limitMessage)
    .max(MAX_LIMIT, limitMessage)
    .optional()
    .meta({ description: `Rows answered, at most ${MAX_LIMIT}; default 50; 0 answers the counts alone` }),
}

const counts = {
  total: { type: 'integer', description: 'How many match the filters' },
  count: { type: 'integer', description: 'How many there are' },
  offset: { type: 'integer' },
}

const requestRow = {
  type: 'object',
  properties: {
    seq: { type: 'integer', description: "The trace entry's sequence number (what identifies the row)" },
    at: { type: 'string', format: 'date-time', description: 'Virtual time served' },
    at_ms: { type: 'number' },
    wall: { type: ['string', 'null'], description: 'Wall arrival time, for a request that came over HTTP' },
    method: { type: 'string' },
    path: { type: 'string' },
    operation: { type: ['string', 'null'] },
    account: { type: ['string', 'null'] },
    mode: { type: ['string', 'null'] },
    version: { type: ['string', 'null'], description: "The version asked for, or the account's default (marked so)" },
    status: { type: 'integer' },
    request_id: { type: ['string', 'null'] },
    idempotency_key: { type: ['string', 'null'] },
    request_body: { type: 'string', description: 'Left out with bodies=false' },
    response_body: { type: 'string', description: 'Left out with bodies=false' },
  },
}

const requests = adminRoute({
  method: 'GET',
  path: '/requests',
  summary: 'A window of the API requests answered, newest first, filtered by status, path and account',
  description:
    "What the dashboard's Requests page scrolls over: the rows from `offset` among the requests matching the filters, each with its arrival (wall time, headers: version asked, idempotency key) and both bodies, with how many match. Rows already read keep their place counted from the oldest, so a page follows new requests by the change in `total`.",
  query: z.strictObject({
    ...windowQuery,
    status: z
      .string()
      .regex(/^(?:[1-5]\d\d|[1-5]xx)$/, 'expected a status such as 402 or a status class such as 4xx')
      .optional()
      .meta({ examples: ['4xx', '402'] }),
    path: z.string().min(1).max(255).optional().meta({ description: 'Text the path holds' }),
    account: z.string().min(1).max(255).optional(),
    seq: z.coerce
      .number('expected a non-negative integer sequence number')
      .int('expected a non-negative integer sequence number')
      .nonnegative('expected a non-negative integer sequence number')
      .optional()
      .meta({ description: "The one request whose trace entry has this sequence number (a row's `seq`)" }),
    bodies: z.enum(['true', 'false'], "expected 'true' or 'false'").optional().meta({
      description: 'false leaves out the request and response bodies (a list reads them for the row opened); default true',
    }),
  }),
  responses: {
    '200': ok('The window', {
      type: 'object',
      properties: {
        ...counts,
        accounts: { type: 'array', items: { type: 'string' }, description: 'Every account a request was made as' },
        data: { type: 'array', items: requestRow },
      },
    }),
    '400': ERROR,
  },
  handler: ({ sim, query: { offset = 0, limit = 50, bodies, ...filter } }) =>
    json(200, requestWindow(sim, { offset, limit, bodies: bodies !== 'false', ...filter })),
})

const deliverySummary = {
  type: 'object',
  properties: {
    destination: { type: 'string' },
    url: { type: 'string' },
    status: { type: 'string', enum: [...DELIVERY_STATUSES] },
    attempts: { type: 'integer' },
    last_status: { type: ['integer', 'null'], description: "The last attempt's HTTP status" },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
  },
}

const events = adminRoute({
  method: 'GET',
  path: '/events/window',
  summary:
    'A window of the events emitted, newest first, each with its deliveries summed up, filtered by type and delivery status',
  description:
    "What the dashboard's Events page scrolls over: the events from `offset` among those matching the filters, each with one line per destination (status, attempts, the last attempt's status, the next automatic attempt), with how many match. `GET /deliveries?event=` has every attempt of one event.",
  query: z.strictObject({
    ...windowQuery,
    type: z.string().min(1).max(255).optional().meta({ description: 'Text the event type holds' }),
    delivery_status: z
      .enum(DELIVERY_STATUSES)
      .optional()
      .meta({ description: 'Events with at least one delivery in this status now' }),
  }),
  responses: {
    '200': ok('The window', {
      type: 'object',
      properties: {
        ...counts,
        data: {
          type: 'array',
          items: {
            allOf: [
              ref('schemas', 'Event'),
              { type: 'object', properties: { deliveries: { type: 'array', items: deliverySummary } } },
            ],
          },
        },
      },
    }),
    '400': ERROR,
  },
  handler: ({ sim, query: { offset = 0, limit = 50, ...filter } }) => json(200, eventWindow(sim, { offset, limit, ...filter })),
})

/**
 * Windows of the dashboard's long lists, counted and filtered on the server: a page downloads the
 * rows in view, never the whole log.
 *
 * @example
 * windowRoutes.map((r) => r.path) // ['/requests', '/events/window']
 */
export const windowRoutes: readonly AdminRoute[] = [requests, events]
