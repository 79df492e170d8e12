import qs from 'qs'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { type Operation, operations, typeShape } from '../../src/catalogue/index.js'
import type { Shape } from '../../src/catalogue/types.js'
import { catalogueParams } from '../../src/http/operation-params.js'
import { routes } from '../../src/http/routes/index.js'
import { createSimulator } from '../../src/index.js'
import { everyParam, type Hints, requiredParams } from './generate.js'

/**
 * Every documented parameter of every served operation, sent through the official client's own
 * encoding (`stripe.rawRequest`: form with indexed arrays on /v1, JSON on /v2, the query on GET and
 * DELETE) with a valid value generated from its declared shape, must be accepted: no
 * `parameter_unknown`, `parameter_invalid*` or `parameter_missing`. Domain refusals (`resource_missing`
 * for a made-up id, a payment intent in the wrong state) are fine: the parameters passed.
 *
 * "Served" is whatever the router answers with something other than 404 `url_unrecognized`, 405 or
 * 501 `not_implemented`, so the figure grows as the engine serves more operations.
 */

const DAY = 86_400

function isParamRefusal(code: string | undefined): boolean {
  return code?.startsWith('parameter_') === true
}

interface Answer {
  readonly status: number
  readonly code?: string
  readonly message?: string
  readonly param?: string
}

describe('every documented parameter of every served operation', () => {
  it('is accepted with a valid value, through the official client encoding', { timeout: 120_000 }, async () => {
    const sim = createSimulator({ seed: 14, headerPrefix: 'Stripe', limits: false, traceLimit: 1000 })
    const stripe = new Stripe(sim.platform.secretKey.test, {
      httpClient: Stripe.createFetchHttpClient(sim.fetch),
      maxNetworkRetries: 0,
    })

    // Real ids for path parameters where they are cheap; any other placeholder gets a made-up id.
    const customer = await stripe.customers.create({ email: 'jenny@example.com' })
    const product = await stripe.products.create({ name: 'Widget' })
    const meter = await stripe.billing.meters.create({
      display_name: 'API calls',
      event_name: 'api_call',
      default_aggregation: { formula: 'sum' },
    })
    const intent = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    const destination = await stripe.v2.core.eventDestinations.create({
      name: 'hook',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['customer.created'],
      webhook_endpoint: { url: 'https://example.com/hook' },
    })
    const session = await stripe.v2.billing.meterEventSession.create()
    const [event] = (await stripe.events.list({ limit: 1 })).data
    const [transaction] = (await stripe.balanceTransactions.list({ limit: 1 })).data
    const ids: Record<string, string> = {
      customers: customer.id,
      products: product.id,
      meters: meter.id,
      payment_intents: intent.id,
      charges: typeof intent.latest_charge === 'string' ? intent.latest_charge : 'ch_missing',
      accounts: sim.platform.id,
      events: event?.id ?? 'evt_missing',
      balance_transactions: transaction?.id ?? 'txn_missing',
      payment_methods: 'pm_card_visa',
      event_destinations: destination.id,
    }
    const pathOf = (op: Operation) =>
      op.path
        .split('/')
        .map((segment, i, all) => (segment.startsWith(':') ? (ids[all[i - 1] ?? ''] ?? 'id_missing') : segment))
        .join('/')

    const now = sim.clock.now
    const dayStart = Math.floor(now / 1000 / DAY) * DAY - DAY
    const iso = new Date(now).toISOString()
    const hints: Hints = {
      strings: {
        email: 'jenny@example.com',
        // Ids the billing behaviours look up must name real objects.
        customer: customer.id,
        receipt_email: 'jenny@example.com',
        country: 'US',
        currency: 'usd',
        url: 'https://example.com/x',
        // Search queries in the provider's query language.
        query: "metadata['k']:'v'",
        timestamp: iso,
        gt: iso,
        gte: iso,
        lt: iso,
        lte: iso,
      },
      integers: { start_time: dayStart, end_time: dayStart + DAY },
      arrays: {
        payment_method_types: ['card'],
        events_from: ['@self'],
        enabled_events: ['customer.created'],
        images: ['https://example.com/i.png'],
      },
    }
    const monthly = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 100,
      recurring: { interval: 'month' },
    })
    // Values of kinds the simulator models where the client's first enum value is one it does not.
    const overrides: Record<string, Record<string, unknown>> = {
      // The billing behaviours need a customer and a recurring price, as the provider does.
      'subscriptions.create': { customer: customer.id, items: [{ price: monthly.id }] },
      'subscriptionSchedules.create': { customer: customer.id, phases: [{ items: [{ price: monthly.id }] }] },
      'billing.creditGrants.create': {
        customer: customer.id,
        amount: { type: 'monetary', monetary: { currency: 'usd', value: 100 } },
        applicability_config: { scope: { price_type: 'metered' } },
        // After the grant takes effect (now), as the provider requires.
        expires_at: Math.floor(now / 1000) + 30 * DAY,
      },
      'v2.core.eventDestinations.create': {
        type: 'webhook_endpoint',
        event_payload: 'snapshot',
        webhook_endpoint: { url: 'https://example.com/hook' },
      },
    }

    // The operation that answered the last request, in the client's naming: a route of another
    // operation can shadow one nobody serves yet (`GET /v1/customers/search` reaching
    // `/v1/customers/:id`), which is not serving it.
    const byRouteName = new Map(routes.map((r) => [r.operation, catalogueParams.operationOf(r)?.name ?? r.operation]))
    function handledBy(): string | undefined {
      const last = sim.trace.filter('http').at(-1)?.data.operation
      return typeof last === 'string' ? (byRouteName.get(last) ?? last) : undefined
    }

    /** Whether an answer says nobody serves the operation (or another operation's route answered). */
    function isUnserved(op: Operation, answer: Answer): boolean {
      return (
        (answer.status === 404 && answer.code === 'url_unrecognized') ||
        answer.status === 405 ||
        answer.status === 501 ||
        handledBy() !== op.name
      )
    }

    async function send(op: Operation, params: Record<string, unknown>): Promise<Answer> {
      const options = op.host === 'meter_events' ? { apiKey: session.authentication_token } : {}
      // rawRequest takes params on POST only; GET and DELETE carry them in the query, encoded as the
      // client encodes them (qs with indexed arrays, null as '').
      const query = op.method === 'POST' ? '' : qs.stringify(params, { arrayFormat: 'indices' })
      const path = query === '' ? pathOf(op) : `${pathOf(op)}?${query}`
      try {
        await stripe.rawRequest(op.method, path, op.method === 'POST' ? params : undefined, options)
        return { status: 200 }
      } catch (error) {
        const e = error as { statusCode?: number; code?: string; message?: string; param?: string }
        return { status: e.statusCode ?? 0, code: e.code, message: e.message, param: e.param }
      }
    }

    // A search's `page` is the `next_page` of the same search: the query and a limit of one, run
    // first, over objects made for it (the smallest valid create of the resource, with the
    // metadata the query matches) until there is a next page.
    const seeds: Readonly<Record<string, Record<string, unknown>>> = {
      'prices.create': { product: product.id, unit_amount: 100 },
      'subscriptions.create': { customer: customer.id, items: [{ price: monthly.id }] },
      'invoices.create': { customer: customer.id },
      'paymentIntents.create': { amount: 1000 },
    }
    // Charges are made by confirmed payment intents (which pass their metadata on), never created directly.
    const makers: Readonly<Record<string, () => Promise<unknown>>> = {
      'charges.search': () =>
        stripe.paymentIntents.create({
          amount: 1000,
          currency: 'usd',
          payment_method: 'pm_card_visa',
          confirm: true,
          metadata: { k: 'v' },
        }),
    }
    async function pageOf(op: Operation, params: Record<string, unknown>): Promise<string> {
      const { page: _page, ...first } = params
      const create = operations().find((o) => o.name === op.name.replace(/search$/, 'create'))
      for (let made = 0; made < 3; made++) {
        const query = qs.stringify({ ...first, limit: 1 }, { arrayFormat: 'indices' })
        const found = (await stripe.rawRequest('GET', `${pathOf(op)}?${query}`)) as { next_page?: string | null }
        if (typeof found.next_page === 'string') return found.next_page
        const maker = makers[op.name]
        if (maker !== undefined) {
          await maker()
          continue
        }
        if (create === undefined) break
        const seed = { ...requiredParams(create.params, typeShape, hints), ...seeds[create.name], metadata: { k: 'v' } }
        await stripe.rawRequest('POST', pathOf(create), seed)
      }
      throw new Error(`${op.name}: no next_page to send as page`)
    }

    let served = 0
    let total = 0
    let accepted = 0
    const refused: string[] = []
    const skipped: string[] = []
    // Deletions last: they remove the shared fixtures (the customer) other operations name.
    const ordered = [...operations()].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
    for (const op of ordered) {
      if (op.host === 'files') continue
      const params = { ...everyParam(op.params, typeShape, hints), ...overrides[op.name] }
      // `expand[]` takes only paths the answer can expand: the first expandable field of its type.
      if ('expand' in params) params.expand = expandableOf(op)
      if (op.name.endsWith('.search') && 'page' in params && !isUnserved(op, await send(op, {}))) {
        params.page = await pageOf(op, params)
      }
      const answer = await send(op, params)
      if (isUnserved(op, answer)) {
        skipped.push(op.name)
        continue
      }
      if (answer.status === 0) {
        refused.push(`${op.name}: the client refused to send it: ${answer.message}`)
        continue
      }
      served++
      const names = Object.keys(params)
      total += names.length
      if (!isParamRefusal(answer.code)) {
        accepted += names.length
        continue
      }
      // Refused: find which parameters, one at a time beside the required ones.
      const shape = op.params === undefined ? undefined : typeShape(op.params)
      const required = shape?.t === 'object' ? Object.keys(shape.fields).filter((k) => shape.fields[k]?.optional !== true) : []
      for (const name of names) {
        const single: Record<string, unknown> = { ...overrides[op.name], [name]: params[name] }
        for (const r of required) single[r] = params[r]
        const one = await send(op, single)
        if (isParamRefusal(one.code)) refused.push(`${op.name} ${name}: ${one.code} ${one.message}`)
        else accepted++
      }
    }
    console.log(
      `every-param: ${accepted}/${total} documented parameters accepted on ${served} served operations (${skipped.length} operations not served)`,
    )
    expect(refused).toEqual([])
    expect(served).toBeGreaterThanOrEqual(50)
    expect(accepted).toBe(total)
  })
})

/** An `expand[]` value the operation's answer can take: its type's first expandable field (or none). */
function expandableOf(op: Operation): string[] {
  const r = op.returns
  if (r.kind !== 'object' && r.kind !== 'list' && r.kind !== 'search') return []
  const shape = typeShape(r.type)
  if (shape?.t !== 'object') return []
  const isExpandable = (s: Shape): boolean =>
    s.t === 'expandable' || (s.t === 'array' && isExpandable(s.of)) || (s.t === 'union' && s.of.some(isExpandable))
  const field = Object.entries(shape.fields).find(([, f]) => isExpandable(f.shape))?.[0]
  if (field === undefined) return []
  return [r.kind === 'object' ? field : `data.${field}`]
}
