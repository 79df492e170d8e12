import { z } from 'zod'
import { customerJson } from '#domain/customers/customer.js'
import { v1List, v1ListFields } from '../pagination.js'
import { expand, metadata } from '../params.js'
import type { Route } from '../route.js'
import { clearable, defined, email, metadataInput, originOf, scopeOf } from './resource-helpers.js'

const fields = {
  email: z.union([z.literal(''), email]).optional(),
  name: clearable.optional(),
  description: clearable.optional(),
  phone: clearable.optional(),
  metadata: metadata.optional(),
  invoice_settings: z.object({ default_payment_method: clearable.optional() }).optional(),
  expand,
}

const createBody = z.object({ ...fields, payment_method: z.string().min(1).optional() })
const updateBody = z.object(fields)
const listQuery = z.object({ ...v1ListFields, email: z.string().optional() })
const retrieveQuery = z.object({ expand })

function input(b: z.infer<typeof updateBody>) {
  return defined({
    email: b.email === '' ? null : b.email,
    name: b.name,
    description: b.description,
    phone: b.phone,
    metadata: metadataInput(b.metadata),
    defaultPaymentMethod: b.invoice_settings?.default_payment_method,
  })
}

/** `/v1/customers`: create, retrieve, update, delete, list. */
export const customerRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/customers',
    operation: 'customers.create',
    body: createBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof createBody>
      const c = ctx.service.customers.create(
        scopeOf(ctx),
        { ...input(b), ...(b.payment_method === undefined ? {} : { paymentMethod: b.payment_method }) },
        originOf(ctx),
      )
      return customerJson(c)
    },
  },
  {
    method: 'GET',
    path: '/v1/customers/:id',
    operation: 'customers.retrieve',
    object: 'id',
    query: retrieveQuery,
    handle(ctx) {
      const c = ctx.service.customers.get(scopeOf(ctx), ctx.params.id ?? '')
      if (c === undefined) return customerJson(ctx.service.customers.require(scopeOf(ctx), ctx.params.id ?? ''))
      return customerJson(c)
    },
  },
  {
    method: 'POST',
    path: '/v1/customers/:id',
    operation: 'customers.update',
    object: 'id',
    body: updateBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof updateBody>
      return customerJson(ctx.service.customers.update(scopeOf(ctx), ctx.params.id ?? '', input(b), originOf(ctx)))
    },
  },
  {
    method: 'DELETE',
    path: '/v1/customers/:id',
    operation: 'customers.delete',
    object: 'id',
    body: z.object({}),
    handle(ctx) {
      return customerJson(ctx.service.customers.delete(scopeOf(ctx), ctx.params.id ?? '', originOf(ctx)))
    },
  },
  {
    method: 'GET',
    path: '/v1/customers',
    operation: 'customers.list',
    query: listQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof listQuery>
      const items = ctx.service.customers.list(scopeOf(ctx), defined({ email: q.email }))
      return v1List(items, q, '/v1/customers', customerJson, 'customer')
    },
  },
]
