import { typeShape } from '#catalogue/index.js'
import type { OffSessionPaymentCreate } from '#domain/payments/off-session/off-session-payment.js'
import { OFF_SESSION_PAYMENT_PARAMS } from '#domain/payments/off-session/params.js'
import { type ParamSource, ParamsCompiler } from '../catalogue-params.js'
import type { RequestContext, Route } from '../route.js'
import { originOf, scopeOf } from './resource-helpers.js'

// The catalogue's validator over the quoted params types (the pinned client has none for these).
const compiler = new ParamsCompiler((name) => OFF_SESSION_PAYMENT_PARAMS[name] ?? typeShape(name))

function checked(type: string, input: unknown, source: ParamSource): Record<string, unknown> {
  return compiler.validator(`V2.Payments.OffSessionPayment${type}Params`)(input as Record<string, unknown>, source)
}

const BASE = '/v2/payments/off_session_payments'
const idOf = (ctx: RequestContext) => ctx.params.id ?? ''

/**
 * `/v2/payments/off_session_payments`: create, retrieve, list (v2 pagination), cancel. Served
 * beside the catalogue, in the client's naming: the pinned official client has no such operations.
 */
export const offSessionPaymentRoutes: Route[] = [
  {
    method: 'POST',
    path: BASE,
    operation: 'v2.payments.offSessionPayments.create',
    handle(ctx) {
      const params = checked('Create', ctx.body, 'json') as unknown as OffSessionPaymentCreate
      return ctx.service.offSessionPayments.create(scopeOf(ctx), params, originOf(ctx))
    },
  },
  {
    method: 'GET',
    path: `${BASE}/:id`,
    operation: 'v2.payments.offSessionPayments.retrieve',
    object: 'id',
    handle(ctx) {
      checked('Retrieve', ctx.query, 'query')
      return ctx.service.offSessionPayments.require(scopeOf(ctx), idOf(ctx))
    },
  },
  {
    method: 'GET',
    path: BASE,
    operation: 'v2.payments.offSessionPayments.list',
    handle: (ctx) => ctx.service.offSessionPayments.page(scopeOf(ctx), checked('List', ctx.query, 'query')),
  },
  {
    method: 'POST',
    path: `${BASE}/:id/cancel`,
    operation: 'v2.payments.offSessionPayments.cancel',
    object: 'id',
    handle(ctx) {
      checked('Cancel', ctx.body, 'json')
      return ctx.service.offSessionPayments.cancel(scopeOf(ctx), idOf(ctx), originOf(ctx))
    },
  },
]
