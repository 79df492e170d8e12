import { clearTimeout as realClearTimeout, setTimeout as realSetTimeout } from 'node:timers'
import { operations } from '../../src/catalogue/index.js'
import { declarations } from '../../src/domain/resource-declarations.js'
import { routes } from '../../src/http/routes/index.js'
import { createSimulator, type Simulator } from '../../src/index.js'
import { createRng, type RandomStream } from '../../src/kernel/rng.js'

/**
 * Hostile requests against every route of the simulator, generated from a seed, and a runner that
 * counts what must never happen: hangs, 5xx, throws other than fetch's own `TypeError`s, state
 * changes on refused requests, throws after a commit, and background failures.
 */

const API = 'https://api.service.test'

/** Routes with behaviour or the engine behind them (not the 501 answers of operations nobody serves). */
const served = routes.filter((route) => route.checksParams !== false)
/**
 * The served routes of resources written by hand (behaviours, the ledger): the code hostile input
 * is most likely to break, drawn more often than the generic resources the catalogue alone serves.
 */
const handWrittenTypes = new Set(declarations.map((d) => d.type))
const handWrittenOps = new Set(
  operations()
    .filter((o) => handWrittenTypes.has(o.returns.type ?? ''))
    .map((o) => o.name),
)
const handWritten = served.filter((route) => handWrittenOps.has(route.operation))
const METER_HOST = 'https://meter-events.service.test'

/** What a run counts; every figure but `requests`, `fetchTypeErrors` and `ms` must be 0. */
export interface HostileFigures {
  requests: number
  /** Requests not answered (or refused) within the time-out, or after which balance stopped answering. */
  hangs: number
  serverErrors: number
  /** Rejections that are not fetch's own `TypeError`. */
  throws: number
  /** Rejections that are `TypeError`s (what real fetch throws for the same arguments): allowed. */
  fetchTypeErrors: number
  /** 4xx answers (card declines aside) during which something was committed. */
  stateChangesOn4xx: number
  /** Rejections (of any kind) during which something was committed. */
  throwsAfterCommit: number
  /** `http.internal_error` and `scheduler.task_failed` trace entries, and throws of settle/runToLast. */
  internalFailures: number
  /** Plain `GET /v1/balance` checks after a request that did not answer 200. */
  balanceFailures: number
  /** Answers by status class, for the curious. */
  statuses: Record<string, number>
  ms: number
}

/** Trace kinds that record no state change: the request itself, refusals and transient locks. */
function isCommit(kind: string): boolean {
  return !(
    kind === 'http' ||
    kind === 'http.replayed' ||
    kind.startsWith('limit.') ||
    kind.startsWith('lock.') ||
    kind === 'fault' ||
    kind === 'http.internal_error' ||
    kind === 'scheduler.task_failed'
  )
}

/** Names an object inherits: each must behave as any unknown id. */
export const PROTOTYPE_NAMES: readonly string[] = [...Object.getOwnPropertyNames(Object.prototype), 'prototype', '__proto__']

interface Fixtures {
  readonly sim: Simulator
  readonly secret: string
  readonly live: string
  readonly publishable: string
  readonly session: string
  readonly expiredSession: string
  readonly ids: Readonly<Record<string, readonly string[]>>
  readonly eventName: string
  readonly connected: string
}

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>
}

/** A fresh simulator with one object of each kind, so generated ids sometimes name real objects. */
async function prepare(seed: number, limited: boolean): Promise<Fixtures> {
  const sim = createSimulator({ seed, traceLimit: 64, ...(limited ? {} : { limits: false }) })
  const secret = sim.platform.secretKey.test
  const auth = { Authorization: `Bearer ${secret}` }
  const form = (path: string, body: string) =>
    sim.fetch(`${API}${path}`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    })
  const post2 = (path: string, body: unknown) =>
    sim.fetch(`${API}${path}`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  const expired = String((await json(await post2('/v2/billing/meter_event_session', {}))).authentication_token)
  await sim.clock.tickAsync(16 * 60_000)
  const session = String((await json(await post2('/v2/billing/meter_event_session', {}))).authentication_token)
  const cus = String((await json(await form('/v1/customers', 'email=a%40b.c&payment_method=pm_card_visa'))).id)
  const pi = await json(
    await form('/v1/payment_intents', `amount=2000&currency=usd&customer=${cus}&payment_method=pm_card_visa&confirm=true`),
  )
  const pi2 = String((await json(await form('/v1/payment_intents', 'amount=1500&currency=eur'))).id)
  const pm = String(pi.payment_method)
  const ch = String(pi.latest_charge)
  const prod = String((await json(await form('/v1/products', 'name=Widget'))).id)
  const eventName = 'api_requests'
  const meter = String(
    (
      await json(
        await form(
          '/v1/billing/meters',
          `display_name=API&event_name=${eventName}&default_aggregation[formula]=sum&customer_mapping[event_payload_key]=service_customer_id&customer_mapping[type]=by_id&value_settings[event_payload_key]=value`,
        ),
      )
    ).id,
  )
  const dest = String(
    (
      await json(
        await post2('/v2/core/event_destinations', {
          name: 'd',
          type: 'webhook_endpoint',
          event_payload: 'snapshot',
          enabled_events: ['customer.created'],
          webhook_endpoint: { url: 'https://hooks.example.test/w' },
        }),
      )
    ).id,
  )
  const osp = String(
    (
      await json(
        await post2('/v2/payments/off_session_payments', {
          amount: { value: 1000, currency: 'usd' },
          cadence: 'unscheduled',
          customer: cus,
          payment_method: pm,
        }),
      )
    ).id,
  )
  const evt = String(
    ((await json(await sim.fetch(`${API}/v1/events?limit=1`, { headers: auth }))).data as { id: string }[])[0]?.id,
  )
  const v2evt = String(
    ((await json(await sim.fetch(`${API}/v2/core/events?limit=1`, { headers: auth }))).data as { id: string }[])[0]?.id,
  )
  const txn = String(
    ((await json(await sim.fetch(`${API}/v1/balance_transactions?limit=1`, { headers: auth }))).data as { id: string }[])[0]?.id,
  )
  const connected = sim.admin.createAccount({ email: 'c@example.test' }).id
  // The engine checks that a parameter naming an object names one that exists, so the generator
  // needs real objects of the kinds the engine's routes name, as a user's test suite would have.
  const made = async (path: string, body: string) => {
    const answer = await json(await form(path, body))
    return typeof answer.id === 'string' ? [answer.id] : []
  }
  const price = await made('/v1/prices', `product=${prod}&unit_amount=500&currency=usd&recurring[interval]=month`)
  const coupon = await made('/v1/coupons', 'percent_off=10&duration=once')
  const plan = await made('/v1/plans', `product=${prod}&amount=700&currency=usd&interval=month`)
  const subscription = await made('/v1/subscriptions', `customer=${cus}&items[0][price]=${price[0] ?? ''}`)
  const invoice = await made('/v1/invoices', `customer=${cus}`)
  const setupIntent = await made('/v1/setup_intents', `customer=${cus}&payment_method=pm_card_visa`)
  const taxRate = await made('/v1/tax_rates', 'display_name=VAT&percentage=20&inclusive=false')
  const webhookEndpoint = await made('/v1/webhook_endpoints', 'url=https%3A%2F%2Fhooks.example.test%2Fv1&enabled_events[0]=*')
  const shippingRate = await made(
    '/v1/shipping_rates',
    'display_name=Post&type=fixed_amount&fixed_amount[amount]=500&fixed_amount[currency]=usd',
  )
  const refund = await made('/v1/refunds', `charge=${ch}&amount=100`)
  await sim.settle()
  return {
    sim,
    secret,
    live: sim.platform.secretKey.live,
    publishable: sim.platform.publishableKey.test,
    session,
    expiredSession: expired,
    eventName,
    connected,
    ids: {
      customers: [cus],
      payment_intents: [String(pi.id), pi2],
      payment_methods: [pm],
      charges: [ch],
      products: [prod],
      meters: [meter],
      event_destinations: [dest],
      off_session_payments: [osp],
      events: [evt, v2evt],
      balance_transactions: [txn],
      accounts: [connected],
      prices: price,
      coupons: coupon,
      plans: plan,
      subscriptions: subscription,
      invoices: invoice,
      setup_intents: setupIntent,
      tax_rates: taxRate,
      webhook_endpoints: webhookEndpoint,
      shipping_rates: shippingRate,
      refunds: refund,
    },
  }
}

function pick<T>(r: RandomStream, items: readonly T[]): T {
  return items[r.int(items.length)] as T
}

const STRANGE = [
  '',
  ' ',
  '☃',
  'k-☃',
  '\u0000',
  '\ud800',
  '𝕏',
  '%',
  '%E0%A4%A',
  '../../etc',
  'a'.repeat(300),
  '1e400',
  '-1',
  '0',
  'null',
  'true',
  '[]',
  '{}',
  '\t',
  '\u2028',
  'DROP TABLE',
]

function hostileString(r: RandomStream): string {
  const n = r.int(10)
  if (n < 3) return pick(r, PROTOTYPE_NAMES)
  if (n < 6) return pick(r, STRANGE)
  if (n < 7) return 'x'.repeat(r.chance(0.5) ? 5001 : 40_000)
  if (n < 8) return `cus_${r.int(1e6)}`
  return String.fromCharCode(...Array.from({ length: 1 + r.int(12) }, () => r.int(0x3000)))
}

/** Field names of a route's schema (zod object shapes), or a few common ones. */
/** Fields hostile values go into (routes declare no schemas of their own: the catalogue checks every operation). */
const FIELDS = ['customer', 'payment_method', 'amount', 'currency', 'metadata']

function validFor(field: string, f: Fixtures, r: RandomStream): unknown {
  switch (field) {
    case 'customer':
      return pick(r, f.ids.customers ?? [])
    case 'payment_method':
      return pick(r, [
        ...(f.ids.payment_methods ?? []),
        'pm_card_visa',
        'pm_card_chargeDeclined',
        'pm_card_authenticationRequired',
      ])
    case 'currency':
      return pick(r, ['usd', 'eur', 'USD', 'jpy'])
    case 'amount':
      return pick(r, ['2000', 2000, { value: 1000, currency: 'usd' }])
    case 'product':
      return pick(r, f.ids.products ?? [])
    case 'price':
      return pick(r, f.ids.prices ?? [])
    case 'coupon':
      return pick(r, f.ids.coupons ?? [])
    case 'event_name':
      return f.eventName
    case 'payload':
      return { service_customer_id: pick(r, f.ids.customers ?? []), value: pick(r, ['3', 3, '-1']) }
    case 'metadata':
      return { [pick(r, ['plan', ...PROTOTYPE_NAMES])]: pick(r, ['pro', '']) }
    case 'email':
      return 'a@b.c'
    case 'name':
    case 'display_name':
      return 'N'
    case 'cadence':
      return 'unscheduled'
    default:
      return hostileString(r)
  }
}

function hostileValue(field: string, f: Fixtures, r: RandomStream, depth = 0): unknown {
  const n = r.int(12)
  if (n < 4) return validFor(field, f, r)
  if (n < 8) return hostileString(r)
  if (n < 9 && depth < 3) return { [pick(r, ['a', ...PROTOTYPE_NAMES])]: hostileValue(field, f, r, depth + 1) }
  if (n < 10) return [hostileString(r), r.int(5)]
  return pick(r, [null, true, 1e308, -0, 3.5, Number.MAX_SAFE_INTEGER + 2])
}

/** `encodeURIComponent`, but a lone surrogate becomes the bytes a sloppy client would send. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    return text.replace(/[\ud800-\udfff]/g, '%ED%A0%80').replace(/[^%A-Za-z0-9]/g, (c) => {
      try {
        return encodeURIComponent(c)
      } catch {
        return '%ED%A0%80'
      }
    })
  }
}

function formEncode(value: unknown, prefix: string, out: string[]): void {
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) formEncode(v, prefix === '' ? k : `${prefix}[${k}]`, out)
    return
  }
  out.push(`${encode(prefix)}=${encode(String(value))}`)
}

function deepJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
}

function hostileBody(style: 'v1' | 'v2', fields: readonly string[], f: Fixtures, r: RandomStream): string | undefined {
  const n = r.int(20)
  if (n === 0) return undefined
  if (n === 1)
    return style === 'v2' ? deepJson(pick(r, [33, 500, 5000, 20_000])) : `${'a'}${'[b]'.repeat(pick(r, [9, 50, 2000]))}=1`
  if (n === 2) return pick(r, ['{', '[]', '"x"', 'null', '{"a":1}{', '\u0000', 'a=%E0%A4%A', '=&=&', '&&&'])
  if (n === 3)
    return style === 'v2'
      ? `{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}}}`
      : '__proto__[x]=1&constructor[prototype][y]=2'
  if (n === 4) return 'x'.repeat(pick(r, [6000, 1024 * 1024 + 1]))
  const body: Record<string, unknown> = {}
  const count = 1 + r.int(Math.max(1, fields.length))
  for (let i = 0; i < count; i++) {
    const field = r.chance(0.9) ? pick(r, fields) : pick(r, PROTOTYPE_NAMES)
    body[field] = hostileValue(field, f, r)
  }
  // Use the wrong encoding now and then: JSON to /v1, a form to /v2.
  const encoding = r.chance(0.1) ? (style === 'v1' ? 'v2' : 'v1') : style
  if (encoding === 'v2') return JSON.stringify(body)
  const out: string[] = []
  formEncode(body, '', out)
  return out.join('&')
}

function hostileAuth(f: Fixtures, style: 'v1' | 'v2', session: boolean, r: RandomStream): string | undefined {
  const n = r.int(16)
  if (n < 6) return `Bearer ${session ? f.session : f.secret}`
  if (n === 6) return undefined
  if (n === 7) return `Basic ${Buffer.from(`${f.secret}:`).toString('base64')}`
  if (n === 8) return `Token ${f.secret}`
  if (n === 9) return `Bearer ${f.publishable}`
  if (n === 10) return `Bearer ${f.live}`
  if (n === 11) return `Bearer ${f.expiredSession}`
  if (n === 12) return `Bearer ${session ? f.secret : f.session}`
  if (n === 13) return `Bearer ${hostileString(r)}`
  if (n === 14)
    return pick(r, ['Bearer', 'Bearer  ', 'Basic !!!', `Basic ${Buffer.from('☃:x').toString('base64')}`, 'bearer sk_test_'])
  return style === 'v1' ? `Basic ${Buffer.from(`${f.live}:`).toString('base64')}` : `Bearer ${'sk_test_'.padEnd(9000, 'z')}`
}

const ROUTE_OBJECTS: readonly [string, string][] = [
  ['/v1/accounts', 'accounts'],
  ['/v1/customers', 'customers'],
  ['/v1/payment_intents', 'payment_intents'],
  ['/v1/payment_methods', 'payment_methods'],
  ['/v1/charges', 'charges'],
  ['/v1/products', 'products'],
  ['/v1/events', 'events'],
  ['/v1/balance_transactions', 'balance_transactions'],
  ['/v1/billing/meters', 'meters'],
  ['/v2/core/event_destinations', 'event_destinations'],
  ['/v2/payments/off_session_payments', 'off_session_payments'],
  ['/v2/core/events', 'events'],
  ['/v1/prices', 'prices'],
  ['/v1/coupons', 'coupons'],
  ['/v1/plans', 'plans'],
  ['/v1/subscriptions', 'subscriptions'],
  ['/v1/invoices', 'invoices'],
  ['/v1/setup_intents', 'setup_intents'],
  ['/v1/tax_rates', 'tax_rates'],
  ['/v1/webhook_endpoints', 'webhook_endpoints'],
  ['/v1/shipping_rates', 'shipping_rates'],
  ['/v1/refunds', 'refunds'],
]

function pathId(path: string, f: Fixtures, r: RandomStream): string {
  const n = r.int(10)
  if (n < 4) {
    const kind = ROUTE_OBJECTS.find(([p]) => path.startsWith(p))?.[1]
    const ids = kind === undefined ? undefined : f.ids[kind]
    if (ids !== undefined && ids.length > 0) return pick(r, ids)
  }
  if (n < 7) return encode(pick(r, PROTOTYPE_NAMES))
  return pick(r, [encode(hostileString(r)), '%2F', '%00', '..', '%', '%ZZ', 'x'.repeat(3000)])
}

/** Bodies each route accepts, so a one-flaw request reaches the lookups behind validation. */
function validBodies(f: Fixtures, r: RandomStream): Record<string, Record<string, unknown>> {
  const cus = pick(r, f.ids.customers ?? [])
  return {
    'POST /v1/customers': { email: 'a@b.c', payment_method: 'pm_card_visa' },
    'POST /v1/customers/:id': {
      metadata: { plan: 'pro' },
      invoice_settings: { default_payment_method: pick(r, f.ids.payment_methods ?? []) },
    },
    'POST /v1/payment_intents': {
      amount: '2000',
      currency: 'usd',
      customer: cus,
      payment_method: 'pm_card_visa',
      confirm: 'true',
    },
    'POST /v1/payment_intents/:id': { amount: '2100', currency: 'usd', customer: cus },
    'POST /v1/payment_intents/:id/confirm': { payment_method: 'pm_card_visa', off_session: 'true' },
    'POST /v1/payment_methods/:id/attach': { customer: cus },
    'POST /v1/payment_methods/:id': { metadata: { plan: 'pro' } },
    'POST /v1/payment_intents/:id/cancel': { cancellation_reason: 'abandoned' },
    'POST /v1/charges/:id': { description: 'd', metadata: { plan: 'pro' } },
    'POST /v1/products': { name: 'W' },
    'POST /v1/prices': { product: pick(r, f.ids.products ?? []), unit_amount: '500', currency: 'usd' },
    'POST /v1/plans': { product: pick(r, f.ids.products ?? []), amount: '700', currency: 'usd', interval: 'month' },
    'POST /v1/subscriptions': { customer: cus, items: [{ price: pick(r, f.ids.prices ?? []) }] },
    'POST /v1/invoices': { customer: cus },
    'POST /v1/invoiceitems': { customer: cus, amount: '300', currency: 'usd' },
    'POST /v1/setup_intents': { customer: cus, payment_method: 'pm_card_visa' },
    'POST /v1/coupons': { percent_off: '10', duration: 'once' },
    'POST /v1/products/:id': { name: 'V' },
    'POST /v1/billing/meters': {
      display_name: 'M',
      event_name: `m_${r.int(1000)}`,
      default_aggregation: { formula: 'sum' },
      customer_mapping: { event_payload_key: 'service_customer_id', type: 'by_id' },
      value_settings: { event_payload_key: 'value' },
    },
    'POST /v2/billing/meter_events': { event_name: f.eventName, payload: { service_customer_id: cus, value: '3' } },
    'POST /v2/billing/meter_event_stream': {
      events: [{ event_name: f.eventName, payload: { service_customer_id: cus, value: '1' } }],
    },
    'POST /v2/payments/off_session_payments': {
      amount: { value: 1000, currency: 'usd' },
      cadence: 'unscheduled',
      customer: cus,
      payment_method: pick(r, f.ids.payment_methods ?? []),
    },
    'POST /v2/core/event_destinations': {
      name: 'd',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['customer.created'],
      webhook_endpoint: { url: 'https://hooks.example.test/w' },
    },
    'POST /v1/events/:id/retry': { webhook_endpoint: pick(r, f.ids.event_destinations ?? []) },
  }
}

/** Replaces one leaf of a body (or adds one field) with a hostile value. */
function oneFlaw(body: Record<string, unknown>, r: RandomStream): Record<string, unknown> {
  const copy = structuredClone(body)
  const keys = Object.keys(copy)
  if (keys.length === 0 || r.chance(0.15)) {
    copy[pick(r, PROTOTYPE_NAMES)] = hostileString(r)
    return copy
  }
  let target: Record<string, unknown> = copy
  let key = pick(r, keys)
  while (target[key] !== null && typeof target[key] === 'object' && !Array.isArray(target[key]) && r.chance(0.7)) {
    const inner = target[key] as Record<string, unknown>
    const innerKeys = Object.keys(inner)
    if (innerKeys.length === 0) break
    target = inner
    key = pick(r, innerKeys)
  }
  target[key] = r.chance(0.6) ? pick(r, PROTOTYPE_NAMES) : hostileString(r)
  return copy
}

/** One generated request: `fetch` arguments, and whether fetch itself would refuse them. */
export interface HostileRequest {
  readonly url: string
  readonly init: RequestInit
}

/**
 * Generates one hostile request for a prepared simulator: a route of the table (or none), a host,
 * an auth, prefix headers and a body chosen to be wrong in one or several ways.
 *
 * @example
 * const request = hostileRequest(fixtures, createRng(1).stream('hostile'))
 */
function hostileRequest(f: Fixtures, r: RandomStream): HostileRequest {
  // Mostly the routes that serve something (the operations that answer 501 whatever they are sent
  // skip the params check): they are where hostile input can do harm; the rest now and then.
  const route = r.chance(0.6) ? pick(r, handWritten) : r.chance(0.75) ? pick(r, served) : pick(r, routes)
  const style = route.path.startsWith('/v2/') ? 'v2' : 'v1'
  let path = route.path.replace(/:([A-Za-z_]+)/g, () => pathId(route.path, f, r))
  if (r.chance(0.03)) path = pick(r, ['/v1/nothing', '/v3/x', '/', '/v1/customers/a/b/c', '//v1//balance'])
  const method = r.chance(0.05)
    ? pick(r, ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD', 'get', 'B@D'])
    : route.method
  let host = path.includes('meter_event') ? pick(r, [METER_HOST, METER_HOST, API]) : pick(r, [API, API, API, METER_HOST])
  if (r.chance(0.01)) host = pick(r, ['http://[bad-host', 'https://api.service.test:99999', 'ftp://x', 'not a url ::'])
  let query = ''
  if (route.method === 'GET' && r.chance(0.5)) {
    const out: string[] = []
    for (const field of FIELDS.slice(0, 1 + r.int(3))) formEncode({ [field]: hostileValue(field, f, r) }, '', out)
    if (r.chance(0.1))
      out.push(pick(r, ['__proto__[x]=1', 'constructor=1', `a${'[b]'.repeat(40)}=1`, 'limit=1e400', 'expand[]=☃']))
    query = `?${out.join('&')}`
  }
  const headers: [string, string][] = []
  const valid = validBodies(f, r)[`${route.method} ${route.path}`]
  const flawMode = valid !== undefined && method === route.method && r.chance(0.5)
  const auth =
    flawMode && r.chance(0.8)
      ? `Bearer ${route.auth === 'session' ? f.session : f.secret}`
      : hostileAuth(f, style, route.auth === 'session', r)
  if (auth !== undefined) headers.push(['Authorization', auth])
  if (r.chance(0.15)) headers.push(['Service-Account', pick(r, [f.connected, f.connected, hostileString(r), 'acct_☃'])])
  if (r.chance(0.15)) headers.push(['Service-Version', pick(r, ['2026-10-28.endive', '2026-13-45.x', hostileString(r), '☃'])])
  if (r.chance(0.1)) headers.push(['Service-Context', pick(r, [f.connected, hostileString(r)])])
  if (r.chance(0.25)) {
    headers.push([
      'Idempotency-Key',
      pick(r, [`k-${r.int(50)}`, 'k-☃', 'x'.repeat(300), '', 'a\nb', 'k-\u0080', hostileString(r)]),
    ])
  }
  let body: string | undefined
  if (flawMode && valid !== undefined) {
    // One flaw (or none) on an otherwise good request: this is what reaches the domain's lookups.
    const flawed = r.chance(0.85) ? oneFlaw(valid, r) : valid
    if (style === 'v2') body = JSON.stringify(flawed)
    else {
      const out: string[] = []
      formEncode(flawed, '', out)
      body = out.join('&')
    }
  } else body = method === 'GET' && r.chance(0.9) ? undefined : hostileBody(style, FIELDS, f, r)
  if (body !== undefined && r.chance(0.9)) {
    const right = style === 'v1' ? 'application/x-www-form-urlencoded' : 'application/json'
    headers.push([
      'Content-Type',
      r.chance(0.8)
        ? right
        : pick(r, ['text/plain', 'multipart/form-data', 'application/json; charset=utf-8', '☃', 'application/xml']),
    ])
  }
  if (r.chance(0.03)) headers.push([pick(r, ['X-☃', 'bad header', '__proto__', 'constructor']), pick(r, ['1', '\r\nx: y'])])
  const shape = r.int(10)
  const init: RequestInit = {
    method,
    // Pairs and Headers go through fetch's own checks; plain objects through the fast path.
    headers: shape < 7 ? Object.fromEntries(headers) : headers,
  }
  if (body !== undefined) init.body = r.chance(0.95) ? body : new TextEncoder().encode(body)
  return { url: `${host}${path}${query}`, init }
}

type Settled = { kind: 'answer'; res: Response } | { kind: 'throw'; error: unknown } | { kind: 'hang' }

async function bounded(work: () => Promise<Response>, timeoutMs: number): Promise<Settled> {
  let timer: ReturnType<typeof realSetTimeout> | undefined
  const hang = new Promise<Settled>((resolve) => {
    timer = realSetTimeout(() => resolve({ kind: 'hang' }), timeoutMs)
  })
  const attempt = work().then(
    (res): Settled => ({ kind: 'answer', res }),
    (error: unknown): Settled => ({ kind: 'throw', error }),
  )
  try {
    return await Promise.race([attempt, hang])
  } finally {
    realClearTimeout(timer)
  }
}

/** Options of {@link runHostile}. */
export interface HostileOptions {
  readonly seed: number
  readonly count: number
  /** Real milliseconds a request may take before it counts as a hang. Default 5000. */
  readonly timeoutMs?: number
  /** Requests per simulator before a fresh one is prepared (keeps lists short). Default 2000. */
  readonly batch?: number
  /** Called with the figures so far after each batch. */
  readonly progress?: (figures: HostileFigures) => void
  /** Called with a description of each failure (not of fetch's own TypeErrors). */
  readonly onFailure?: (what: string, request: HostileRequest, detail: string) => void
}

/**
 * Sends `count` hostile requests generated from `seed`, checking after each that a plain
 * `GET /v1/balance` still answers 200, and after each batch that settling and running the clock to
 * its last timer throws nothing.
 *
 * @example
 * const figures = await runHostile({ seed: 1, count: 1000 })
 * figures.hangs // 0
 */
export async function runHostile(options: HostileOptions): Promise<HostileFigures> {
  const timeoutMs = options.timeoutMs ?? 5000
  const batch = options.batch ?? 2000
  const started = performance.now()
  const figures: HostileFigures = {
    requests: 0,
    hangs: 0,
    serverErrors: 0,
    throws: 0,
    fetchTypeErrors: 0,
    stateChangesOn4xx: 0,
    throwsAfterCommit: 0,
    internalFailures: 0,
    balanceFailures: 0,
    statuses: {},
    ms: 0,
  }
  const rng = createRng(options.seed)
  const fail = options.onFailure ?? (() => {})
  let round = 0
  while (figures.requests < options.count) {
    // Every other simulator runs with the default limits, its clock a second on between requests
    // so the limits refuse only what they would refuse at a sane pace; the others without limits.
    const limited = round % 2 === 1
    const f = await prepare(options.seed * 1000 + round++, limited)
    const r = rng.stream(`hostile-${round}`)
    let commits = 0
    let internal = 0
    const unsubscribe = f.sim.trace.subscribe((entry) => {
      if (isCommit(entry.kind)) commits++
      if (entry.kind === 'http.internal_error' || entry.kind === 'scheduler.task_failed') {
        internal++
        fail(entry.kind, { url: '', init: {} }, JSON.stringify(entry.data))
      }
    })
    const balance = { headers: { Authorization: `Bearer ${f.secret}` } }
    let stuck = false
    const end = Math.min(options.count, figures.requests + batch)
    while (figures.requests < end && !stuck) {
      const request = hostileRequest(f, r)
      figures.requests++
      if (limited) await f.sim.clock.tickAsync(1000)
      commits = 0
      const settled = await bounded(() => f.sim.fetch(request.url, request.init), timeoutMs)
      const committed = commits
      if (settled.kind === 'hang') {
        figures.hangs++
        fail('hang', request, '')
        stuck = true
        break
      }
      if (settled.kind === 'throw') {
        if (settled.error instanceof TypeError) figures.fetchTypeErrors++
        else {
          figures.throws++
          fail('throw', request, String(settled.error))
        }
        if (committed > 0) {
          figures.throwsAfterCommit++
          fail('throw after commit', request, String(settled.error))
        }
      } else {
        const { status } = settled.res
        const text = await settled.res.text()
        const klass = `${Math.floor(status / 100)}xx`
        figures.statuses[klass] = (figures.statuses[klass] ?? 0) + 1
        // 501 `not_implemented` is the designed answer of an operation nobody serves yet (it names
        // the operation and changes nothing); any other 5xx is a simulator failure.
        const notImplemented = status === 501 && text.includes('"code":"not_implemented"')
        if (status >= 500 && !notImplemented) {
          figures.serverErrors++
          fail('5xx', request, text.slice(0, 300))
        }
        if (notImplemented && committed > 0) {
          figures.stateChangesOn4xx++
          fail('state change on 501', request, text.slice(0, 300))
        }
        if (status >= 400 && status < 500 && committed > 0 && status !== 402 && !text.includes('"card_error"')) {
          figures.stateChangesOn4xx++
          fail('state change on 4xx', request, text.slice(0, 300))
        }
      }
      const check = await bounded(() => f.sim.fetch(`${API}/v1/balance`, balance), timeoutMs)
      if (check.kind !== 'answer' || check.res.status !== 200) {
        figures.balanceFailures++
        if (check.kind === 'hang') figures.hangs++
        fail('balance', request, check.kind === 'answer' ? `${check.res.status} ${await check.res.text()}` : check.kind)
        stuck = check.kind === 'hang'
      } else await check.res.arrayBuffer()
    }
    if (!stuck) {
      for (const step of [() => f.sim.settle(), () => f.sim.clock.runToLastAsync()]) {
        try {
          const done = await Promise.race([
            Promise.resolve(step()).then(() => true),
            new Promise<boolean>((resolve) => realSetTimeout(() => resolve(false), timeoutMs * 4)),
          ])
          if (!done) {
            figures.hangs++
            fail('hang in background work', { url: '', init: {} }, '')
          }
        } catch (error) {
          internal++
          fail('background throw', { url: '', init: {} }, String(error))
        }
      }
    }
    unsubscribe()
    figures.internalFailures += internal
    options.progress?.({ ...figures, ms: performance.now() - started })
  }
  figures.ms = performance.now() - started
  return figures
}
