import { z } from 'zod'
import { fail, json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import { ERROR, ok, ref } from '../openapi-components.js'

const formula = { type: 'string', enum: ['sum', 'count', 'last'] }

const meterSummary = adminRoute({
  method: 'GET',
  path: '/meters/summary',
  summary: 'Processed usage (aggregate) of one meter and customer, and the meter event counts',
  query: z.strictObject({
    meter: z.string().min(1).max(255),
    customer: z.string().min(1).max(255),
    start: z.coerce.number().int().optional().meta({ description: 'Epoch ms, inclusive' }),
    end: z.coerce.number().int().optional().meta({ description: 'Epoch ms, exclusive' }),
  }),
  responses: {
    '200': ok('The aggregate', {
      type: 'object',
      properties: {
        meter: { type: 'string' },
        customer: { type: 'string' },
        formula,
        value: { type: 'number' },
        sum: { type: 'number' },
        count: { type: 'integer' },
        last: { type: ['number', 'null'] },
        stats: { type: 'object', description: 'Pending, processed, invalid and duplicate meter event counts' },
      },
    }),
    '404': ERROR,
  },
  handler: ({ sim, query: q }) => {
    if (sim.admin.meter(q.meter) === undefined) return fail(404, `meter: no such meter '${q.meter}'`, 'meter')
    const s = sim.admin.meterSummary({
      meter: q.meter,
      customer: q.customer,
      ...(q.start === undefined ? {} : { start: q.start }),
      ...(q.end === undefined ? {} : { end: q.end }),
    })
    return json(200, { ...s, stats: sim.admin.meterStats() })
  },
})

const period =
  'start/end (epoch ms, [start, end): billing periods when billing knows them, else UTC months); value (as the meter aggregates), sum, count, last of processed usage; pendingEvents, pendingValue; cancelledEvents, cancelledValue; invoices (invoice, status, line, quantity, amount, currency, price, subscriptionItem)'

const billedUsage = adminRoute({
  method: 'GET',
  path: '/billing/usage',
  summary: "A customer's usage per meter and billing period (as sim.admin.billedUsage), and what each invoice billed for it",
  query: z.strictObject({
    customer: z.string().min(1).max(255),
    account: z.string().min(1).max(255).optional().meta({ description: 'Default the platform' }),
    mode: z.enum(['test', 'live']).optional(),
    meter: z.string().min(1).max(255).optional().meta({ description: 'Only this meter' }),
  }),
  responses: {
    '200': ok('Usage per meter and period', {
      type: 'object',
      properties: {
        customer: { type: 'string' },
        account: { type: 'string' },
        mode: ref('schemas', 'Mode'),
        meters: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              meter: { type: 'string' },
              eventName: { type: 'string' },
              formula,
              periods: { type: 'array', items: { type: 'object', description: period } },
            },
          },
        },
      },
    }),
    '400': ERROR,
    '404': ERROR,
  },
  handler: ({ sim, query: q }) => {
    if (q.account !== undefined && sim.admin.account(q.account) === undefined)
      return fail(400, `account: no such account '${q.account}'`, 'account')
    if (q.meter !== undefined && sim.admin.meter(q.meter) === undefined)
      return fail(404, `meter: no such meter '${q.meter}'`, 'meter')
    return json(
      200,
      sim.admin.billedUsage({
        customer: q.customer,
        ...(q.account === undefined ? {} : { account: q.account }),
        ...(q.mode === undefined ? {} : { mode: q.mode }),
        ...(q.meter === undefined ? {} : { meter: q.meter }),
      }),
    )
  },
})

/**
 * Usage: a meter's processed aggregate, and a customer's usage per billing period.
 *
 * @example
 * usageRoutes.map((r) => r.path) // ['/meters/summary', '/billing/usage']
 */
export const usageRoutes: readonly AdminRoute[] = [meterSummary, billedUsage]
