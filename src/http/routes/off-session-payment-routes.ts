import { z } from 'zod'
import { offSessionPaymentJson } from '#domain/off-session-payments/off-session-payment.js'
import { v2List, v2ListQuery } from '../pagination.js'
import type { Route } from '../route.js'
import { defined, originOf, requiredInt, scopeOf } from './resource-helpers.js'

const createBody = z
  .object({
    amount: z.object({ value: requiredInt('amount.value'), currency: z.string().min(1) }).strict(),
    cadence: z.enum(['recurring', 'unscheduled']),
    customer: z.string().min(1),
    payment_method: z.string().min(1),
    metadata: z.record(z.string().max(40), z.string().max(500)).optional(),
    retry_details: z
      .object({ retry_strategy: z.enum(['none', 'smart']) })
      .strict()
      .optional(),
    statement_descriptor: z.string().max(22).optional(),
    statement_descriptor_suffix: z.string().max(22).optional(),
  })
  .strict()

const BASE = '/v2/payments/off_session_payments'

/** `/v2/payments/off_session_payments`: create, retrieve, list (v2 pagination), cancel. */
export const offSessionPaymentRoutes: Route[] = [
  {
    method: 'POST',
    path: BASE,
    operation: 'v2.payments.offSessionPayments.create',
    body: createBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof createBody>
      const o = ctx.service.offSessionPayments.create(
        scopeOf(ctx),
        {
          amount: b.amount,
          cadence: b.cadence,
          customer: b.customer,
          paymentMethod: b.payment_method,
          ...defined({
            metadata: b.metadata,
            retryStrategy: b.retry_details?.retry_strategy,
            statementDescriptor: b.statement_descriptor,
            statementDescriptorSuffix: b.statement_descriptor_suffix,
          }),
        },
        originOf(ctx),
      )
      return offSessionPaymentJson(o)
    },
  },
  {
    method: 'GET',
    path: `${BASE}/:id`,
    operation: 'v2.payments.offSessionPayments.retrieve',
    object: 'id',
    query: z.object({}).strict(),
    handle: (ctx) => offSessionPaymentJson(ctx.service.offSessionPayments.require(scopeOf(ctx), ctx.params.id ?? '')),
  },
  {
    method: 'GET',
    path: BASE,
    operation: 'v2.payments.offSessionPayments.list',
    query: v2ListQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof v2ListQuery>
      return v2List(ctx.service.offSessionPayments.list(scopeOf(ctx)), q, BASE, offSessionPaymentJson)
    },
  },
  {
    method: 'POST',
    path: `${BASE}/:id/cancel`,
    operation: 'v2.payments.offSessionPayments.cancel',
    object: 'id',
    body: z.object({}).strict(),
    handle: (ctx) =>
      offSessionPaymentJson(ctx.service.offSessionPayments.cancel(scopeOf(ctx), ctx.params.id ?? '', originOf(ctx))),
  },
]
