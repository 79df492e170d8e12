import { z } from 'zod'
import { isoTime, parseDuration } from '#kernel/index.js'
import { json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import { MAX_ADVANCE_MS } from '../host.js'
import { NOW, ok, ref } from '../openapi-components.js'

const ms = z
  .number()
  .int('expected a whole number of milliseconds')
  .nonnegative('expected a non-negative number of milliseconds')
  .max(MAX_ADVANCE_MS, `at most ${MAX_ADVANCE_MS} ms (10 years) at a time`)

const duration = z
  .string()
  .max(64)
  .transform((text, ctx) => {
    const value = parseDuration(text)
    if (value === undefined || value > MAX_ADVANCE_MS) {
      ctx.addIssue({ code: 'custom', message: `expected a duration such as 15m or 2d, at most 10 years, got '${text}'` })
      return z.NEVER
    }
    return value
  })

const state = adminRoute({
  method: 'GET',
  path: '/state',
  summary: 'Virtual now, seed, header prefix, clock mode, platform keys, accounts, trace length and hash, forwarding',
  responses: { '200': ok('State', ref('schemas', 'State')) },
  handler: ({ host, sim }) =>
    json(200, {
      now: isoTime(sim.clock.now),
      seed: sim.seed,
      header_prefix: sim.service.kernel.prefix,
      clock: host.clock,
      platform: { id: sim.platform.id, secret_key: sim.platform.secretKey, publishable_key: sim.platform.publishableKey },
      accounts: sim.admin.accounts().map((a) => ({
        id: a.id,
        platform: a.platform ?? null,
        organisation: a.organisation ?? null,
        secret_key: a.keys.secret,
      })),
      trace: { length: sim.trace.length, hash: sim.trace.hash() },
      ...(host.extras?.() ?? {}),
    }),
})

const advance = adminRoute({
  method: 'POST',
  path: '/clock/advance',
  summary: 'Time travel. With --clock wall virtual time stays that far ahead of the wall clock.',
  // Validated whole before the clock moves: a refused advance leaves time where it was.
  body: z.union([z.strictObject({ ms }), z.strictObject({ duration })]),
  bodyHint: `expected {"ms": <integer 0..${MAX_ADVANCE_MS}>} or {"duration": "15m"}`,
  bodyDoc: {
    oneOf: [
      {
        type: 'object',
        additionalProperties: false,
        required: ['ms'],
        properties: { ms: { type: 'integer', minimum: 0, maximum: MAX_ADVANCE_MS } },
      },
      {
        type: 'object',
        additionalProperties: false,
        required: ['duration'],
        properties: { duration: { type: 'string', examples: ['15m', '2d', '1h30m'] } },
      },
    ],
  },
  responses: { '200': NOW },
  handler: async ({ host, body: b }) => {
    await host.advance('ms' in b ? b.ms : b.duration)
    return json(200, { now: isoTime(host.sim.clock.now) })
  },
})

const settle = adminRoute({
  method: 'POST',
  path: '/settle',
  summary: 'Run all work due at the current virtual instant',
  responses: { '200': NOW },
  handler: async ({ sim }) => {
    await sim.settle()
    return json(200, { now: isoTime(sim.clock.now) })
  },
})

/**
 * Virtual time: the state, time travel and running the work due now.
 *
 * @example
 * clockRoutes.map((r) => r.path) // ['/state', '/clock/advance', '/settle']
 */
export const clockRoutes: readonly AdminRoute[] = [state, advance, settle]
