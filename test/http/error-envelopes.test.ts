import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERRORS, type ErrorRow } from '../../src/catalogue/errors.js'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator, type Simulator } from '../../src/index.js'
import { call } from '../cli/node-request.js'

const PAGES = 'https://docs.stripe.com/error-codes'

function setup(seed = 39): { sim: Simulator; stripe: Stripe } {
  const sim = createSimulator({ seed, headerPrefix: 'Stripe', limits: false })
  const stripe = new Stripe(sim.platform.secretKey.test, {
    httpClient: Stripe.createFetchHttpClient(sim.fetch),
    maxNetworkRetries: 0,
  })
  return { sim, stripe }
}

async function refusal(p: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(Stripe.errors.StripeError)
  return error as Stripe.errors.StripeError
}

/** Whether some row of the table under this envelope code is the provider's (or the spec's). */
function providerCode(code: string): boolean {
  return Object.entries(ERRORS).some(([key, row]) => ((row as ErrorRow).code ?? key) === code && row.source !== 'simulator')
}

describe('error envelopes as the provider sends them', () => {
  // Table-driven over the error table: each row's envelope code reaches the wire through the same
  // renderer, which the cases below drive through the official client.
  it.each(Object.entries(ERRORS))('gives %s a doc_url', async (key, row) => {
    const code = (row as ErrorRow).code ?? key
    const { errorDocUrl } = await import('../../src/catalogue/errors.js')
    const url = errorDocUrl(code)
    if (providerCode(code)) expect(url).toBe(`${PAGES}/${code.replaceAll('_', '-')}`)
    else expect(url).toBe(PAGES)
  })

  it.each([
    ['resource_missing', (s: Stripe) => s.customers.retrieve('cus_missing'), `${PAGES}/resource-missing`],
    ['parameter_missing', (s: Stripe) => s.paymentIntents.create({ currency: 'usd' } as never), `${PAGES}/parameter-missing`],
    [
      'card_declined',
      (s: Stripe) =>
        s.paymentIntents.create({ amount: 500, currency: 'usd', payment_method: 'pm_card_chargeDeclined', confirm: true }),
      `${PAGES}/card-declined`,
    ],
    ['idempotency_key_invalid', (s: Stripe) => s.customers.create({}, { idempotencyKey: 'k'.repeat(300) }), PAGES],
  ])('answers %s over /v1 with its doc_url and the request_log_url of its record', async (code, act, docUrl) => {
    const { sim, stripe } = setup()
    const error = await refusal(act(stripe))
    expect(error.code).toBe(code)
    expect(error.doc_url).toBe(docUrl)
    expect(error.requestId).toMatch(/^req_/)
    expect(error.raw).toMatchObject({ request_log_url: `https://api.stripe.com/__sim/requests/${error.requestId}` })
    const record = sim.trace.filter('http').find((e) => e.data.request_id === error.requestId)
    expect(record?.data.status).toBe(error.statusCode)
  })

  it('gives a refused key a doc_url too', async () => {
    const { sim } = setup()
    const stripe = new Stripe('sk_test_unknown', { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })
    const error = await refusal(stripe.customers.list())
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
    expect(error.doc_url).toBe(`${PAGES}/api-key-invalid`)
  })

  it('keeps the provider error schema: no member it lacks on a decline', async () => {
    const { stripe } = setup()
    const error = await refusal(
      stripe.paymentIntents.create({ amount: 500, currency: 'usd', payment_method: 'pm_card_chargeDeclined', confirm: true }),
    )
    const members = [
      'advice_code',
      'charge',
      'code',
      'decline_code',
      'doc_url',
      'message',
      'network_advice_code',
      'network_decline_code',
      'param',
      'payment_intent',
      'payment_method',
      'payment_method_type',
      'request_log_url',
      'setup_intent',
      'source',
      'type',
    ]
    const raw = error.raw as Record<string, unknown>
    const sent = Object.keys(raw).filter((k) => !['headers', 'statusCode', 'requestId'].includes(k))
    expect(sent.filter((k) => !members.includes(k))).toEqual([])
    expect(typeof raw.request_log_url).toBe('string')
  })

  it('sends neither doc_url nor request_log_url on /v2, whose error schema has neither', async () => {
    const { stripe } = setup()
    const error = await refusal(stripe.v2.core.eventDestinations.retrieve('ed_missing'))
    expect(error.statusCode).toBe(404)
    expect(error.raw).not.toHaveProperty('doc_url')
    expect(error.raw).not.toHaveProperty('request_log_url')
  })
})

describe('serve: an error names its request record', () => {
  const token = 'request-log-suite'
  const sim = createSimulator({ seed: 39, headerPrefix: 'Stripe', limits: false })
  let server: SimServer
  let port = 0

  beforeAll(async () => {
    server = await startHttpServer(sim, { port: 0, adminToken: token })
    port = (server.address() as AddressInfo).port
  })
  afterAll(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  )

  it('resolves request_log_url with the admin token, and refuses it without', async () => {
    const stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
    const error = await refusal(stripe.customers.retrieve('cus_missing'))
    const url = new URL(String((error.raw as Record<string, unknown>).request_log_url))
    expect(url.origin).toBe(`http://127.0.0.1:${port}`)
    expect(url.pathname).toBe(`/__sim/requests/${error.requestId}`)
    const read = await call(port, url.pathname, { headers: { Authorization: `Bearer ${token}` } })
    expect(read.status).toBe(200)
    const record = JSON.parse(read.body) as { kind: string; data: Record<string, unknown> }
    expect(record.kind).toBe('http')
    expect(record.data).toMatchObject({ method: 'GET', status: 404, request_id: error.requestId })
    expect(JSON.parse(String(record.data.response)).error.request_log_url).toBe(url.href)
    expect((await call(port, url.pathname)).status).toBe(401)
    expect((await call(port, '/__sim/requests/req_unknown', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(404)
  })
})
