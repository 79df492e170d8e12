import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { withAdminApi } from '../../src/cli/admin-api.js'
import { collect, destination, setup } from './helpers.js'

const AWS = { aws_account_id: '123456789012', aws_region: 'eu-west-1' }

async function eventBridge(
  stripe: Stripe,
  params: Partial<Stripe.V2.Core.EventDestinationCreateParams> = {},
): Promise<Stripe.V2.Core.EventDestination> {
  return stripe.v2.core.eventDestinations.create({
    name: 'bus',
    type: 'amazon_eventbridge',
    event_payload: 'snapshot',
    enabled_events: ['*'],
    amazon_eventbridge: AWS,
    ...params,
  })
}

async function refusal(p: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(Stripe.errors.StripeError)
  return error as Stripe.errors.StripeError
}

describe('amazon_eventbridge event destinations', () => {
  it("accepts one and answers the provider's shape, with its partner event source", async () => {
    const { stripe } = setup()
    const d = await eventBridge(stripe)
    expect(d.type).toBe('amazon_eventbridge')
    expect(d.amazon_eventbridge).toEqual({
      aws_account_id: '123456789012',
      aws_event_source_arn: `arn:aws:events:eu-west-1::event-source/aws.partner/stripe.com/${d.id}`,
      aws_event_source_status: 'active',
    })
    expect(d).not.toHaveProperty('webhook_endpoint')
    const read = await stripe.v2.core.eventDestinations.retrieve(d.id)
    expect(read.amazon_eventbridge).toEqual(d.amazon_eventbridge)
    const listed = await stripe.v2.core.eventDestinations.list()
    expect(listed.data.map((x) => x.type)).toEqual(['amazon_eventbridge'])
  })

  it('puts each event it takes on its virtual bus, with no webhook attempt', async () => {
    const { sim, stripe } = setup()
    const d = await eventBridge(stripe)
    const customer = await stripe.customers.create({ email: 'bus@example.com' })
    await sim.settle()
    const bus = sim.admin.eventBus(d.id)
    expect(bus.map((e) => e.detailType)).toEqual(['customer.created'])
    expect(bus[0]).toMatchObject({ source: `aws.partner/stripe.com/${d.id}`, time: new Date(sim.clock.now).toISOString() })
    expect(bus[0]?.detail).toMatchObject({ object: 'event', type: 'customer.created', data: { object: { id: customer.id } } })
    expect(sim.admin.deliveries({ destination: d.id })).toEqual([])
  })

  it("renders each event as the destination's pinned version does, beside a webhook destination", async () => {
    const { sim, stripe } = setup()
    const pinned = await eventBridge(stripe, { snapshot_api_version: '2025-01-27.acacia' })
    const plain = await eventBridge(stripe)
    await destination(stripe, { url: 'https://h.test/hook' })
    const hook = collect(sim, 'https://h.test/hook')
    sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    expect(sim.admin.eventBus(pinned.id)[0]?.detail.api_version).toBe('2025-01-27.acacia')
    expect(sim.admin.eventBus(plain.id)[0]?.detail.api_version).toBe('2026-10-28.endive')
    expect(JSON.parse(hook[0]!.raw)).toEqual(sim.admin.eventBus(plain.id)[0]?.detail)
  })

  it('puts the thin notification of a thin destination, and nothing once it is disabled', async () => {
    const { sim, stripe } = setup()
    const d = await eventBridge(stripe, { event_payload: 'thin', enabled_events: ['v1.billing.meter.no_meter_found'] })
    const evt = sim.admin.trigger('v1.billing.meter.no_meter_found', { synthetic: true })
    await sim.settle()
    expect(sim.admin.eventBus(d.id).map((e) => e.detail)).toEqual([
      { id: evt.id, object: 'v2.core.event', type: evt.type, created: evt.body.created, livemode: false },
    ])
    await stripe.v2.core.eventDestinations.disable(d.id)
    sim.admin.trigger('v1.billing.meter.no_meter_found', { synthetic: true })
    await sim.settle()
    expect(sim.admin.eventBus(d.id)).toHaveLength(1)
  })

  it('refuses one without its AWS account and region, or with a malformed account id, with 400', async () => {
    const { stripe } = setup()
    const missing = await refusal(eventBridge(stripe, { amazon_eventbridge: undefined as never }))
    expect([missing.statusCode, missing.code, missing.param]).toEqual([400, 'parameter_missing', 'amazon_eventbridge'])
    const bad = await refusal(eventBridge(stripe, { amazon_eventbridge: { ...AWS, aws_account_id: '12ab' } }))
    expect([bad.statusCode, bad.code, bad.param]).toEqual([400, 'parameter_invalid', 'amazon_eventbridge.aws_account_id'])
    const azure = await refusal(eventBridge(stripe, { type: 'azure_event_grid' }))
    expect([azure.statusCode, azure.param]).toEqual([400, 'type'])
    expect((await stripe.v2.core.eventDestinations.list()).data).toEqual([])
  })

  it('puts a ping on the bus as its thin notification', async () => {
    const { sim, stripe } = setup()
    const d = await eventBridge(stripe)
    const ping = await stripe.v2.core.eventDestinations.ping(d.id)
    expect(sim.admin.eventBus(d.id).map((e) => [e.detailType, e.detail.id, 'data' in e.detail])).toEqual([
      ['v2.core.event_destination.ping', ping.id, false],
    ])
  })

  it('serves the bus in the admin API, and refuses it for a webhook destination', async () => {
    const { sim, stripe } = setup()
    const d = await eventBridge(stripe)
    const hook = await destination(stripe, { url: 'https://h.test/hook' })
    sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    const admin = withAdminApi(sim)
    const read = async (id: string) => {
      const res = await admin(new Request(`http://127.0.0.1/__sim/destinations/${id}/event_bus`))
      return { status: res.status, body: (await res.json()) as any }
    }
    const bus = await read(d.id)
    expect(bus.status).toBe(200)
    expect(bus.body.data).toEqual(sim.admin.eventBus(d.id))
    expect((await read(hook.id)).status).toBe(400)
    expect((await read('ed_missing')).status).toBe(404)
  })

  it('refuses eventBus on a webhook destination, naming the API', async () => {
    const { sim, stripe } = setup()
    const hook = await destination(stripe, { url: 'https://h.test/hook' })
    expect(() => sim.admin.eventBus(hook.id)).toThrow(/eventBus: destination .* is a webhook_endpoint destination/)
  })
})
