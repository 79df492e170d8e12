import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { type Operation, operations, typeShape } from '../../src/catalogue/index.js'
import { declarations } from '../../src/domain/resources/index.js'
import { NO_ORIGIN } from '../../src/domain/v1-events/emit.js'
import { type Hints, hasParam, requiredParams } from '../params/generate.js'
import { CREATE_PARAMS, call, setup, withIds } from './helpers.js'
import { shapeProblems } from './shape-check.js'

/**
 * Every declared resource round-trips (create, retrieve, list, update, delete) with every
 * non-optional field of its catalogue type. The create sends the smallest valid request: the
 * params the client's types require, generated from the catalogue (so a new declaration
 * round-trips without data written for it), with real ids for the ids they name, plus
 * `metadata` where the params type takes it.
 */

function pathOf(template: string, values: Record<string, string>): string {
  return template.replace(/:(\w+)/g, (_, n: string) => values[n] ?? '')
}

describe('declared resources round-trip with every declared field', () => {
  for (const d of declarations) {
    const ops = operations().filter(
      (o) => o.returns.type === d.type || o.returns.type?.endsWith(`Deleted${d.type.split('.').pop()}`),
    )
    const create: Operation | undefined = ops.find(
      (o) => o.method === 'POST' && /\.create\w*$/.test(o.name) && !o.path.endsWith('/create_preview'),
    )
    const retrieve = ops.find((o) => o.method === 'GET' && /\.retrieve\w*$/.test(o.name))
    if (create === undefined) continue
    it(`${d.object}: create, retrieve, list, update, delete`, async () => {
      const { sim, key, stripe } = setup()
      const customer = await stripe.customers.create({ email: 'rt@example.com' })
      const product = await stripe.products.create({ name: 'RT' })
      const price = await stripe.prices.create({
        product: product.id,
        currency: 'usd',
        unit_amount: 500,
        recurring: { interval: 'month' },
      })
      const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
      const addedPrice = await stripe.prices.create({
        product: product.id,
        currency: 'usd',
        unit_amount: 300,
        recurring: { interval: 'month' },
      })
      const coupon = await stripe.coupons.create({ percent_off: 10 })
      const pi = await stripe.paymentIntents.create({
        amount: 700,
        currency: 'usd',
        // Funds available at once, so a payout or transfer can take them.
        payment_method: 'pm_card_bypassPending',
        confirm: true,
      })
      const connected = await stripe.accounts.create({ type: 'express' })
      const meter = await stripe.billing.meters.create({
        display_name: 'RT',
        event_name: 'rt_call',
        default_aggregation: { formula: 'sum' },
      })
      const ids: Record<string, string> = {
        customer: customer.id,
        product: product.id,
        price: price.id,
        addedPrice: addedPrice.id,
        subscription: subscription.id,
        invoice: String(subscription.latest_invoice),
        coupon: coupon.id,
        payment_intent: pi.id,
        account: sim.platform.id,
        destination: connected.id,
        meter: meter.id,
      }
      const hints: Hints = {
        strings: { ...ids, currency: 'usd', url: 'https://example.com/hook', email: 'rt@example.com' },
        integers: { frozen_time: Math.floor(sim.clock.now / 1000) },
        arrays: {},
      }
      const parents: Record<string, string> = { id: customer.id, customerId: customer.id, customer: customer.id }
      const params: Record<string, unknown> = {
        ...requiredParams(create.params, typeShape, hints),
        ...(withIds(CREATE_PARAMS[d.object] ?? {}, ids) as Record<string, unknown>),
        ...(hasParam(create.params, 'metadata', typeShape) ? { metadata: { k: 'v' } } : {}),
      }
      // A resource whose create the simulator does not serve (files: uploads go to another host)
      // is made through the engine, to round-trip the verbs it does serve.
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
      if ('metadata' in params) expect(made.body.metadata).toEqual({ k: 'v' })
      if (d.ephemeral) return
      const own = { ...parents, id: made.body.id, [retrieve?.pathParams.at(-1) ?? 'id']: made.body.id }
      if (retrieve !== undefined) {
        const got = await call(sim, key, 'GET', pathOf(retrieve.path, own))
        expect(got.body).toEqual(made.body)
      }
      const list = ops.find((o) => o.method === 'GET' && o.returns.kind === 'list')
      if (list !== undefined) {
        const query = qs.stringify(requiredParams(list.params, typeShape, hints), { arrayFormat: 'indices' })
        const listed = await call(sim, key, 'GET', `${pathOf(list.path, parents)}${query === '' ? '' : `?${query}`}`)
        expect(listed.status, JSON.stringify(listed.body)).toBe(200)
        expect(listed.body.data.map((o: { id: string }) => o.id)).toContain(made.body.id)
      }
      const update = ops.find((o) => o.method === 'POST' && /\.update\w*$/.test(o.name))
      if (update !== undefined && hasParam(update.params, 'metadata', typeShape)) {
        const up = await call(sim, key, 'POST', pathOf(update.path, own), { metadata: { k: '', n: '1' } })
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
          // An account id in the path acts for that account: once closed, no key has access to it.
          const missing = d.object === 'account' ? [403, 'account_invalid'] : [404, 'resource_missing']
          expect([after.status, after.body.error?.code]).toEqual(missing)
        }
      }
    })
  }
})
