import { describe, expect, it } from 'vitest'
import { operations } from '../../src/catalogue/index.js'
import { declarations } from '../../src/domain/resources/index.js'
import { NO_ORIGIN } from '../../src/domain/v1-events/emit.js'
import { call, setup } from './helpers.js'
import { shapeProblems } from './shape-check.js'

/** Params a create needs to make sense (the engine itself takes anything the validator lets through). */
const CREATE: Record<string, Record<string, string>> = {
  refund: {},
  price: { currency: 'USD', unit_amount: '500', product: '' },
  subscription_item: {},
}

function pathOf(template: string, values: Record<string, string>): string {
  return template.replace(/:(\w+)/g, (_, n: string) => values[n] ?? '')
}

describe('declared resources round-trip with every declared field', () => {
  for (const d of declarations) {
    const ops = operations().filter(
      (o) => o.returns.type === d.type || o.returns.type?.endsWith(`Deleted${d.type.split('.').pop()}`),
    )
    const create = ops.find((o) => o.method === 'POST' && /\.create\w*$/.test(o.name) && !o.path.endsWith('/create_preview'))
    const retrieve = ops.find((o) => o.method === 'GET' && /\.retrieve\w*$/.test(o.name))
    if (create === undefined) continue
    it(`${d.object}: create, retrieve, list, update, delete`, async () => {
      const { sim, key, stripe } = setup()
      const customer = await stripe.customers.create({ email: 'rt@example.com' })
      const product = await stripe.products.create({ name: 'RT' })
      const pi = await stripe.paymentIntents.create({
        amount: 700,
        currency: 'usd',
        payment_method: 'pm_card_visa',
        confirm: true,
      })
      const parents: Record<string, string> = { id: customer.id, customerId: customer.id, customer: customer.id }
      const params: Record<string, string> = { ...(CREATE[d.object] ?? {}), 'metadata[k]': 'v' }
      if (d.object === 'price') params.product = product.id
      if (d.object === 'product') params.name = 'Widget'
      if (d.object === 'refund') params.payment_intent = pi.id
      if (d.object === 'subscription_item') params.subscription = 'sub_x'
      if (d.object === 'customer_balance_transaction') Object.assign(params, { amount: '100', currency: 'usd' })
      const made =
        d.only?.includes('create') === false
          ? {
              status: 200,
              body: sim.service.engine
                .resource(d.object)
                .create({ account: sim.platform.id, mode: 'test' }, params, NO_ORIGIN) as any,
            }
          : await call(sim, key, 'POST', pathOf(create.path, parents), params)
      expect(made.status, JSON.stringify(made.body)).toBe(200)
      expect(shapeProblems(d.type, made.body)).toEqual([])
      if (d.ephemeral) return
      const own = { ...parents, id: made.body.id, [retrieve?.pathParams.at(-1) ?? 'id']: made.body.id }
      if (retrieve !== undefined) {
        const got = await call(sim, key, 'GET', pathOf(retrieve.path, own))
        expect(got.body).toEqual(made.body)
      }
      const list = ops.find((o) => o.method === 'GET' && o.returns.kind === 'list')
      if (list !== undefined) {
        const listed = await call(sim, key, 'GET', pathOf(list.path, parents))
        expect(listed.status).toBe(200)
        expect(listed.body.data.map((o: { id: string }) => o.id)).toContain(made.body.id)
      }
      const update = ops.find((o) => o.method === 'POST' && /\.update\w*$/.test(o.name))
      if (update !== undefined) {
        const up = await call(sim, key, 'POST', pathOf(update.path, own), { 'metadata[k]': '', 'metadata[n]': '1' })
        expect(up.status, JSON.stringify(up.body)).toBe(200)
        expect(up.body.metadata).toEqual({ n: '1' })
        expect(shapeProblems(d.type, up.body)).toEqual([])
      }
      const del = ops.find((o) => o.method === 'DELETE' && /\.del(ete\w*)?$/.test(o.name))
      if (del !== undefined) {
        const gone = await call(sim, key, 'DELETE', pathOf(del.path, own))
        expect(gone.body).toEqual({ id: made.body.id, object: d.object, deleted: true })
        if (retrieve !== undefined && d.deleted !== 'stub') {
          const after = await call(sim, key, 'GET', pathOf(retrieve.path, own))
          expect([after.status, after.body.error?.code]).toEqual([404, 'resource_missing'])
        }
      }
    })
  }
})
