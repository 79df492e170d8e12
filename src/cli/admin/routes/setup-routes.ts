import { z } from 'zod'
import { versionProblem } from '#catalogue/index.js'
import { fail, json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import { ok, ref } from '../openapi-components.js'

const mode = z.enum(['test', 'live'])
const platformDefault = { description: 'Default the platform' }

const account = adminRoute({
  method: 'POST',
  path: '/accounts',
  summary: 'Create a connected account of the platform (as sim.admin.createAccount)',
  body: z.strictObject({
    email: z.string().max(512).optional(),
    country: z.string().length(2).optional(),
    api_version: z
      .string()
      .max(64)
      .optional()
      .meta({ description: "The account's default API version (default the platform's)" }),
  }),
  responses: {
    '200': ok('The account and its keys', {
      type: 'object',
      required: ['id', 'secret_key', 'publishable_key'],
      properties: {
        id: { type: 'string', pattern: '^acct_' },
        secret_key: ref('schemas', 'Keys'),
        publishable_key: ref('schemas', 'Keys'),
      },
    }),
  },
  handler: ({ sim, body: b }) => {
    const problem = b.api_version === undefined ? undefined : versionProblem(b.api_version)
    if (problem !== undefined) return fail(400, `api_version: ${problem}`, 'api_version')
    const a = sim.admin.createAccount({
      ...(b.email === undefined ? {} : { email: b.email }),
      ...(b.country === undefined ? {} : { country: b.country }),
      ...(b.api_version === undefined ? {} : { apiVersion: b.api_version }),
    })
    return json(200, { id: a.id, secret_key: a.keys.secret, publishable_key: a.keys.publishable })
  },
})

const apiVersion = adminRoute({
  method: 'POST',
  path: '/accounts/api_version',
  summary:
    "Set an account's default API version (as sim.admin.setApiVersion): requests without a version header and events from now on",
  body: z.strictObject({
    api_version: z.string().min(1).max(64),
    account: z.string().min(1).max(255).optional().meta(platformDefault),
  }),
  responses: {
    '200': ok('The account and its version', {
      type: 'object',
      properties: { id: { type: 'string' }, api_version: { type: 'string' } },
    }),
  },
  handler: ({ sim, body: b }) => {
    const id = b.account ?? sim.platform.id
    if (sim.admin.account(id) === undefined) return fail(400, `account: no such account '${id}'`, 'account')
    const problem = versionProblem(b.api_version)
    if (problem !== undefined) return fail(400, `api_version: ${problem}`, 'api_version')
    sim.admin.setApiVersion(id, b.api_version)
    return json(200, { id, api_version: b.api_version })
  },
})

const organisation = adminRoute({
  method: 'POST',
  path: '/organisations',
  summary: 'Group existing accounts into an organisation',
  body: z.strictObject({
    accounts: z.array(z.string().min(1).max(255)).min(1).max(100),
    name: z.string().max(512).optional(),
  }),
  responses: {
    '200': ok('The organisation', {
      type: 'object',
      properties: { id: { type: 'string' }, accounts: { type: 'array', items: { type: 'string' } } },
    }),
  },
  handler: ({ sim, body: b }) => {
    const missing = b.accounts.find((id) => sim.admin.account(id) === undefined)
    if (missing !== undefined) return fail(400, `accounts: no such account '${missing}'`, 'accounts')
    const org = sim.admin.createOrganisation({ accounts: b.accounts, ...(b.name === undefined ? {} : { name: b.name }) })
    return json(200, { id: org.id, accounts: [...org.accounts] })
  },
})

const meter = adminRoute({
  method: 'POST',
  path: '/meters',
  summary: 'Create a billing meter (as sim.admin.createMeter); answers its billing.meter JSON',
  body: z.strictObject({
    event_name: z.string().min(1).max(100),
    display_name: z.string().max(250).optional(),
    formula: z.enum(['sum', 'count', 'last']).optional(),
    customer_key: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'Payload key of the customer (default <prefix>_customer_id)' }),
    value_key: z.string().min(1).max(100).optional().meta({ description: 'Payload key of the value (default value)' }),
    account: z.string().min(1).max(255).optional().meta(platformDefault),
    mode: mode.optional(),
  }),
  responses: { '200': ok('The meter', { type: 'object' }) },
  handler: ({ sim, body: b }) => {
    if (b.account !== undefined && sim.admin.account(b.account) === undefined)
      return fail(400, `account: no such account '${b.account}'`, 'account')
    return json(
      200,
      sim.admin.createMeter({
        eventName: b.event_name,
        ...(b.display_name === undefined ? {} : { displayName: b.display_name }),
        ...(b.formula === undefined ? {} : { formula: b.formula }),
        ...(b.customer_key === undefined ? {} : { customerKey: b.customer_key }),
        ...(b.value_key === undefined ? {} : { valueKey: b.value_key }),
        ...(b.account === undefined ? {} : { account: b.account }),
        ...(b.mode === undefined ? {} : { mode: b.mode }),
      }),
    )
  },
})

/**
 * Setup: connected accounts, organisations and meters.
 *
 * @example
 * setupRoutes.map((r) => r.path) // ['/accounts', '/accounts/api_version', '/organisations', '/meters']
 */
export const setupRoutes: readonly AdminRoute[] = [account, apiVersion, organisation, meter]
