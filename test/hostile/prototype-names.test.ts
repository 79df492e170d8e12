import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { PROTOTYPE_NAMES } from './hostile-requests.js'

const API = 'https://api.service.test'

/** Kinds of trace entries that record no state change. */
const QUIET = new Set(['http', 'http.replayed', 'limit.refused'])

async function prepare() {
  const sim = createSimulator({ seed: 21, limits: false })
  const auth = { Authorization: `Bearer ${sim.platform.secretKey.test}` }
  const call = async (method: string, path: string, body?: unknown) => {
    const v2 = path.startsWith('/v2/')
    const init: RequestInit = {
      method,
      headers: { ...auth, 'Content-Type': v2 ? 'application/json' : 'application/x-www-form-urlencoded' },
    }
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body)
    return sim.fetch(`${API}${path}`, init)
  }
  const data = async (res: Response) => (await res.json()) as Record<string, any>
  const cus = (await data(await call('POST', '/v1/customers', 'email=a%40b.c&payment_method=pm_card_visa'))).id as string
  const pi = await data(
    await call('POST', '/v1/payment_intents', `amount=2000&currency=usd&customer=${cus}&payment_method=pm_card_visa`),
  )
  const pm = (
    await data(
      await call(
        'POST',
        '/v1/payment_intents',
        `amount=2000&currency=usd&customer=${cus}&payment_method=pm_card_visa&confirm=true`,
      ),
    )
  ).payment_method as string
  await call(
    'POST',
    '/v1/billing/meters',
    'display_name=API&event_name=api_requests&default_aggregation[formula]=sum&customer_mapping[event_payload_key]=service_customer_id&customer_mapping[type]=by_id&value_settings[event_payload_key]=value',
  )
  const dest = (
    await data(
      await call('POST', '/v2/core/event_destinations', {
        name: 'd',
        type: 'webhook_endpoint',
        event_payload: 'snapshot',
        enabled_events: ['customer.created'],
        webhook_endpoint: { url: 'https://hooks.example.test/w' },
      }),
    )
  ).id as string
  const evt = ((await data(await call('GET', '/v1/events?limit=1'))).data[0] as { id: string }).id
  await sim.settle()
  return { sim, call, cus, pi: pi.id as string, pm, dest, evt }
}

type Fixture = Awaited<ReturnType<typeof prepare>>

/** Every id-taking parameter of every route, with the name `n` in it: method, path, body. */
function cases(f: Fixture, n: string): [string, string, unknown?][] {
  const e = encodeURIComponent(n)
  const form = (o: Record<string, string>) => new URLSearchParams(o).toString()
  return [
    ['GET', `/v1/accounts/${e}`],
    ['POST', `/v1/accounts/${e}`, form({ email: 'x@y.z' })],
    ['GET', `/v1/customers/${e}`],
    ['POST', `/v1/customers/${e}`, form({ name: 'x' })],
    ['DELETE', `/v1/customers/${e}`],
    ['POST', '/v1/customers', form({ email: 'a@b.c', payment_method: n })],
    ['POST', `/v1/customers/${f.cus}`, form({ 'invoice_settings[default_payment_method]': n })],
    ['GET', `/v1/payment_intents/${e}`],
    ['POST', `/v1/payment_intents/${e}`, form({ amount: '100' })],
    ['POST', `/v1/payment_intents/${e}/confirm`, form({ payment_method: 'pm_card_visa' })],
    ['POST', `/v1/payment_intents/${e}/capture`, ''],
    ['POST', `/v1/payment_intents/${e}/cancel`, ''],
    ['POST', '/v1/payment_intents', form({ amount: '2000', currency: 'usd', customer: n })],
    ['POST', '/v1/payment_intents', form({ amount: '2000', currency: 'usd', payment_method: n, confirm: 'true' })],
    ['POST', '/v1/payment_intents', form({ amount: '2000', currency: n })],
    ['POST', `/v1/payment_intents/${f.pi}`, form({ customer: n })],
    ['POST', `/v1/payment_intents/${f.pi}`, form({ payment_method: n })],
    ['POST', `/v1/payment_intents/${f.pi}`, form({ currency: n })],
    ['POST', `/v1/payment_intents/${f.pi}/confirm`, form({ payment_method: n })],
    ['GET', `/v1/payment_methods/${e}`],
    ['POST', `/v1/payment_methods/${e}/attach`, form({ customer: f.cus })],
    ['POST', `/v1/payment_methods/${f.pm}/attach`, form({ customer: n })],
    ['POST', `/v1/payment_methods/${e}/detach`, ''],
    ['GET', `/v1/charges/${e}`],
    ['GET', `/v1/balance_transactions/${e}`],
    ['GET', `/v1/products/${e}`],
    ['POST', `/v1/products/${e}`, form({ name: 'x' })],
    ['GET', `/v1/events/${e}`],
    ['POST', `/v1/events/${e}/retry`, form({ webhook_endpoint: f.dest })],
    ['POST', `/v1/events/${f.evt}/retry`, form({ webhook_endpoint: n })],
    ['GET', `/v1/billing/meters/${e}`],
    ['POST', `/v1/billing/meters/${e}`, form({ display_name: 'x' })],
    ['POST', `/v1/billing/meters/${e}/deactivate`, ''],
    ['POST', `/v1/billing/meters/${e}/reactivate`, ''],
    ['GET', `/v1/billing/meters/${e}/event_summaries?customer=${f.cus}&start_time=1&end_time=2`],
    ['POST', '/v2/billing/meter_events', { event_name: n, payload: { service_customer_id: f.cus, value: '1' } }],
    [
      'POST',
      '/v2/payments/off_session_payments',
      { amount: { value: 1000, currency: 'usd' }, cadence: 'unscheduled', customer: n, payment_method: f.pm },
    ],
    [
      'POST',
      '/v2/payments/off_session_payments',
      { amount: { value: 1000, currency: 'usd' }, cadence: 'unscheduled', customer: f.cus, payment_method: n },
    ],
    [
      'POST',
      '/v2/payments/off_session_payments',
      { amount: { value: 1000, currency: n }, cadence: 'unscheduled', customer: f.cus, payment_method: f.pm },
    ],
    ['GET', `/v2/payments/off_session_payments/${e}`],
    ['POST', `/v2/payments/off_session_payments/${e}/cancel`, {}],
    ['GET', `/v2/core/event_destinations/${e}`],
    ['POST', `/v2/core/event_destinations/${e}`, { name: 'x' }],
    ['DELETE', `/v2/core/event_destinations/${e}`],
    ['POST', `/v2/core/event_destinations/${e}/enable`, {}],
    ['POST', `/v2/core/event_destinations/${e}/disable`, {}],
    ['POST', `/v2/core/event_destinations/${e}/ping`, {}],
    ['POST', `/v2/core/event_destinations/${e}/roll_secret`, {}],
    ['GET', `/v2/core/events/${e}`],
  ]
}

describe('names an object inherits', () => {
  it('refuses every prototype name given as an id, with a 4xx in the envelope and no change', async () => {
    const f = await prepare()
    let commits: string[] = []
    f.sim.trace.subscribe((entry) => {
      if (!QUIET.has(entry.kind)) commits.push(entry.kind)
    })
    const failures: string[] = []
    for (const n of PROTOTYPE_NAMES) {
      for (const [method, path, body] of cases(f, n)) {
        commits = []
        const res = await f.sim.fetch(`${API}${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${f.sim.platform.secretKey.test}`,
            'Content-Type': path.startsWith('/v2/') ? 'application/json' : 'application/x-www-form-urlencoded',
          },
          ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
        })
        const text = await res.text()
        const enveloped = (JSON.parse(text) as { error?: { type?: string } }).error?.type !== undefined
        if (res.status < 400 || res.status >= 500 || !enveloped || commits.length > 0) {
          failures.push(
            `${n}: ${method} ${path} ${JSON.stringify(body ?? '')} -> ${res.status} ${commits.join(',')} ${text.slice(0, 160)}`,
          )
        }
      }
    }
    expect(failures).toEqual([])
    await f.sim.settle()
    await f.sim.clock.runToLastAsync()
    expect(f.sim.trace.filter('http.internal_error')).toEqual([])
    expect(f.sim.trace.filter('scheduler.task_failed')).toEqual([])
  }, 60_000)

  it('lists nothing for a prototype name given as a filter', async () => {
    const f = await prepare()
    for (const n of PROTOTYPE_NAMES) {
      const e = encodeURIComponent(n)
      for (const path of [
        `/v1/payment_intents?customer=${e}`,
        `/v1/charges?customer=${e}&payment_intent=${e}`,
        `/v1/balance_transactions?source=${e}`,
        `/v1/events?type=${e}`,
        `/v2/core/events?object_id=${e}`,
      ]) {
        const res = await f.call('GET', path)
        expect(res.status, `${path}`).toBeLessThan(500)
        if (res.status === 200) expect(((await res.json()) as { data: unknown[] }).data, path).toEqual([])
      }
    }
  })
})
