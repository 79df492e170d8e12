import { z } from 'zod'
import { isoTime, parseDuration } from '#kernel/index.js'
import { type Simulator, triggerTypes } from '#simulator/index.js'
import { fail, json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import { MAX_ADVANCE_MS } from '../host.js'
import { ERROR, NOW, ok } from '../openapi-components.js'

const date = z
  .string()
  .max(64)
  .transform((text, ctx) => {
    const ms = Date.parse(text)
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: 'custom', message: `expected a date such as 2026-02-01T00:00:00Z, got '${text}'` })
      return z.NEVER
    }
    return ms
  })

/** How far to move from `now` to reach `to`, or the refusal naming why not. */
function stepTo(now: number, to: number, what: string): number | Response {
  if (to < now) return fail(400, `to: ${isoTime(to)} is before ${what}'s time ${isoTime(now)}; time only moves forward`, 'to')
  if (to - now > MAX_ADVANCE_MS) return fail(400, `to: at most ${MAX_ADVANCE_MS} ms (10 years) ahead at a time`, 'to')
  return to - now
}

const queue = adminRoute({
  method: 'GET',
  path: '/scheduler',
  summary: 'The pending work of the service (deliveries, retries, renewals, expiries), the earliest first',
  query: z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).optional() }),
  responses: { '200': ok('Virtual now, how many tasks are pending and the next ones', { type: 'object' }) },
  handler: ({ sim, query }) => {
    const scheduler = sim.service.kernel.scheduler
    const next = scheduler
      .upcoming(query.limit ?? 100)
      .map((t) => ({ due: isoTime(t.due), label: t.label, args: t.args ?? null }))
    return json(200, { now: isoTime(sim.clock.now), pending: scheduler.pending, next })
  },
})

const advanceTo = adminRoute({
  method: 'POST',
  path: '/clock/advance_to',
  summary: 'Time travel to a date: the work due on the way runs in order',
  body: z.strictObject({ to: date.meta({ examples: ['2026-02-01T00:00:00Z'] }) }),
  responses: { '200': NOW, '400': ERROR },
  handler: async ({ host, body: b }) => {
    const step = stepTo(host.sim.clock.now, b.to, 'the simulation')
    if (step instanceof Response) return step
    await host.advance(step)
    return json(200, { now: isoTime(host.sim.clock.now) })
  },
})

const triggers = adminRoute({
  method: 'GET',
  path: '/triggers',
  summary: "The event types with a trigger recipe (the API calls that cause them), as 'service-sim trigger --list' prints",
  responses: { '200': ok('Event types', { type: 'object', properties: { data: { type: 'array', items: { type: 'string' } } } }) },
  handler: () => json(200, { data: triggerTypes() }),
})

type Clock = Record<string, unknown> & { id: string }

/** Every test clock, in every account and mode, with whose it is. */
function testClocks(sim: Simulator): { clock: Clock; account: string; mode: 'test' | 'live' }[] {
  return sim.admin
    .accounts()
    .flatMap((a) =>
      (['test', 'live'] as const).flatMap((mode) =>
        a.modes.has(mode)
          ? sim.admin.objects('test_helpers.test_clock', { account: a.id, mode }).map((clock) => ({ clock, account: a.id, mode }))
          : [],
      ),
    )
}

const clocks = adminRoute({
  method: 'GET',
  path: '/test_clocks',
  summary: 'Every test clock (any account), with its frozen time and status',
  responses: { '200': ok('Test clocks', { type: 'object', properties: { data: { type: 'array' } } }) },
  handler: ({ sim }) => json(200, { data: testClocks(sim).map(({ clock, account, mode }) => ({ ...clock, account, mode })) }),
})

const advanceClock = adminRoute({
  method: 'POST',
  path: '/test_clocks/{id}/advance',
  summary: "Advance a test clock to a date or by a duration (through the API's advance call), then run the work it made due",
  body: z.union([z.strictObject({ to: date }), z.strictObject({ duration: z.string().max(64) })]),
  bodyHint: 'expected {"to": "2026-02-01T00:00:00Z"} or {"duration": "30d"}',
  responses: { '200': ok('The test clock as the API answered it', { type: 'object' }), '400': ERROR, '404': ERROR },
  handler: async ({ sim, path, body: b }) => {
    const found = testClocks(sim).find((c) => c.clock.id === path.id)
    if (found === undefined) return fail(404, `no test clock '${path.id ?? ''}'`, 'id')
    const frozen = Number(found.clock.frozen_time) * 1000
    const by = 'duration' in b ? parseDuration(b.duration) : undefined
    if ('duration' in b && by === undefined)
      return fail(400, `duration: expected such as 30d or 1h, got '${b.duration}'`, 'duration')
    const step = stepTo(frozen, 'to' in b ? b.to : frozen + (by ?? 0), 'the test clock')
    if (step instanceof Response) return step
    const prefix = sim.service.kernel.prefix
    const answer = await sim.fetch(
      new Request(`https://api.service.test/v1/test_helpers/test_clocks/${found.clock.id}/advance`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${found.mode === 'live' ? sim.platform.secretKey.live : sim.platform.secretKey.test}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          ...(found.account === sim.platform.id ? {} : { [`${prefix}-Account`]: found.account }),
        },
        body: `frozen_time=${Math.floor((frozen + step) / 1000)}`,
      }),
    )
    await sim.settle()
    return json(answer.status, await answer.json())
  },
})

/**
 * The clock and what falls due: the scheduler's queue, time travel to a date, the trigger
 * recipes, and test clocks (listed and advanced).
 *
 * @example
 * scheduleRoutes.map((r) => r.path) // ['/scheduler', '/clock/advance_to', '/triggers', '/test_clocks', ...]
 */
export const scheduleRoutes: readonly AdminRoute[] = [queue, advanceTo, triggers, clocks, advanceClock]
