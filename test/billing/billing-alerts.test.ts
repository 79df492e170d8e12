import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { METER_PROCESSING_DELAY, type Simulator } from '../../src/index.js'
import { billingClient, caught, payingCustomer } from './helpers.js'

async function setUp() {
  const b = billingClient()
  const { customer } = await payingCustomer(b.stripe)
  const other = await b.stripe.customers.create({ email: 'other@example.com' })
  const meter = await b.stripe.billing.meters.create({
    display_name: 'Calls',
    event_name: 'api_call',
    default_aggregation: { formula: 'sum' },
  })
  return { ...b, customer, other, meter }
}

const triggered = (sim: Simulator) =>
  sim.admin
    .events({ type: 'billing.alert.triggered' })
    .map((e) => (e.body.data as { object: { customer: string; value: number; alert: { id: string } } }).object)

describe('billing alerts (official client, prefix Stripe)', () => {
  it('fires billing.alert.triggered once per customer when processed usage crosses the threshold, delivered and signed', async () => {
    const { sim, stripe, httpClient, customer, other, meter } = await setUp()
    const d = await stripe.v2.core.eventDestinations.create({
      name: 'alerts',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['billing.alert.triggered'],
      webhook_endpoint: { url: 'https://hooks.example.test/alerts' },
      include: ['webhook_endpoint.signing_secret'],
    })
    const deliveries: { raw: string; signature: string }[] = []
    sim.receivers.mount('https://hooks.example.test/alerts', async (req) => {
      deliveries.push({ raw: await req.text(), signature: req.headers.get('Stripe-Signature') ?? '' })
      return new Response('{}')
    })
    const alert = await stripe.billing.alerts.create({
      alert_type: 'usage_threshold',
      title: '100 calls',
      usage_threshold: { gte: 100, meter: meter.id, recurrence: 'one_time' },
    })
    expect(alert).toMatchObject({
      object: 'billing.alert',
      status: 'active',
      usage_threshold: { gte: 100, meter: meter.id, filters: null },
    })
    const use = (who: string, value: string) =>
      stripe.v2.billing.meterEvents.create({ event_name: 'api_call', payload: { stripe_customer_id: who, value } })
    await use(customer.id, '60')
    await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(triggered(sim)).toEqual([])
    // Accepted but not processed: nothing yet.
    await use(customer.id, '50')
    expect(triggered(sim)).toEqual([])
    await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(triggered(sim).map((t) => [t.alert.id, t.customer, t.value])).toEqual([[alert.id, customer.id, 110]])
    // Once per customer; another customer crosses it through the stream.
    await use(customer.id, '500')
    const session = await stripe.v2.billing.meterEventSession.create()
    const streamer = new Stripe(session.authentication_token, { httpClient, maxNetworkRetries: 0 })
    await streamer.v2.billing.meterEventStream.create({
      events: [{ event_name: 'api_call', payload: { stripe_customer_id: other.id, value: '150' } }],
    })
    await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(triggered(sim).map((t) => t.customer)).toEqual([customer.id, other.id])

    await sim.settle()
    const delivered = deliveries.map((x) => ({ ...x, event: JSON.parse(x.raw) }))
    expect(delivered.map((x) => x.event.data.object.customer)).toEqual([customer.id, other.id])
    const event = stripe.webhooks.constructEvent(
      delivered[0]?.raw as string,
      delivered[0]?.signature as string,
      d.webhook_endpoint?.signing_secret as string,
      300,
      undefined,
      Math.floor(sim.clock.now / 1000),
    )
    expect(event.type).toBe('billing.alert.triggered')
  })

  it('watches only the customers its filters name, stays quiet while inactive, and stays archived', async () => {
    const { sim, stripe, customer, other, meter } = await setUp()
    const alert = await stripe.billing.alerts.create({
      alert_type: 'usage_threshold',
      title: 'Big customer',
      usage_threshold: { gte: 10, meter: meter.id, recurrence: 'one_time', filters: [{ type: 'customer', customer: other.id }] },
    })
    const paused = await stripe.billing.alerts.deactivate(alert.id)
    expect(paused.status).toBe('inactive')
    const use = (who: string) =>
      stripe.v2.billing.meterEvents.create({ event_name: 'api_call', payload: { stripe_customer_id: who, value: '20' } })
    await use(other.id)
    await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(triggered(sim)).toEqual([])
    await stripe.billing.alerts.activate(alert.id)
    await use(customer.id)
    await use(other.id)
    await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
    expect(triggered(sim).map((t) => [t.customer, t.value])).toEqual([[other.id, 40]])
    const archived = await stripe.billing.alerts.archive(alert.id)
    expect(archived.status).toBe('archived')
    expect((await caught(stripe.billing.alerts.activate(alert.id))).code).toBe('parameter_invalid')
    expect((await stripe.billing.alerts.list({ meter: meter.id })).data.map((a) => a.id)).toEqual([alert.id])
  })

  it('refuses bad alerts with the provider errors, making nothing', async () => {
    const { stripe, meter } = await setUp()
    const base = {
      alert_type: 'usage_threshold' as const,
      title: 'x',
      usage_threshold: { gte: 5, meter: meter.id, recurrence: 'one_time' as const },
    }
    const cases = [
      [{ ...base, title: undefined }, 'parameter_missing', 'title'],
      [
        { ...base, usage_threshold: { ...base.usage_threshold, meter: 'mtr_missing' } },
        'resource_missing',
        'usage_threshold[meter]',
      ],
      [{ ...base, usage_threshold: { ...base.usage_threshold, gte: 0 } }, 'parameter_invalid', 'usage_threshold[gte]'],
      [
        { ...base, usage_threshold: { ...base.usage_threshold, filters: [{ type: 'customer', customer: 'cus_missing' }] } },
        'resource_missing',
        'usage_threshold[filters][0][customer]',
      ],
    ] as const
    for (const [params, code, param] of cases) {
      const error = await caught(stripe.billing.alerts.create(params as never))
      expect([error.statusCode, error.code, error.param]).toEqual([400, code, param])
    }
    expect((await stripe.billing.alerts.list()).data).toEqual([])
  })
})
