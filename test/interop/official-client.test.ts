import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator, runOnClock, type Simulator } from '../../src/index.js'

/**
 * The official `stripe` client, unchanged, against the simulator: results, auto-pagination, error
 * classes, its own retries, and webhook verification, one endpoint family after another.
 */
function setup(options: { seed?: number; retries?: number; clock?: 'global' } = {}) {
  const sim = createSimulator({
    seed: options.seed ?? 1,
    headerPrefix: 'Stripe',
    ...(options.clock ? { clock: options.clock } : {}),
  })
  const httpClient = Stripe.createFetchHttpClient(sim.fetch)
  const stripe = new Stripe(sim.platform.secretKey.test, { httpClient, maxNetworkRetries: options.retries ?? 0 })
  return { sim, stripe, httpClient }
}

function caught(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (e: unknown) => e,
  )
}

function statuses(sim: Simulator, path: string): unknown[] {
  return sim.trace
    .filter('http')
    .filter((e) => e.kind === 'http' && String(e.data.path).startsWith(path))
    .map((e) => e.data.status)
}

describe('results of every endpoint family', () => {
  it('creates, retrieves, updates, lists and deletes customers', async () => {
    const { stripe } = setup()
    const created = await stripe.customers.create({ email: 'a@example.com', metadata: { plan: 'pro' } })
    expect(created).toMatchObject({ object: 'customer', email: 'a@example.com', metadata: { plan: 'pro' }, livemode: false })
    expect((await stripe.customers.retrieve(created.id)).id).toBe(created.id)
    expect((await stripe.customers.update(created.id, { email: 'b@example.com' })).email).toBe('b@example.com')
    expect((await stripe.customers.list({ limit: 10 })).data.map((c) => c.id)).toEqual([created.id])
    expect(await stripe.customers.del(created.id)).toMatchObject({ id: created.id, deleted: true })
  })

  it('serves the account, balance, products and payment intents of a connected account', async () => {
    const { sim, stripe } = setup()
    const acct = sim.admin.createAccount({ email: 'shop@example.com' })
    expect((await stripe.accounts.retrieve(acct.id)).id).toBe(acct.id)
    expect((await stripe.accounts.retrieveCurrent()).id).toBe(sim.platform.id)
    const balance = await stripe.balance.retrieve({}, { stripeAccount: acct.id })
    expect(balance.object).toBe('balance')
    const product = await stripe.products.create({ name: 'Widget' }, { stripeAccount: acct.id })
    expect((await stripe.products.list({ limit: 3 }, { stripeAccount: acct.id })).data.map((p) => p.id)).toEqual([product.id])
    const pi = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd' }, { stripeAccount: acct.id })
    expect(pi).toMatchObject({ object: 'payment_intent', amount: 1000, currency: 'usd' })
    expect((await stripe.paymentIntents.retrieve(pi.id, {}, { stripeAccount: acct.id })).id).toBe(pi.id)
  })

  it('creates meters, meter events and meter event sessions, and streams events with the session token', async () => {
    const { sim, stripe, httpClient } = setup()
    const t0 = Math.floor(sim.clock.now / 1000)
    const meter = await stripe.billing.meters.create({
      display_name: 'API calls',
      event_name: 'api_call',
      default_aggregation: { formula: 'sum' },
    })
    expect(meter).toMatchObject({ object: 'billing.meter', event_name: 'api_call', status: 'active' })
    const customer = await stripe.customers.create({ email: 'm@example.com' })
    const event = await stripe.v2.billing.meterEvents.create({
      event_name: 'api_call',
      payload: { stripe_customer_id: customer.id, value: '3' },
    })
    expect(event).toMatchObject({ object: 'v2.billing.meter_event', event_name: 'api_call', livemode: false })
    const session = await stripe.v2.billing.meterEventSession.create()
    expect(session.object).toBe('v2.billing.meter_event_session')
    const streamer = new Stripe(session.authentication_token, { httpClient, maxNetworkRetries: 0 })
    await streamer.v2.billing.meterEventStream.create({
      events: [{ event_name: 'api_call', payload: { stripe_customer_id: customer.id, value: '4' } }],
    })
    await sim.clock.runToLastAsync()
    const summaries = await stripe.billing.meters.listEventSummaries(meter.id, {
      customer: customer.id,
      start_time: t0,
      end_time: t0 + 3600,
      value_grouping_window: 'hour',
    })
    expect(summaries.data.reduce((sum, s) => sum + s.aggregated_value, 0)).toBe(7)
  })

  it('creates, retrieves and lists event destinations and v1 and v2 events', async () => {
    const { sim, stripe } = setup()
    const dest = await stripe.v2.core.eventDestinations.create({
      name: 'hooks',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['customer.created'],
      webhook_endpoint: { url: 'https://hooks.example.test/a' },
    })
    expect((await stripe.v2.core.eventDestinations.retrieve(dest.id)).id).toBe(dest.id)
    await stripe.customers.create({ email: 'e@example.com' })
    const v1 = await stripe.events.list({ type: 'customer.created' })
    expect(v1.data).toHaveLength(1)
    expect((await stripe.events.retrieve(v1.data[0]!.id)).type).toBe('customer.created')
    const thin = sim.admin.trigger('v1.billing.meter.no_meter_found', { synthetic: true })
    expect((await stripe.v2.core.events.retrieve(thin.id)).id).toBe(thin.id)
  })

  it('confirms and captures payment intents and serves their charges, balance transactions and payment methods', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({ email: 'p@example.com', payment_method: 'pm_card_visa' })
    const pi = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    })
    expect(pi.status).toBe('succeeded')
    const charge = await stripe.charges.retrieve(pi.latest_charge as string)
    expect(charge).toMatchObject({ amount: 2000, payment_intent: pi.id })
    expect((await stripe.charges.list({ limit: 5 })).data.map((c) => c.id)).toContain(charge.id)
    const txn = await stripe.balanceTransactions.retrieve(charge.balance_transaction as string)
    expect(txn.source).toBe(charge.id)
    expect((await stripe.balanceTransactions.list({ limit: 5 })).data.map((t) => t.id)).toContain(txn.id)
    const manual = await stripe.paymentIntents.create({
      amount: 500,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      capture_method: 'manual',
    })
    expect((await stripe.paymentIntents.confirm(manual.id)).status).toBe('requires_capture')
    expect((await stripe.paymentIntents.capture(manual.id)).status).toBe('succeeded')
    const cancelled = await stripe.paymentIntents.create({ amount: 700, currency: 'usd' })
    expect((await stripe.paymentIntents.cancel(cancelled.id)).status).toBe('canceled')
    const pm = (await stripe.paymentIntents.retrieve(pi.id)).payment_method as string
    expect((await stripe.paymentMethods.attach(pm, { customer: customer.id })).customer).toBe(customer.id)
    expect((await stripe.paymentMethods.retrieve(pm)).id).toBe(pm)
    expect((await stripe.paymentMethods.detach(pm)).customer).toBeNull()
  })

  it('runs the meter and event destination lifecycles', async () => {
    const { stripe } = setup()
    const meter = await stripe.billing.meters.create({
      display_name: 'Calls',
      event_name: 'calls',
      default_aggregation: { formula: 'count' },
    })
    expect((await stripe.billing.meters.update(meter.id, { display_name: 'All calls' })).display_name).toBe('All calls')
    expect((await stripe.billing.meters.deactivate(meter.id)).status).toBe('inactive')
    expect((await stripe.billing.meters.reactivate(meter.id)).status).toBe('active')
    expect((await stripe.billing.meters.list()).data.map((m) => m.id)).toEqual([meter.id])
    const dest = await stripe.v2.core.eventDestinations.create({
      name: 'hooks',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['customer.created'],
      webhook_endpoint: { url: 'https://hooks.example.test/life' },
    })
    expect(
      (await stripe.v2.core.eventDestinations.update(dest.id, { enabled_events: ['customer.deleted'] })).enabled_events,
    ).toEqual(['customer.deleted'])
    expect((await stripe.v2.core.eventDestinations.disable(dest.id)).status).toBe('disabled')
    expect((await stripe.v2.core.eventDestinations.enable(dest.id)).status).toBe('enabled')
    expect((await stripe.v2.core.eventDestinations.ping(dest.id)).type).toBe('v2.core.event_destination.ping')
    await stripe.v2.core.eventDestinations.del(dest.id)
    expect(await caught(stripe.v2.core.eventDestinations.retrieve(dest.id))).toBeInstanceOf(Stripe.errors.StripeError)
  })

  it('creates, retrieves, lists and cancels off-session payments through rawRequest (no typed resource in the client)', async () => {
    const { sim, stripe } = setup()
    const customer = await stripe.customers.create({ email: 'o@example.com', payment_method: 'pm_card_visa' })
    // GET /v1/customers/:id/payment_methods is not served: the card is looked up in the domain.
    const pm = sim.service.paymentMethods.ofCustomer({ account: sim.platform.id, mode: 'test' }, customer.id)[0]!.id
    const base = '/v2/payments/off_session_payments'
    const created = await stripe.rawRequest('POST', base, {
      amount: { value: 1200, currency: 'usd' },
      cadence: 'unscheduled',
      customer: customer.id,
      payment_method: pm,
    })
    expect(created.object).toBe('v2.payments.off_session_payment')
    expect((await stripe.rawRequest('GET', `${base}/${created.id}`)).id).toBe(created.id)
    expect((await stripe.rawRequest('GET', base)).data.map((p: { id: string }) => p.id)).toEqual([created.id])
    const second = await stripe.rawRequest('POST', base, {
      amount: { value: 300, currency: 'usd' },
      cadence: 'unscheduled',
      customer: customer.id,
      payment_method: pm,
    })
    expect((await stripe.rawRequest('POST', `${base}/${second.id}/cancel`, {})).status).toBe('canceled')
    await sim.settle()
  })
})

describe('auto-pagination', () => {
  it('walks every page of a v1 list', async () => {
    const { stripe } = setup()
    const ids: string[] = []
    for (let i = 0; i < 7; i++) ids.push((await stripe.customers.create({ email: `c${i}@example.com` })).id)
    const all = await stripe.customers.list({ limit: 2 }).autoPagingToArray({ limit: 100 })
    expect(all.map((c) => c.id).sort()).toEqual([...ids].sort())
    expect(new Set(all.map((c) => c.id)).size).toBe(7)
  })

  it('walks every page of a v2 list', async () => {
    const { stripe } = setup()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      const d = await stripe.v2.core.eventDestinations.create({
        name: `d${i}`,
        type: 'webhook_endpoint',
        event_payload: 'snapshot',
        enabled_events: ['customer.created'],
        webhook_endpoint: { url: `https://hooks.example.test/${i}` },
      })
      ids.push(d.id)
    }
    const seen: string[] = []
    for await (const d of stripe.v2.core.eventDestinations.list({ limit: 2 })) seen.push(d.id)
    expect(seen.sort()).toEqual([...ids].sort())
  })
})

describe('error classes', () => {
  it('raises StripeInvalidRequestError for a missing object and for a bad parameter', async () => {
    const { stripe } = setup()
    const missing = await caught(stripe.customers.retrieve('cus_missing'))
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing' })
    const bad = await caught(stripe.paymentIntents.create({ amount: -1, currency: 'usd' }))
    expect(bad).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect(bad.statusCode).toBe(400)
  })

  it('raises StripeAuthenticationError for an unknown key', async () => {
    const { httpClient } = setup()
    const stranger = new Stripe('sk_test_unknown', { httpClient, maxNetworkRetries: 0 })
    expect(await caught(stranger.customers.list())).toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
  })

  it('raises StripePermissionError for an account the key does not control', async () => {
    const { stripe } = setup()
    const error = await caught(stripe.customers.list({}, { stripeAccount: 'acct_notmine' }))
    expect(error).toBeInstanceOf(Stripe.errors.StripePermissionError)
  })

  it('raises StripeRateLimitError past the endpoint rate', async () => {
    const { stripe } = setup()
    for (let i = 0; i < 25; i++) await stripe.balance.retrieve()
    const error = await caught(stripe.balance.retrieve())
    expect(error).toBeInstanceOf(Stripe.errors.StripeRateLimitError)
  })

  it('raises StripeIdempotencyError when a key is reused with other parameters', async () => {
    const { stripe } = setup()
    await stripe.customers.create({ email: 'one@example.com' }, { idempotencyKey: 'k' })
    const error = await caught(stripe.customers.create({ email: 'two@example.com' }, { idempotencyKey: 'k' }))
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError)
  })

  it('raises TemporarySessionExpiredError for a stream token past 15 minutes', async () => {
    const { sim, stripe, httpClient } = setup()
    const session = await stripe.v2.billing.meterEventSession.create()
    const streamer = new Stripe(session.authentication_token, { httpClient, maxNetworkRetries: 0 })
    await sim.clock.tickAsync(15 * 60_000)
    const error = await caught(
      streamer.v2.billing.meterEventStream.create({
        events: [{ event_name: 'x', payload: { stripe_customer_id: 'cus_1', value: '1' } }],
      }),
    )
    expect(error).toBeInstanceOf(Stripe.errors.TemporarySessionExpiredError)
  })
})

describe("the client's automatic retries", () => {
  it('retries a lock timeout after its backoff on the virtual clock and succeeds', async () => {
    const { sim, stripe } = setup({ retries: 2, clock: 'global' })
    try {
      const customer = await runOnClock(sim, () => stripe.customers.create({ email: 'old@example.com' }))
      // Held 2.5 s: the first try waits the 2 s lock wait and times out; the retry, after the
      // client's own 0.5-1 s sleep, fits in the remaining wait.
      sim.admin.holdLock(customer.id, 2_500)
      const updated = await runOnClock(sim, () => stripe.customers.update(customer.id, { email: 'new@example.com' }))
      expect(updated.email).toBe('new@example.com')
      expect(statuses(sim, `/v1/customers/${customer.id}`)).toEqual([429, 200])
    } finally {
      sim.clock.uninstall()
    }
  })

  it('retries a 409 (a request with the same idempotency key in flight)', async () => {
    const { sim, stripe } = setup({ retries: 2, clock: 'global' })
    try {
      const create = () => stripe.customers.create({ email: 'x@example.com' }, { idempotencyKey: 'same' })
      const [a, b] = await runOnClock(sim, () => Promise.all([create(), create()]))
      expect(b.id).toBe(a.id)
      expect(statuses(sim, '/v1/customers')).toEqual([200, 409, 200])
    } finally {
      sim.clock.uninstall()
    }
  })

  it('does not retry a plain rate-limit 429', async () => {
    const { sim, stripe } = setup({ retries: 3 })
    for (let i = 0; i < 25; i++) await stripe.balance.retrieve()
    await caught(stripe.balance.retrieve())
    expect(statuses(sim, '/v1/balance').filter((s) => s === 429)).toHaveLength(1)
  })
})

describe('webhooks', () => {
  it('verifies a snapshot delivery with webhooks.constructEvent', async () => {
    const { sim, stripe } = setup()
    const dest = await stripe.v2.core.eventDestinations.create({
      name: 'hooks',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['customer.created'],
      webhook_endpoint: { url: 'https://hooks.example.test/snap' },
      include: ['webhook_endpoint.signing_secret'],
    })
    const secret = dest.webhook_endpoint!.signing_secret!
    const got: Stripe.Event[] = []
    sim.receivers.mount('https://hooks.example.test/snap', async (req) => {
      const raw = await req.text()
      got.push(stripe.webhooks.constructEvent(raw, req.headers.get('Stripe-Signature')!, secret, 300, undefined, sim.clock.now))
      return new Response('ok')
    })
    const customer = await stripe.customers.create({ email: 'w@example.com' })
    await sim.settle()
    expect(got.map((e) => e.type)).toEqual(['customer.created'])
    expect((got[0]!.data.object as Stripe.Customer).id).toBe(customer.id)
    // A tampered body fails verification.
    expect(() =>
      stripe.webhooks.constructEvent(
        '{"tampered":true}',
        stripe.webhooks.generateTestHeaderString({ payload: '{}', secret }),
        secret,
      ),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError)
  })

  it('parses a thin notification and fetches its event and related object', async () => {
    const { sim, stripe } = setup()
    const meter = await stripe.billing.meters.create({
      display_name: 'API calls',
      event_name: 'api_call',
      default_aggregation: { formula: 'sum' },
    })
    const dest = await stripe.v2.core.eventDestinations.create({
      name: 'thin',
      type: 'webhook_endpoint',
      event_payload: 'thin',
      enabled_events: ['v1.billing.meter.error_report_triggered'],
      webhook_endpoint: { url: 'https://hooks.example.test/thin' },
      include: ['webhook_endpoint.signing_secret'],
    })
    const secret = dest.webhook_endpoint!.signing_secret!
    const raw: { body: string; sig: string }[] = []
    sim.receivers.mount('https://hooks.example.test/thin', async (req) => {
      raw.push({ body: await req.text(), sig: req.headers.get('Stripe-Signature')! })
      return new Response('ok')
    })
    sim.admin.trigger('v1.billing.meter.error_report_triggered', {
      relatedObject: { id: meter.id, type: 'billing.meter', url: `/v1/billing/meters/${meter.id}` },
    })
    await sim.settle()
    expect(raw).toHaveLength(1)
    const note = stripe.parseEventNotification(raw[0]!.body, raw[0]!.sig, secret, 300, undefined, sim.clock.now) as any
    expect(note.type).toBe('v1.billing.meter.error_report_triggered')
    expect((await note.fetchEvent()).id).toBe(note.id)
    expect((await note.fetchRelatedObject()).id).toBe(meter.id)
  })
})
