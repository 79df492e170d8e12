import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'

const T0 = Date.UTC(2026, 0, 31)
const FEB28 = Date.UTC(2026, 1, 28)
const MAR31 = Date.UTC(2026, 2, 31)
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

function call(sim: Simulator, method: string, path: string, fields?: Record<string, string>, token?: string) {
  return sim.fetch(`https://api.service.test${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token ?? sim.platform.secretKey.test}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    ...(fields === undefined ? {} : { body: new URLSearchParams(fields).toString() }),
  })
}

function json(sim: Simulator, path: string, body: unknown, token?: string, host = 'api') {
  return sim.fetch(`https://${host}.service.test${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token ?? sim.platform.secretKey.test}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}

async function answer(res: Response | Promise<Response>): Promise<string> {
  const r = await res
  return `${r.status} ${await r.text()}`
}

async function id(res: Promise<Response>): Promise<string> {
  const r = await res
  const body = (await r.json()) as { id?: string; authentication_token?: string }
  expect(r.status, JSON.stringify(body)).toBe(200)
  return String(body.authentication_token ?? body.id)
}

const advance = (sim: Simulator, until: number) => sim.service.kernel.scheduler.advance(until)

interface Ctx {
  customer: string
  clockCustomer: string
  sub: string
  clockSub: string
  clock: string
  token: string
}

/** Usage, a metered and a licensed price, a subscription, and a second one on a test clock. */
async function setUp(): Promise<{ sim: Simulator; ctx: Ctx }> {
  const sim = createSimulator({ seed: 31, limits: false, start: new Date(T0).toISOString() })
  const payer = async (extra: Record<string, string> = {}) => {
    const customer = await id(call(sim, 'POST', '/v1/customers', { email: 'a@example.com', ...extra }))
    const pm = await id(call(sim, 'POST', '/v1/payment_methods/pm_card_visa/attach', { customer }))
    await call(sim, 'POST', `/v1/customers/${customer}`, { 'invoice_settings[default_payment_method]': pm })
    return customer
  }
  const customer = await payer()
  const meter = await id(
    call(sim, 'POST', '/v1/billing/meters', {
      event_name: 'api_call',
      display_name: 'Calls',
      'default_aggregation[formula]': 'sum',
    }),
  )
  const product = await id(call(sim, 'POST', '/v1/products', { name: 'API' }))
  const metered = await id(
    call(sim, 'POST', '/v1/prices', {
      product,
      currency: 'usd',
      unit_amount: '3',
      'recurring[interval]': 'month',
      'recurring[usage_type]': 'metered',
      'recurring[meter]': meter,
    }),
  )
  const seat = await id(
    call(sim, 'POST', '/v1/prices', { product, currency: 'usd', unit_amount: '1000', 'recurring[interval]': 'month' }),
  )
  const sub = await id(
    call(sim, 'POST', '/v1/subscriptions', {
      customer,
      'items[0][price]': metered,
      'items[1][price]': seat,
      'items[1][quantity]': '2',
    }),
  )
  const clock = await id(call(sim, 'POST', '/v1/test_helpers/test_clocks', { frozen_time: String(T0 / 1000) }))
  const clockCustomer = await payer({ test_clock: clock })
  const clockSub = await id(
    call(sim, 'POST', '/v1/subscriptions', { customer: clockCustomer, 'items[0][price]': seat, 'items[0][quantity]': '1' }),
  )
  const token = await id(json(sim, '/v2/billing/meter_event_session', {}))
  await sim.settle()
  return { sim, ctx: { customer, clockCustomer, sub, clockSub, clock, token } }
}

type Phase = (sim: Simulator, ctx: Ctx) => Promise<string[]>

const sync = (sim: Simulator, ctx: Ctx, identifier: string, value: number) =>
  answer(
    json(sim, '/v2/billing/meter_events', {
      event_name: 'api_call',
      identifier,
      payload: { service_customer_id: ctx.customer, value: String(value) },
    }),
  )
const stream = (sim: Simulator, ctx: Ctx, events: [string, number][]) =>
  answer(
    json(
      sim,
      '/v2/billing/meter_event_stream',
      {
        events: events.map(([identifier, value]) => ({
          event_name: 'api_call',
          identifier,
          payload: { service_customer_id: ctx.customer, value: String(value) },
        })),
      },
      ctx.token,
      'meter-events',
    ),
  )
const cancel = (sim: Simulator, identifier: string) =>
  answer(
    call(sim, 'POST', '/v1/billing/meter_event_adjustments', {
      event_name: 'api_call',
      type: 'cancel',
      'cancel[identifier]': identifier,
    }),
  )
const invoices = (sim: Simulator, customer: string) => answer(call(sim, 'GET', `/v1/invoices?customer=${customer}&limit=100`))

const phases: Phase[] = [
  // 0: usage through both paths, one processed event cancelled, more pending; the test clock advancing.
  async (sim, ctx) => [
    await stream(sim, ctx, [
      ['s1', 10],
      ['s2', 15],
    ]),
    await sync(sim, ctx, 'm1', 120),
    await sync(sim, ctx, 'm2', 30),
    String(await advance(sim, sim.clock.now + 6_000)),
    await cancel(sim, 'm1'),
    await sync(sim, ctx, 'm3', 7),
    await stream(sim, ctx, [['s3', 4]]),
    await cancel(sim, 's3'),
    await answer(
      call(sim, 'POST', `/v1/test_helpers/test_clocks/${ctx.clock}/advance`, {
        frozen_time: String((FEB28 + 2 * HOUR) / 1000),
      }),
    ),
  ],
  // Checkpoint A (mid-period): pending meter processing and adjustments, a test clock advancing.
  async (sim, ctx) => [
    await cancel(sim, 'm2'), // a processed event whose bucket reference was loaded
    String(await advance(sim, sim.clock.now + 10_000)),
    await answer(call(sim, 'GET', `/v1/test_helpers/test_clocks/${ctx.clock}`)),
    await invoices(sim, ctx.clockCustomer),
    await sync(sim, ctx, 'm4', 5),
    String(await advance(sim, FEB28 - HOUR)),
    await answer(call(sim, 'POST', '/v1/payment_methods/pm_card_chargeDeclined/attach', { customer: ctx.customer })),
  ],
  async (sim, ctx) => {
    const pms = JSON.parse((await answer(call(sim, 'GET', `/v1/customers/${ctx.customer}/payment_methods`))).slice(4)) as {
      data: { id: string; card?: { last4?: string } }[]
    }
    const declining = pms.data[0]?.id ?? ''
    return [
      await answer(call(sim, 'POST', `/v1/customers/${ctx.customer}`, { 'invoice_settings[default_payment_method]': declining })),
      String(await advance(sim, FEB28 + 10 * MINUTE)),
      await invoices(sim, ctx.customer),
    ]
  },
  // Checkpoint B (the cycle invoice in its grace period).
  async (sim, ctx) => [
    String(await advance(sim, FEB28 + 2 * HOUR)),
    await invoices(sim, ctx.customer),
    await answer(call(sim, 'GET', `/v1/subscriptions/${ctx.sub}`)),
    String(await advance(sim, FEB28 + DAY)),
  ],
  // Checkpoint C (a payment retry pending).
  async (sim, ctx) => {
    const pms = JSON.parse((await answer(call(sim, 'GET', `/v1/customers/${ctx.customer}/payment_methods`))).slice(4)) as {
      data: { id: string }[]
    }
    const visa = pms.data[1]?.id ?? ''
    return [
      await answer(call(sim, 'POST', `/v1/customers/${ctx.customer}`, { 'invoice_settings[default_payment_method]': visa })),
      await sync(sim, ctx, 'm5', 9),
      String(await advance(sim, MAR31 + 3 * HOUR)),
      await invoices(sim, ctx.customer),
      await answer(call(sim, 'GET', `/v1/subscriptions/${ctx.sub}`)),
      await answer(
        call(sim, 'POST', `/v1/test_helpers/test_clocks/${ctx.clock}/advance`, {
          frozen_time: String((MAR31 + 2 * HOUR) / 1000),
        }),
      ),
      String(await sim.settle()),
      await invoices(sim, ctx.clockCustomer),
      JSON.stringify(sim.admin.meterStats()),
      JSON.stringify(sim.service.meterEvents.cancelled({ account: sim.platform.id, mode: 'test' })),
    ]
  },
]

const CHECKPOINTS = [1, 3, 4]

describe('snapshots carry billing', () => {
  it('continues subscriptions, usage, cancellations, grace periods, retries and test clocks identically (JSON and fork)', async () => {
    const { sim: original, ctx } = await setUp()
    const outputs: string[][] = []
    const copies: { at: number; name: string; sim: Simulator; hash: string; kinds: string[] }[] = []
    for (let p = 0; p < phases.length; p++) {
      if (CHECKPOINTS.includes(p)) {
        const snap = JSON.parse(JSON.stringify(original.snapshot()))
        const hash = original.trace.hash()
        const kinds = (snap.tasks as { kind: string }[]).map((t) => t.kind)
        copies.push({ at: p, name: `json@${p}`, sim: createSimulator({ from: snap }), hash, kinds })
        copies.push({ at: p, name: `fork@${p}`, sim: original.fork(), hash, kinds })
      }
      outputs.push(await (phases[p] as Phase)(original, ctx))
    }
    // What each checkpoint held pending.
    const [a, b, c] = [copies[0], copies[2], copies[4]]
    expect(a?.kinds).toEqual(
      expect.arrayContaining([
        'subscription.period_end',
        'meter_event.process',
        'meter_events.process',
        'meter_event_adjustment.process',
        'test_clock.advance',
      ]),
    )
    expect(b?.kinds).toEqual(expect.arrayContaining(['invoice.finalize', 'subscription.period_end']))
    expect(c?.kinds).toEqual(expect.arrayContaining(['invoice.retry', 'subscription.period_end']))
    const final = outputs.at(-1)?.join('\n') ?? ''
    expect(final).toContain('"status":"paid"')
    expect(JSON.parse(final.split('\n').at(-1) ?? '[]')).toHaveLength(3) // m1, s3, m2
    // Read once: a request to the original would move its trace on.
    const finalHash = original.trace.hash()
    const finalInvoices = [await invoices(original, ctx.customer), await invoices(original, ctx.clockCustomer)]
    for (const copy of copies) {
      expect(copy.sim.trace.hash(), copy.name).toBe(copy.hash)
      for (let p = copy.at; p < phases.length; p++) {
        expect(await (phases[p] as Phase)(copy.sim, ctx), `${copy.name} phase ${p}`).toEqual(outputs[p])
      }
      expect(copy.sim.trace.hash(), copy.name).toBe(finalHash)
      expect([await invoices(copy.sim, ctx.customer), await invoices(copy.sim, ctx.clockCustomer)], copy.name).toEqual(
        finalInvoices,
      )
    }
  }, 60_000)
})
