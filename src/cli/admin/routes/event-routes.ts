import { z } from 'zod'
import { DELIVERY_STATUSES } from '#catalogue/index.js'
import type { Simulator } from '#simulator/index.js'
import { fail, json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import { deliveryAnswer } from '../delivery-answers.js'
import { attemptJson, deliveryJson, eventJson } from '../event-json.js'
import { ERROR, ok, ref } from '../openapi-components.js'

const id = z.string().min(1).max(255)

const list = (items: unknown) => ({ type: 'object', properties: { data: { type: 'array', items } } })

const events = adminRoute({
  method: 'GET',
  path: '/events',
  summary: 'Every event emitted, oldest first',
  responses: { '200': ok('Events', list(ref('schemas', 'Event'))) },
  handler: ({ sim }) => json(200, { data: sim.admin.events().map(eventJson) }),
})

const trigger = adminRoute({
  method: 'POST',
  path: '/events/trigger',
  summary: 'Cause an event by the API calls that make it (as the provider CLI triggers), or emit a generated one',
  description:
    'For a type with a recipe (`service-sim trigger --list`) and no `object`/`data`, the API calls that cause the event run (a fixture file: e.g. payment_intent.succeeded creates and confirms a payment intent; checkout.session.completed creates a session and completes it as the customer would, sim.customer.completeCheckout), so the event names a stored object in the state it says; the answer is that event with the requests made. Otherwise (another type, `object`/`data` given, `synthetic: true`, live mode) a generated event is emitted as sim.admin.trigger does (`synthetic: true`), naming no stored object. checkout.session.async_payment_failed completes a session with the failing test bank account, so the debit fails on the clock.',
  body: z.strictObject({
    type: z
      .string()
      .max(255)
      .regex(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/, 'expected an event type name such as payment_intent.succeeded')
      .meta({ examples: ['payment_intent.succeeded'] }),
    account: id.optional().meta({ description: 'Default the platform' }),
    mode: z.enum(['test', 'live']).optional(),
    object: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Merged over the generated data.object (snapshot events; a generated event)' }),
    data: z.record(z.string(), z.unknown()).optional().meta({ description: 'Replaces data (thin events; a generated event)' }),
    synthetic: z.boolean().optional().meta({ description: 'A generated event even when the type has a recipe' }),
  }),
  responses: {
    '200': ok('The event, with its full body (and, when caused by API calls, the requests made)', {
      allOf: [
        ref('schemas', 'Event'),
        {
          type: 'object',
          properties: {
            body: { type: 'object' },
            synthetic: { type: 'boolean' },
            requests: { type: 'array', items: { type: 'object' } },
          },
        },
      ],
    }),
    '400': ERROR,
    '500': ERROR,
  },
  handler: async ({ sim, body: b }) => {
    if (b.account !== undefined && sim.admin.account(b.account) === undefined)
      return fail(400, `account: no such account '${b.account}'`, 'account')
    const generated = b.object !== undefined || b.data !== undefined || b.synthetic === true || b.mode === 'live'
    if (!generated) return caused(sim, b.type, b.account)
    const event = sim.admin.trigger(b.type, {
      synthetic: true,
      ...(b.account === undefined ? {} : { account: b.account }),
      ...(b.mode === undefined ? {} : { mode: b.mode }),
      ...(b.object === undefined ? {} : { object: b.object }),
      ...(b.data === undefined ? {} : { data: b.data }),
    })
    return json(200, { ...eventJson(event), body: event.body, synthetic: true })
  },
})

/** Runs a trigger's recipe (`sim.admin.trigger`) and answers the event it caused; a type without one gets a generated event. */
async function caused(sim: Simulator, type: string, account: string | undefined): Promise<Response> {
  try {
    const event = await sim.admin.trigger(type, account === undefined ? {} : { account })
    const synthetic = event.requests.length === 0
    return json(200, { ...eventJson(event), body: event.body, synthetic, ...(synthetic ? {} : { requests: event.requests }) })
  } catch (error) {
    return fail(500, (error as Error).message.replace(/^trigger: /, ''))
  }
}

const deliveries = adminRoute({
  method: 'GET',
  path: '/deliveries',
  summary: 'Every delivery (event x destination) with every attempt and the next automatic one',
  query: z.strictObject({
    event: id.optional(),
    destination: id.optional(),
    status: z.enum(DELIVERY_STATUSES).optional(),
  }),
  responses: { '200': ok('Deliveries', list(ref('schemas', 'Delivery'))) },
  handler: ({ sim, query }) => json(200, { data: sim.admin.deliveries(query).map((r) => deliveryJson(sim, r)) }),
})

const resend = adminRoute({
  method: 'POST',
  path: '/deliveries/resend',
  summary: 'Manual resend of an event to a destination (dashboard 15 days, cli 30 days); automatic retries go on',
  body: z.strictObject({
    event: id,
    destination: id,
    via: z.enum(['dashboard', 'cli']).optional().meta({ default: 'dashboard' }),
  }),
  responses: { '200': ok('The attempt', ref('schemas', 'Attempt')), '404': ERROR },
  handler: async ({ sim, body: b }) => {
    const attempt = await sim.admin.resend(b.event, b.destination, b.via === undefined ? {} : { via: b.via })
    const url = sim.admin.destinations().find((d) => d.id === b.destination)?.url ?? ''
    return json(200, attemptJson(attempt, deliveryAnswer(sim, b.event, url, attempt.at, attempt.durationMs)))
  },
})

const destinations = adminRoute({
  method: 'GET',
  path: '/destinations',
  summary: 'Event destinations (not deleted) with their active signing secrets, newest first',
  responses: {
    '200': ok(
      'Destinations',
      list({
        type: 'object',
        properties: {
          id: { type: 'string' },
          account: { type: 'string' },
          mode: ref('schemas', 'Mode'),
          type: { type: 'string', enum: ['webhook_endpoint', 'amazon_eventbridge'] },
          url: { type: 'string' },
          status: { type: 'string', enum: ['enabled', 'disabled'] },
          event_payload: { type: 'string', enum: ['snapshot', 'thin'] },
          events_from: { type: 'array', items: { type: 'string' } },
          enabled_events: { type: 'array', items: { type: 'string' } },
          signing_secrets: { type: 'array', items: { type: 'string', pattern: '^whsec_' } },
        },
      }),
    ),
  },
  handler: ({ sim }) =>
    json(200, {
      data: sim.admin.destinations().map((d) => ({
        id: d.id,
        account: d.account,
        mode: d.mode,
        type: d.type,
        url: d.url,
        status: d.status,
        event_payload: d.eventPayload,
        events_from: [...d.eventsFrom],
        enabled_events: [...d.enabledEvents],
        signing_secrets: sim.admin.signingSecrets(d.id),
      })),
    }),
})

const eventBus = adminRoute({
  method: 'GET',
  path: '/destinations/{id}/event_bus',
  summary: "The events put on an amazon_eventbridge destination's virtual event bus, oldest first (sim.admin.eventBus)",
  responses: {
    '200': ok(
      'The bus',
      list({
        type: 'object',
        properties: {
          id: { type: 'string' },
          source: { type: 'string' },
          detailType: { type: 'string' },
          time: { type: 'string', format: 'date-time' },
          detail: { type: 'object', description: "The event as the destination's payload kind and version render it" },
        },
      }),
    ),
    '400': ERROR,
    '404': ERROR,
  },
  handler: ({ sim, path }) => {
    const destination = sim.admin.destinations().find((d) => d.id === path.id)
    if (destination === undefined) return fail(404, `destination: no such destination '${path.id}'`, 'id')
    if (destination.type !== 'amazon_eventbridge') {
      return fail(400, `destination: '${path.id}' is a ${destination.type} destination, not amazon_eventbridge`, 'id')
    }
    return json(200, { data: sim.admin.eventBus(destination.id) })
  },
})

/**
 * Events and their delivery: emitted events, a trigger, deliveries and their attempts, a manual
 * resend, the destinations and an EventBridge destination's virtual bus.
 *
 * @example
 * eventRoutes.map((r) => r.path) // ['/events', …, '/destinations', '/destinations/{id}/event_bus']
 */
export const eventRoutes: readonly AdminRoute[] = [events, trigger, deliveries, resend, destinations, eventBus]
