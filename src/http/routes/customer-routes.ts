import { z } from 'zod'
import { createdFilter, v1ListFields } from '../pagination.js'
import { expand, metadata } from '../params.js'
import type { Route } from '../route.js'
import { engineHandle } from './engine-routes.js'
import { clearable, email } from './resource-helpers.js'

const fields = {
  email: z.union([z.literal(''), email]).optional(),
  name: clearable.optional(),
  description: clearable.optional(),
  phone: clearable.optional(),
  metadata: metadata.optional(),
  invoice_settings: z.object({ default_payment_method: clearable.optional() }).optional(),
  expand,
}

const createBody = z.object({ ...fields, payment_method: z.string().min(1).optional(), test_clock: z.string().min(1).optional() })
const updateBody = z.object(fields)
const listQuery = z.object({ ...v1ListFields, created: createdFilter, email: z.string().optional() })
const retrieveQuery = z.object({ expand })

/**
 * `/v1/customers`: create, retrieve, update, delete, list, served by the resource engine
 * (src/domain/resources/customers.ts); these routes keep the parameter checks until the catalogue's
 * params validator serves them.
 */
export const customerRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/customers',
    operation: 'customers.create',
    body: createBody,
    handle: engineHandle('customers.create'),
  },
  {
    method: 'GET',
    path: '/v1/customers/:id',
    operation: 'customers.retrieve',
    object: 'id',
    query: retrieveQuery,
    handle: engineHandle('customers.retrieve'),
  },
  {
    method: 'POST',
    path: '/v1/customers/:id',
    operation: 'customers.update',
    object: 'id',
    body: updateBody,
    handle: engineHandle('customers.update'),
  },
  {
    method: 'DELETE',
    path: '/v1/customers/:id',
    operation: 'customers.delete',
    object: 'id',
    body: z.object({}),
    handle: engineHandle('customers.del'),
  },
  {
    method: 'GET',
    path: '/v1/customers',
    operation: 'customers.list',
    query: listQuery,
    handle: engineHandle('customers.list'),
  },
]
