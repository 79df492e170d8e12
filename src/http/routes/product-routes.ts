import { z } from 'zod'
import { createdFilter, v1ListFields } from '../pagination.js'
import { expand, formBool, metadata, nonEmpty } from '../params.js'
import type { Route } from '../route.js'
import { engineHandle } from './engine-routes.js'
import { clearable } from './resource-helpers.js'

const fields = {
  active: formBool.optional(),
  description: clearable.optional(),
  metadata: metadata.optional(),
  // `''` (form) clears images, url and unit label on update: the catalogue check hands it on as `null`.
  images: z.array(z.string().url()).max(8).nullable().optional(),
  shippable: formBool.optional(),
  statement_descriptor: z.string().max(22).optional(),
  unit_label: z.string().max(12).nullable().optional(),
  url: z.string().nullable().optional(),
  expand,
}
const createBody = z.object({
  ...fields,
  name: nonEmpty,
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/)
    .optional(),
})
const updateBody = z.object({ ...fields, name: nonEmpty.optional() })
const listQuery = z.object({ ...v1ListFields, created: createdFilter, active: formBool.optional() })

/**
 * `/v1/products`: create, retrieve, update, list, served by the resource engine
 * (src/domain/resources/products.ts); these routes keep the parameter checks until the catalogue's
 * params validator serves them.
 */
export const productRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/products',
    operation: 'products.create',
    body: createBody,
    handle: engineHandle('products.create'),
  },
  {
    method: 'GET',
    path: '/v1/products/:id',
    operation: 'products.retrieve',
    object: 'id',
    query: z.object({ expand }),
    handle: engineHandle('products.retrieve'),
  },
  {
    method: 'POST',
    path: '/v1/products/:id',
    operation: 'products.update',
    object: 'id',
    body: updateBody,
    handle: engineHandle('products.update'),
  },
  {
    method: 'GET',
    path: '/v1/products',
    operation: 'products.list',
    query: listQuery,
    handle: engineHandle('products.list'),
  },
]
