import { z } from 'zod'
import { checkAfter, checkTarget, faultInjectionFields, faultKinds } from '#faults/index.js'
import { isoTime } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import { fail, json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import { FAULTS, ok } from '../openapi-components.js'

/** The fault engine's state: the rates in force, what fired, and every kind that can be injected. */
const faultsJson = (sim: Simulator) => json(200, { rates: sim.faults.rates(), fired: sim.faults.fired(), kinds: [...faultKinds] })

/**
 * Duplicate and reordered deliveries drawn by rate are the delivery area's own knobs (as
 * `installFaults` sets them from the policy): they follow the rates in force.
 */
function syncDeliveryKnobs(sim: Simulator): void {
  const rates = sim.faults.rates()
  const knobs = sim.admin.deliveryFaults
  knobs.duplicateRate = rates.duplicate_delivery ?? 0
  knobs.reorderWindowMs = (rates.reorder_delivery ?? 0) > 0 ? (sim.faults.policy.params.reorder_delivery?.delay ?? 5_000) : 0
}

const state = adminRoute({
  method: 'GET',
  path: '/faults',
  summary: 'Fault rates in force, how often each fault fired, and every kind',
  responses: { '200': FAULTS },
  handler: ({ sim }) => faultsJson(sim),
})

const inject = adminRoute({
  method: 'POST',
  path: '/faults/inject',
  summary: 'Apply one fault now (armed for the next matching request or delivery, count times)',
  description:
    'Request kinds (rate_limit, lock_timeout, concurrent_conflict, server_error, indeterminate) hit the next matching request(s), or the ones after the first `after` matching requests passed; session_expiry ends every open meter event session; duplicate_delivery, reorder_delivery, delay_delivery the next delivery; slow_processing the next meter event batch. Receiver kinds act on delivery to a destination (receiver: its id or URL; omitted: all): receiver_down (connection failure, or status, until receiver_up or for delay), receiver_up, receiver_slow (the next count deliveries held delay). replay_delivery is recorded but not applied (serve keeps no captured deliveries).',
  body: faultInjectionFields()
    .extend({
      receiver: faultInjectionFields().shape.receiver.meta({
        description: 'A destination id (an unknown one is 404) or a URL; omitted: every destination',
      }),
      operation: faultInjectionFields().shape.operation.meta({
        description:
          "Request faults: only requests whose operation name (the official client's, e.g. 'v2.billing.meterEventStream') starts with this; a prefix of no operation is refused with the name to use. Delivery faults: only events whose type starts with it.",
      }),
    })
    .superRefine((e, ctx) => {
      checkTarget(e.fault, e.operation, ctx, ['operation'])
      checkAfter(e.fault, e.after, ctx, ['after'])
    }),
  responses: { '200': FAULTS },
  handler: ({ sim, body: b }) => {
    // A receiver named by id must be a destination: a typo would arm nothing, silently.
    const r = b.receiver
    if (r !== undefined && r !== '*' && !/^https?:\/\//.test(r) && !sim.admin.destinations().some((d) => d.id === r))
      return fail(404, `No such destination: '${r}' (receiver takes a destination id or a URL)`, 'receiver')
    sim.faults.inject(b)
    return faultsJson(sim)
  },
})

const rates = adminRoute({
  method: 'POST',
  path: '/faults/rates',
  summary: 'Set fault rates at run time (merged into those in force; 0 switches a kind off)',
  body: z.strictObject({
    rates: z
      .partialRecord(z.enum(faultKinds), z.number().min(0).max(1))
      .meta({ examples: [{ rate_limit: 1 }, { lock_timeout: 0.2, duplicate_delivery: 0.5 }] }),
  }),
  responses: { '200': FAULTS },
  handler: ({ sim, body: b }) => {
    sim.faults.setRates(b.rates)
    syncDeliveryKnobs(sim)
    return faultsJson(sim)
  },
})

const clear = adminRoute({
  method: 'POST',
  path: '/faults/clear',
  summary: 'Switch every rate off and disarm injected faults not taken yet',
  responses: { '200': FAULTS },
  handler: ({ sim }) => {
    sim.faults.clear()
    syncDeliveryKnobs(sim)
    return faultsJson(sim)
  },
})

/** Fault decisions and rate changes the log answers at most: the newest, for a person to read. */
const MAX_LOG = 1000

const log = adminRoute({
  method: 'GET',
  path: '/faults/log',
  summary:
    'The fault policy in force (rates, parameters, schedule) and the log of faults that fired and rate changes, newest first',
  query: z.strictObject({ limit: z.coerce.number().int().min(1).max(MAX_LOG).optional() }),
  responses: { '200': ok('Policy and log', { type: 'object' }) },
  handler: ({ sim, query }) => {
    const entries = [...sim.trace.filter('fault'), ...sim.trace.filter('faults')].sort((a, b) => a.seq - b.seq)
    const newest = entries.slice(-(query.limit ?? 200)).reverse()
    return json(200, {
      policy: { ...sim.faults.policy, rates: sim.faults.rates() },
      configured: sim.faults.configured(),
      total: entries.length,
      log: newest.map((e) => ({ ...e.data, seq: e.seq, at: isoTime(e.at), entry: e.kind })),
    })
  },
})

/**
 * Faults: the engine's state, one fault now, rates at run time, and clearing them; the policy and
 * the log of what fired.
 *
 * @example
 * faultRoutes.map((r) => r.path) // ['/faults', '/faults/inject', '/faults/rates', '/faults/clear', '/faults/log']
 */
export const faultRoutes: readonly AdminRoute[] = [state, inject, rates, clear, log]
