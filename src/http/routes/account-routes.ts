import { z } from 'zod'
import type { Account } from '#domain/accounts/account.js'
import { resourceMissing } from '#domain/service-error.js'
import { v1List, v1ListFields } from '../pagination.js'
import { expand, metadata } from '../params.js'
import type { Route } from '../route.js'
import { email } from './resource-helpers.js'

/** The v1 account object of an account. */
export function accountJson(account: Account, livemode: boolean): Record<string, unknown> {
  return {
    id: account.id,
    object: 'account',
    business_type: null,
    charges_enabled: true,
    country: account.country,
    created: Math.floor(account.created / 1000),
    default_currency: 'usd',
    details_submitted: true,
    email: account.email ?? null,
    livemode,
    metadata: { ...account.metadata },
    payouts_enabled: true,
    type: account.type ?? (account.platform === undefined ? 'standard' : 'custom'),
  }
}

const createBody = z.object({
  type: z.enum(['standard', 'express', 'custom']).optional(),
  email: email.optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, { message: 'Invalid country: expected a two-letter ISO code' })
    .optional(),
  metadata: metadata.optional(),
  expand,
})

const retrieveQuery = z.object({ expand })

const updateBody = z.object({
  email: email.optional(),
  metadata: metadata.optional(),
  expand,
})

const listQuery = z.object(v1ListFields)

/** `/v1/accounts`: create a connected account of the platform, retrieve one, or retrieve your own. */
export const accountRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/accounts',
    operation: 'accounts.create',
    body: createBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof createBody>
      const account = ctx.service.accounts.create({
        platform: ctx.principal.account.id,
        modes: [ctx.principal.mode],
        ...(b.type ? { type: b.type } : {}),
        ...(b.email ? { email: b.email } : {}),
        ...(b.country ? { country: b.country } : {}),
        ...(b.metadata && typeof b.metadata === 'object' ? { metadata: b.metadata } : {}),
      })
      const json = accountJson(account, ctx.principal.mode === 'live')
      ctx.service.events.snapshot({
        type: 'account.updated',
        account: account.id,
        mode: ctx.principal.mode,
        object: json,
      })
      return json
    },
  },
  {
    method: 'GET',
    path: '/v1/accounts/:id',
    operation: 'accounts.retrieve',
    object: 'id',
    query: retrieveQuery,
    handle(ctx) {
      const id = ctx.params.id ?? ''
      if (ctx.principal.account.id !== id) throw resourceMissing('account', id)
      return accountJson(ctx.principal.account, ctx.principal.mode === 'live')
    },
  },
  {
    method: 'GET',
    path: '/v1/account',
    operation: 'accounts.retrieveCurrent',
    query: retrieveQuery,
    handle: (ctx) => accountJson(ctx.principal.account, ctx.principal.mode === 'live'),
  },
  {
    method: 'POST',
    path: '/v1/accounts/:id',
    operation: 'accounts.update',
    object: 'id',
    body: updateBody,
    handle(ctx) {
      const id = ctx.params.id ?? ''
      const account = ctx.principal.account
      if (account.id !== id) throw resourceMissing('account', id)
      const b = ctx.body as z.infer<typeof updateBody>
      const before = accountJson(account, ctx.principal.mode === 'live')
      if (b.email !== undefined) account.email = b.email
      if (b.metadata === '' || b.metadata === null) account.metadata = {}
      else if (b.metadata !== undefined) {
        for (const [k, v] of Object.entries(b.metadata)) {
          if (v === '') delete account.metadata[k]
          else account.metadata[k] = v
        }
      }
      const json = accountJson(account, ctx.principal.mode === 'live')
      const previous: Record<string, unknown> = {}
      for (const k of Object.keys(json)) {
        if (JSON.stringify(json[k]) !== JSON.stringify(before[k])) previous[k] = before[k]
      }
      if (Object.keys(previous).length > 0) {
        ctx.service.events.snapshot({
          type: 'account.updated',
          account: account.id,
          mode: ctx.principal.mode,
          object: json,
          previousAttributes: previous,
          request: { id: ctx.requestId, idempotency_key: ctx.idempotencyKey ?? null },
        })
      }
      return json
    },
  },
  {
    method: 'GET',
    path: '/v1/accounts',
    operation: 'accounts.list',
    query: listQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof listQuery>
      const me = ctx.principal.account.id
      const connected = ctx.service.accounts
        .list()
        .filter((a) => a.platform === me && a.modes.has(ctx.principal.mode))
        .reverse()
      return v1List(connected, q, '/v1/accounts', (a) => accountJson(a, ctx.principal.mode === 'live'), 'account')
    },
  },
]
