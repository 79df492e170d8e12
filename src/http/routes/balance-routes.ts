import { z } from 'zod'
import { balanceTransactionJson } from '#domain/ledger/balance-transaction.js'
import { resourceMissing } from '#domain/service-error.js'
import { v1List, v1ListFields } from '../pagination.js'
import { expand } from '../params.js'
import type { Route } from '../route.js'
import { scopeOf } from './resource-helpers.js'

const listQuery = z.object({
  ...v1ListFields,
  type: z.string().optional(),
  source: z.string().optional(),
  currency: z.string().optional(),
})

/** `GET /v1/balance` (derived from the ledger) and `/v1/balance_transactions`. */
export const balanceRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v1/balance',
    operation: 'balance.retrieve',
    query: z.object({ expand }),
    handle(ctx) {
      const balance = ctx.service.ledger.balance(scopeOf(ctx))
      // The provider always lists the default currency, at zero before any money moved.
      const rows = balance.length > 0 ? balance : [{ currency: 'usd', available: 0, pending: 0 }]
      const part = (k: 'available' | 'pending') =>
        rows.map((r) => ({ amount: r[k], currency: r.currency, source_types: { card: r[k] } }))
      return {
        object: 'balance',
        available: part('available'),
        livemode: ctx.principal.mode === 'live',
        pending: part('pending'),
      }
    },
  },
  {
    method: 'GET',
    path: '/v1/balance_transactions/:id',
    operation: 'balanceTransactions.retrieve',
    object: 'id',
    query: z.object({ expand }),
    handle(ctx) {
      const t = ctx.service.ledger.get(scopeOf(ctx), ctx.params.id ?? '')
      if (t === undefined) throw resourceMissing('balance transaction', ctx.params.id ?? '')
      return balanceTransactionJson(t)
    },
  },
  {
    method: 'GET',
    path: '/v1/balance_transactions',
    operation: 'balanceTransactions.list',
    query: listQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof listQuery>
      const items = ctx.service.ledger
        .transactions(scopeOf(ctx))
        .filter(
          (t) =>
            (q.type === undefined || t.type === q.type) &&
            (q.source === undefined || t.source === q.source) &&
            (q.currency === undefined || t.currency === q.currency.toLowerCase()),
        )
      return v1List(items, q, '/v1/balance_transactions', balanceTransactionJson, 'balance transaction')
    },
  },
]
