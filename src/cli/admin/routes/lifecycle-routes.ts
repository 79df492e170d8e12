import { z } from 'zod'
import { isoTime } from '#kernel/index.js'
import { fail, json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import type { AdminHost } from '../host.js'
import { ERROR, ok } from '../openapi-components.js'

const sequence = 'expected a non-negative integer sequence number'

const reset = adminRoute({
  method: 'POST',
  path: '/reset',
  summary: 'Serve a fresh simulator built from the same options (token, port, clock mode and forwarding kept)',
  responses: {
    '200': ok('The fresh simulator', {
      type: 'object',
      properties: {
        now: { type: 'string', format: 'date-time' },
        seed: { type: 'string' },
        trace: { type: 'object', properties: { length: { type: 'integer' } } },
      },
    }),
  },
  handler: async ({ host }) => {
    const fresh = await host.reset()
    return json(200, { now: isoTime(fresh.clock.now), seed: fresh.seed, trace: { length: fresh.trace.length } })
  },
})

const snapshot = adminRoute({
  method: 'POST',
  path: '/snapshot',
  summary:
    "The served simulator's snapshot (sim.snapshot()), taken at rest; with serve --state it is also written to the state file (atomically)",
  description:
    'Settles the work due now, then answers the snapshot as JSON (what `createSimulator({ from })` and `serve --state` load). With `--state <file>` the same snapshot replaces the file (temporary file, then rename). 409 while work is in flight (a delivery awaiting a slow receiver).',
  responses: {
    '200': ok('The snapshot', {
      type: 'object',
      required: ['format', 'version', 'options', 'now', 'rng', 'trace', 'state', 'tasks', 'receivers'],
      properties: {
        format: { type: 'string', const: 'service-sim/snapshot' },
        version: { type: 'integer' },
        now: { type: 'number', description: 'Virtual time (epoch ms)' },
      },
      additionalProperties: true,
    }),
  },
  handler: async ({ host }) => {
    let taken: Awaited<ReturnType<AdminHost['snapshot']>>
    try {
      taken = await host.snapshot()
    } catch (error) {
      // Work in flight (a delivery awaiting a slow receiver): a snapshot is taken at rest.
      return fail(409, error instanceof Error ? error.message : String(error))
    }
    return new Response(JSON.stringify(taken.snapshot), { headers: { 'Content-Type': 'application/json' } })
  },
})

const trace = adminRoute({
  method: 'GET',
  path: '/trace',
  summary: "The trace as JSON lines (serve.request entries carry each request's wall arrival time)",
  query: z.strictObject({
    since: z.coerce
      .number(sequence)
      .int(sequence)
      .nonnegative(sequence)
      .optional()
      .meta({ description: 'First sequence number' }),
  }),
  responses: { '200': ok('One JSON entry per line', { type: 'string' }, 'application/x-ndjson') },
  handler: ({ sim, query: { since = 0 } }) => {
    const lines = sim.trace
      .entries()
      .filter((e) => e.seq >= since)
      .map((e) => `${JSON.stringify(e)}\n`)
      .join('')
    return new Response(lines, { headers: { 'Content-Type': 'application/x-ndjson' } })
  },
})

const request = adminRoute({
  method: 'GET',
  path: '/requests/{id}',
  summary: "One request's record: its http trace entry (what an error's request_log_url names)",
  description:
    'The `http` entry of the trace whose `request_id` is the id: method, path, operation, account, mode, status and both bodies, with its sequence number and virtual time. A request answered again from its idempotency key is the first one.',
  responses: {
    '200': ok('The request record', {
      type: 'object',
      properties: {
        seq: { type: 'integer' },
        at: { type: 'number', description: 'Virtual time (epoch ms)' },
        kind: { type: 'string', const: 'http' },
        data: { type: 'object', additionalProperties: true },
      },
    }),
    '404': ERROR,
  },
  handler: ({ sim, path }) => {
    const id = path.id ?? ''
    const entry = sim.trace.filter('http').find((e) => e.data.request_id === id)
    if (entry === undefined) return fail(404, `request: no such request '${id}'`, 'id')
    return json(200, entry)
  },
})

/**
 * The simulation's life: start over, save it, read its trace and the record of one request.
 *
 * @example
 * lifecycleRoutes.map((r) => r.path) // ['/reset', '/snapshot', '/trace', '/requests/{id}']
 */
export const lifecycleRoutes: readonly AdminRoute[] = [reset, snapshot, trace, request]
