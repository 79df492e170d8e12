import { z } from 'zod'
import { productJson } from '#domain/products/product.js'
import { v1List, v1ListFields } from '../pagination.js'
import { expand, formBool, metadata, nonEmpty } from '../params.js'
import type { Route } from '../route.js'
import { clearable, defined, metadataInput, originOf, scopeOf } from './resource-helpers.js'

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
const listQuery = z.object({ ...v1ListFields, active: formBool.optional() })

function input(b: z.infer<typeof updateBody>) {
  return defined({
    name: b.name,
    active: b.active,
    description: b.description,
    metadata: metadataInput(b.metadata),
    images: b.images === null ? [] : b.images,
    shippable: b.shippable,
    statementDescriptor: b.statement_descriptor,
    unitLabel: b.unit_label,
    url: b.url,
  })
}

/** `/v1/products`: create, retrieve, update, list. */
export const productRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/products',
    operation: 'products.create',
    body: createBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof createBody>
      const p = ctx.service.products.create(scopeOf(ctx), { ...input(b), name: b.name, ...defined({ id: b.id }) }, originOf(ctx))
      return productJson(p)
    },
  },
  {
    method: 'GET',
    path: '/v1/products/:id',
    operation: 'products.retrieve',
    object: 'id',
    query: z.object({ expand }),
    handle: (ctx) => productJson(ctx.service.products.require(scopeOf(ctx), ctx.params.id ?? '')),
  },
  {
    method: 'POST',
    path: '/v1/products/:id',
    operation: 'products.update',
    object: 'id',
    body: updateBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof updateBody>
      return productJson(ctx.service.products.update(scopeOf(ctx), ctx.params.id ?? '', input(b), originOf(ctx)))
    },
  },
  {
    method: 'GET',
    path: '/v1/products',
    operation: 'products.list',
    query: listQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof listQuery>
      const items = ctx.service.products.list(scopeOf(ctx), defined({ active: q.active }))
      return v1List(items, q, '/v1/products', productJson, 'product')
    },
  },
]
