import { z } from 'zod'
import type { Account } from '#domain/accounts/account.js'
import { resourceMissing } from '#domain/service-error.js'
import { expand, metadata, nonEmpty } from '../params.js'
import type { Route } from '../route.js'

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

const createBody = z
  .object({
    type: z.enum(['standard', 'express', 'custom']).optional(),
    email: nonEmpty.optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, { message: 'Invalid country: expected a two-letter ISO code' })
      .optional(),
    metadata: metadata.optional(),
    expand,
  })
  .strict()

const retrieveQuery = z.object({ expand }).strict()

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
    operation: 'accounts.retrieve_self',
    query: retrieveQuery,
    handle: (ctx) => accountJson(ctx.principal.account, ctx.principal.mode === 'live'),
  },
]
