import { afterAll, describe, expect, it } from 'vitest'
import { type Operation, operations, typeShape } from '../../src/catalogue/index.js'
import { servedDeclarations as declarations } from '../../src/domain/served-declarations.js'
import { type Hints, hasParam, requiredParams } from '../params/generate.js'
import { CREATE_PARAMS, CREATE_VERSION, methodOf, parentOf, setup, withIds } from './helpers.js'
import { shapeProblems } from './shape-check.js'

/** Fields the provider shows only in a create's answer (a webhook endpoint's signing secret). */
const CREATE_ONLY: Readonly<Record<string, readonly string[]>> = { webhook_endpoint: ['secret'] }

function withoutCreateOnly(object: string, made: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...made }
  for (const f of CREATE_ONLY[object] ?? []) delete rest[f]
  return rest
}

/**
 * The acceptance round trip: every resource declared to the engine goes create -> retrieve ->
 * list -> update -> delete (each verb its catalogue has) through the official client, and every
 * answer holds each field the client declares non-optional, with its declared type. The list of
 * resources is the declarations themselves, so a resource moved onto the engine is covered
 * without a line here; only a resource whose create needs more than its required params names
 * them below.
 */

/** The answer as the wire carried it (the client reads decimals into objects). */
const wire = (answer: unknown): unknown => JSON.parse(JSON.stringify(answer))

/** The operations of a declared resource by verb, as the catalogue names them. */
function verbsOf(type: string): Partial<Record<'create' | 'retrieve' | 'list' | 'update' | 'del', Operation>> {
  const own = operations().filter(
    (o) => o.api === 'v1' && (o.returns.type === type || o.returns.type === type.replace(/(^|\.)(\w+)$/, '$1Deleted$2')),
  )
  const find = (method: string, verb: RegExp, kind?: string) =>
    own.find(
      (o) => o.method === method && verb.test(o.name.split('.').pop() ?? '') && (kind === undefined || o.returns.kind === kind),
    )
  return {
    create: own.find(
      (o) => o.method === 'POST' && /^create\w*$/.test(o.name.split('.').pop() ?? '') && !o.path.endsWith('/create_preview'),
    ),
    retrieve: find('GET', /^retrieve\w*$/, 'object'),
    list: find('GET', /^list\w*$/, 'list'),
    update: find('POST', /^update\w*$/),
    del: find('DELETE', /^del\w*$/),
  }
}

const passed: string[] = []
const resources = declarations.filter((d) => verbsOf(d.type).create !== undefined && d.only?.includes('create') !== false)

describe('every declared resource round-trips through the official client', () => {
  afterAll(() => {
    console.log(
      `official-client round trip: ${passed.length} of ${resources.length} declared resources pass (${passed.join(', ')})`,
    )
  })

  for (const d of resources) {
    const ops = verbsOf(d.type)
    const create = ops.create as Operation
    it(`${d.object}: ${Object.keys(ops)
      .filter((v) => ops[v as keyof typeof ops] !== undefined)
      .join(', ')}`, async () => {
      const { sim, stripe } = setup()
      const customer = await stripe.customers.create({ email: 'rt@example.com' })
      const product = await stripe.products.create({ name: 'RT' })
      const price = await stripe.prices.create({
        product: product.id,
        currency: 'usd',
        unit_amount: 500,
        recurring: { interval: 'month' },
      })
      await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
      const addedPrice = await stripe.prices.create({
        product: product.id,
        currency: 'usd',
        unit_amount: 300,
        recurring: { interval: 'month' },
      })
      const subscription = (await stripe.subscriptions.list({ customer: customer.id })).data[0]
      const pi = await stripe.paymentIntents.create({
        amount: 700,
        currency: 'usd',
        payment_method: 'pm_card_bypassPending',
        confirm: true,
      })
      const connected = await stripe.accounts.create({ type: 'express' })
      const file = await stripe.files.create({
        purpose: 'dispute_evidence',
        file: { data: Buffer.from('%PDF'), name: 'a.pdf', type: 'application/pdf' },
      })
      const cardholder = await stripe.issuing.cardholders.create({
        name: 'RT',
        billing: { address: { line1: '1 Main', city: 'SF', postal_code: '94111', country: 'US' } },
      })
      const card = await stripe.issuing.cards.create({ cardholder: cardholder.id, currency: 'usd', type: 'virtual' })
      const feature = await stripe.entitlements.features.create({ name: 'RT', lookup_key: 'rt' })
      // A tax transaction is made from a calculation that exists.
      const calculation = await stripe.tax.calculations.create({
        currency: 'usd',
        customer_details: { address: { country: 'US' }, address_source: 'billing' },
        line_items: [{ amount: 100, reference: 'rt' }],
      })
      const financialAccount = await stripe.treasury.financialAccounts.create({ supported_currencies: ['usd'] })
      const moved = { financial_account: financialAccount.id, amount: 100, currency: 'usd', network: 'ach' as const }
      const receivedCredit = await stripe.testHelpers.treasury.receivedCredits.create(moved)
      const receivedDebit = await stripe.testHelpers.treasury.receivedDebits.create(moved)
      const meter = await stripe.billing.meters.create({
        display_name: 'RT',
        event_name: 'rt_call',
        default_aggregation: { formula: 'sum' },
      })
      const ids: Record<string, string> = {
        entitlement_feature: feature.id,
        calculation: String(calculation.id),
        financial_account: financialAccount.id,
        received_credit: receivedCredit.id,
        received_debit: receivedDebit.id,
        file: file.id,
        cardholder: cardholder.id,
        card: card.id,
        payment_method: 'pm_card_visa',
        customer: customer.id,
        product: product.id,
        price: price.id,
        addedPrice: addedPrice.id,
        subscription: subscription?.id ?? '',
        invoice: String(subscription?.latest_invoice ?? ''),
        payment_intent: pi.id,
        destination: connected.id,
        meter: meter.id,
        account: connected.id,
      }
      const hints: Hints = {
        strings: { ...ids, currency: 'usd', url: 'https://example.com/hook', email: 'rt@example.com' },
        integers: { frozen_time: Math.floor(sim.clock.now / 1000) },
        arrays: {},
      }
      // Parent placeholders of nested resources (`/v1/customers/:id/tax_ids`) name the customer.
      const parent = await parentOf(create.path, {
        customer: customer.id,
        account: connected.id,
        product: product.id,
        transfer: async () => (await stripe.transfers.create({ amount: 100, currency: 'usd', destination: connected.id })).id,
        fee: async () => {
          await stripe.paymentIntents.create(
            { amount: 2000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, application_fee_amount: 200 },
            { stripeAccount: connected.id },
          )
          return String((await stripe.applicationFees.list()).data[0]?.id)
        },
      })
      const parents = (op: Operation) =>
        op.pathParams.slice(0, op.path.endsWith(`:${op.pathParams.at(-1)}`) && op !== create ? -1 : undefined).map(() => parent)
      const params = {
        ...requiredParams(create.params, typeShape, hints),
        ...(withIds(CREATE_PARAMS[d.object] ?? {}, ids) as Record<string, unknown>),
        ...(hasParam(create.params, 'metadata', typeShape) ? { metadata: { k: 'v' } } : {}),
      }
      const call = (op: Operation, ...args: unknown[]) => {
        const fn = methodOf(stripe, op.name)
        if (fn === undefined) throw new Error(`no client method ${op.name}`)
        return fn(...args) as Promise<Record<string, unknown>>
      }
      const version = CREATE_VERSION[d.object]
      const made = await call(create, ...parents(create), params, ...(version === undefined ? [] : [{ apiVersion: version }]))
      expect(shapeProblems(d.type, wire(made))).toEqual([])
      if (d.ephemeral) {
        passed.push(d.object)
        return
      }
      const id = String(made.id)
      if (ops.retrieve !== undefined) {
        const got = await call(ops.retrieve, ...parents(ops.retrieve), id)
        expect(shapeProblems(d.type, wire(got))).toEqual([])
        expect(wire(got)).toEqual(wire(withoutCreateOnly(d.object, made)))
      }
      if (ops.list !== undefined) {
        const listed = await call(ops.list, ...parents(ops.list), requiredParams(ops.list.params, typeShape, hints))
        const data = (listed.data ?? []) as Record<string, unknown>[]
        expect(data.map((o) => o.id)).toContain(id)
        for (const o of data) expect(shapeProblems(d.type, wire(o))).toEqual([])
      }
      if (ops.update !== undefined && hasParam(ops.update.params, 'metadata', typeShape)) {
        const up = await call(ops.update, ...parents(ops.update), id, { metadata: { k: '', n: '1' } })
        expect(up.metadata).toEqual({ n: '1' })
        expect(shapeProblems(d.type, wire(up))).toEqual([])
      }
      if (ops.del !== undefined) {
        const gone = await call(ops.del, ...parents(ops.del), id)
        // A delete that answers the live type (an ephemeral key, expired) says so by its fields, not `deleted`.
        const live = ops.del.returns.type === d.type
        expect(wire(gone)).toMatchObject(live ? { id, object: d.object } : { id, object: d.object, deleted: true })
      }
      passed.push(d.object)
    })
  }
})
