import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'

/** Raw form and JSON requests through sim.fetch, so the exact wire values reach the check. */
function setup() {
  const sim = createSimulator({ seed: 3, limits: false })
  const key = sim.platform.secretKey.test
  async function call(method: string, path: string, body?: string | object) {
    const json = typeof body === 'object'
    const res = await sim.fetch(`https://api.example.test${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded' }),
      },
      ...(body === undefined ? {} : { body: json ? JSON.stringify(body) : body }),
    })
    return { status: res.status, body: (await res.json()) as Record<string, any>, requestId: res.headers.get('Request-Id') }
  }
  return { sim, call }
}

describe('parameters from the catalogue on the wire', () => {
  it('accepts created[gte] on a list, which the route schema used to refuse', async () => {
    const { call } = setup()
    await call('POST', '/v1/customers', 'email=a%40example.com')
    const list = await call('GET', '/v1/customers?created[gte]=0&created[lt]=99999999999&limit=3')
    expect(list.status).toBe(200)
    expect(list.body.data).toHaveLength(1)
    expect((await call('GET', '/v1/events?created[gte]=0')).status).toBe(200)
  })

  it('accepts documented params the routes do not use (address, shipping, capabilities, transfer_data)', async () => {
    const { call } = setup()
    const customer = await call(
      'POST',
      '/v1/customers',
      'email=a%40example.com&address[city]=Paris&shipping[name]=Ann&shipping[address][line1]=1+Rue&preferred_locales[0]=fr',
    )
    expect(customer.status).toBe(200)
    const account = await call('POST', '/v1/accounts', 'type=custom&capabilities[card_payments][requested]=true')
    expect(account.status).toBe(200)
    const intent = await call(
      'POST',
      '/v1/payment_intents',
      `amount=500&currency=usd&transfer_data[destination]=${account.body.id}&application_fee_amount=10&payment_method_options[card][request_three_d_secure]=automatic`,
    )
    expect(intent.status).toBe(200)
  })

  it("refuses a bad integer in the provider words, with doc_url and the request's log url", async () => {
    const { call } = setup()
    const { status, body, requestId } = await call('POST', '/v1/payment_intents', 'amount=abc&currency=usd')
    expect(status).toBe(400)
    expect(body.error).toEqual({
      type: 'invalid_request_error',
      code: 'parameter_invalid_integer',
      message: 'Invalid integer: abc',
      param: 'amount',
      doc_url: 'https://docs.stripe.com/error-codes/parameter-invalid-integer',
      request_log_url: `https://api.example.test/__sim/requests/${requestId}`,
    })
  })

  it('reads True/False as booleans (older official Python clients send them)', async () => {
    const { call } = setup()
    const confirmed = await call(
      'POST',
      '/v1/payment_intents',
      'amount=500&currency=usd&payment_method=pm_card_visa&confirm=True',
    )
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.status).toBe('succeeded')
    const unconfirmed = await call(
      'POST',
      '/v1/payment_intents',
      'amount=500&currency=usd&payment_method=pm_card_visa&confirm=False',
    )
    expect(unconfirmed.body.status).toBe('requires_confirmation')
    const bad = await call('POST', '/v1/payment_intents', 'amount=500&currency=usd&confirm=yes')
    expect(bad.body.error).toMatchObject({ message: 'Invalid boolean: yes', param: 'confirm' })
  })

  it('names an unknown parameter, nested ones in brackets on /v1 and dots on /v2', async () => {
    const { call } = setup()
    expect((await call('POST', '/v1/customers', 'colour=red')).body.error).toMatchObject({
      code: 'parameter_unknown',
      message: 'Received unknown parameter: colour',
      param: 'colour',
      doc_url: 'https://docs.stripe.com/error-codes/parameter-unknown',
    })
    expect((await call('POST', '/v1/customers', 'metadata[x][y]=1')).body.error).toMatchObject({
      code: 'parameter_unknown',
      message: 'Received unknown parameter: metadata[x][y]',
      param: 'metadata[x][y]',
    })
    expect((await call('GET', '/v1/customers?created[since]=1')).body.error).toMatchObject({ param: 'created[since]' })
    const v2 = await call('POST', '/v2/core/event_destinations', {
      name: 'n',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: ['customer.created'],
      webhook_endpoint: { url: 'https://example.com/h', colour: 'red' },
    })
    expect(v2.body.error).toMatchObject({ code: 'parameter_unknown', param: 'webhook_endpoint.colour' })
  })

  it('names a missing parameter', async () => {
    const { call } = setup()
    expect((await call('POST', '/v1/payment_intents', 'currency=usd')).body.error).toMatchObject({
      code: 'parameter_missing',
      message: 'Missing required param: amount.',
      param: 'amount',
    })
    expect(
      (await call('POST', '/v1/payment_intents', 'amount=5&currency=usd&automatic_payment_methods[allow_redirects]=never')).body
        .error,
    ).toMatchObject({ code: 'parameter_missing', param: 'automatic_payment_methods[enabled]' })
  })

  it('lists the allowed values of an enum', async () => {
    const { call } = setup()
    const { status, body } = await call('POST', '/v1/payment_intents', 'amount=5&currency=usd&capture_method=later')
    expect(status).toBe(400)
    expect(body.error).toMatchObject({
      code: 'parameter_invalid',
      message: 'Invalid capture_method: must be one of automatic, automatic_async, or manual',
      param: 'capture_method',
    })
    expect(body.error.doc_url).toBe('https://docs.stripe.com/error-codes/parameter-invalid')
  })

  it('reads an Emptyable "" as unset', async () => {
    const { call } = setup()
    const created = await call('POST', '/v1/customers', 'email=a%40example.com&metadata[plan]=pro')
    const cleared = await call('POST', `/v1/customers/${created.body.id}`, 'metadata=')
    expect(cleared.status).toBe(200)
    expect(cleared.body.metadata).toEqual({})
    expect((await call('POST', '/v1/payment_intents', 'amount=&currency=usd')).body.error).toMatchObject({
      code: 'parameter_invalid_empty',
      param: 'amount',
    })
  })

  it('handles deep nesting and huge arrays with a 400 or an answer, never a throw', async () => {
    const { call } = setup()
    const deep = `metadata${'[a]'.repeat(40)}=1`
    const nested = await call('POST', '/v1/customers', deep)
    expect(nested.status).toBe(400)
    expect(nested.body.error.code).toBe('parameter_unknown')
    const many = Array.from({ length: 3000 }, (_, i) => `expand[${i}]=default_source`).join('&')
    expect((await call('POST', '/v1/customers', many)).status).toBe(200)
    const sparse = await call('POST', '/v1/customers', 'preferred_locales[5000]=fr&preferred_locales[0]=en')
    expect(sparse.status).toBe(200)
    let body: Record<string, unknown> = { value: '1' }
    for (let i = 0; i < 30; i++) body = { inner: body }
    const v2 = await call('POST', '/v2/billing/meter_events', { event_name: 'e', payload: { k: 'v' }, deep: body })
    expect(v2.status).toBe(400)
    expect(v2.body.error).toMatchObject({ code: 'parameter_unknown', param: 'deep' })
  })

  it('works with the official client unchanged', async () => {
    const sim = createSimulator({ seed: 4, headerPrefix: 'Stripe', limits: false })
    const stripe = new Stripe(sim.platform.secretKey.test, {
      httpClient: Stripe.createFetchHttpClient(sim.fetch),
      maxNetworkRetries: 0,
    })
    const customer = await stripe.customers.create({
      email: 'c@example.com',
      address: { city: 'Lyon', country: 'FR' },
      tax_exempt: 'none',
    })
    expect(customer.email).toBe('c@example.com')
    const list = await stripe.customers.list({ created: { gte: 0 }, limit: 5 })
    expect(list.data.map((c) => c.id)).toEqual([customer.id])
    await expect(
      stripe.paymentIntents.create({ amount: 5, currency: 'usd', capture_method: 'later' as 'manual' }),
    ).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      param: 'capture_method',
      doc_url: 'https://docs.stripe.com/error-codes/parameter-invalid',
    })
  })
})
