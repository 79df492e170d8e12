import { z } from 'zod'
import { parseDuration } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import { fail, iso, json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import { ERROR, ok } from '../openapi-components.js'

type Destination = ReturnType<Simulator['admin']['destinations']>[number]

/** The longest a rolled secret may stay valid beside the new one, as the provider allows. */
const MAX_OVERLAP_MS = 24 * 60 * 60 * 1000

const overlap = z
  .string()
  .max(64)
  .transform((text, ctx) => {
    const value = parseDuration(text)
    if (value === undefined || value > MAX_OVERLAP_MS) {
      ctx.addIssue({ code: 'custom', message: `expected a duration such as 1h, at most 24h, got '${text}'` })
      return z.NEVER
    }
    return value
  })

/** The destination named in the path, or the 404 that says so. */
function destinationOf(sim: Simulator, id: string | undefined): Destination | Response {
  const found = sim.admin.destinations().find((d) => d.id === id)
  return found ?? fail(404, `destination: no such destination '${id ?? ''}'`, 'id')
}

/** A destination's delivery health: how many attempts succeeded, and its last failure. */
function healthOf(sim: Simulator, d: Destination) {
  let attempts = 0
  let succeeded = 0
  let last: { at: number; event: string; status: number | null; outcome: string; message: string | null } | undefined
  for (const r of sim.admin.deliveries({ destination: d.id })) {
    for (const a of r.attempts) {
      attempts++
      if (a.outcome === 'delivered') succeeded++
      else if (last === undefined || a.at >= last.at)
        last = { at: a.at, event: r.eventId, status: a.status, outcome: a.outcome, message: a.message ?? null }
    }
  }
  return {
    destination: d.id,
    status: d.status,
    attempts,
    succeeded,
    success_ratio: attempts === 0 ? null : succeeded / attempts,
    pending: sim.admin.deliveries({ destination: d.id, status: 'Pending' }).length,
    last_failure: last === undefined ? null : { ...last, at: iso(last.at) },
  }
}

const health = adminRoute({
  method: 'GET',
  path: '/destinations/health',
  summary: "Each destination's delivery health: attempts, how many succeeded, deliveries pending, the last failure",
  responses: { '200': ok('Health per destination', { type: 'object', properties: { data: { type: 'array' } } }) },
  handler: ({ sim }) => json(200, { data: sim.admin.destinations().map((d) => healthOf(sim, d)) }),
})

const roll = adminRoute({
  method: 'POST',
  path: '/destinations/{id}/roll_secret',
  summary: "Roll a destination's signing secret; the old one keeps signing for `overlap` (default 0, at most 24h)",
  body: z.strictObject({ overlap: overlap.optional().meta({ examples: ['1h'] }) }),
  bodyRequired: false,
  responses: { '200': ok('The secrets now active, newest first', { type: 'object' }), '404': ERROR },
  handler: ({ sim, path, body: b }) => {
    const d = destinationOf(sim, path.id)
    if (d instanceof Response) return d
    const secret = sim.admin.rollSecret(d.id, { overlapMs: b.overlap ?? 0 })
    return json(200, { id: d.id, secret, signing_secrets: sim.admin.signingSecrets(d.id) })
  },
})

/** The API request that enables or disables a destination, as the provider's own dashboard sends it. */
function statusRequest(sim: Simulator, d: Destination, status: 'enabled' | 'disabled'): Request {
  const prefix = sim.service.kernel.prefix
  const headers: Record<string, string> = {
    Authorization: `Bearer ${d.mode === 'live' ? sim.platform.secretKey.live : sim.platform.secretKey.test}`,
    ...(d.account === sim.platform.id ? {} : { [`${prefix}-Account`]: d.account }),
  }
  if (d.type === 'webhook_endpoint' && d.id.startsWith('we_'))
    return new Request(`https://api.service.test/v1/webhook_endpoints/${d.id}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `disabled=${status === 'disabled'}`,
    })
  const verb = status === 'disabled' ? 'disable' : 'enable'
  return new Request(`https://api.service.test/v2/core/event_destinations/${d.id}/${verb}`, { method: 'POST', headers })
}

const setStatus = adminRoute({
  method: 'POST',
  path: '/destinations/{id}/status',
  summary: 'Enable or disable a destination (through the API call that does it: a v1 endpoint update, a v2 enable/disable)',
  body: z.strictObject({ status: z.enum(['enabled', 'disabled']) }),
  responses: { '200': ok('The destination as the API answered it', { type: 'object' }), '404': ERROR },
  handler: async ({ sim, path, body: b }) => {
    const d = destinationOf(sim, path.id)
    if (d instanceof Response) return d
    const answer = await sim.fetch(statusRequest(sim, d, b.status))
    return json(answer.status, await answer.json())
  },
})

const testSend = adminRoute({
  method: 'POST',
  path: '/destinations/{id}/test_send',
  summary: 'Send a test ping (v2.core.event_destination.ping) to one destination only, even a disabled one',
  responses: { '200': ok('The ping event', { type: 'object' }), '404': ERROR },
  handler: async ({ sim, path }) => {
    const d = destinationOf(sim, path.id)
    if (d instanceof Response) return d
    const event = sim.admin.pingDestination(d.id)
    await sim.settle()
    return json(200, { id: event.id, type: event.type, destination: d.id, created: iso(event.at) })
  },
})

/**
 * Managing destinations as the provider's Dashboard does: delivery health, rolling the signing
 * secret, enabling and disabling, and a test send.
 *
 * @example
 * destinationRoutes.map((r) => r.path) // ['/destinations/health', '/destinations/{id}/roll_secret', ...]
 */
export const destinationRoutes: readonly AdminRoute[] = [health, roll, setStatus, testSend]
