// biome-ignore-all lint/suspicious/noTemplateCurlyInString: fixture references are written literally, as in the provider's files
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Stripe from 'stripe'
import { afterAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { run } from '../cli/in-process.js'
import { startServeCli } from '../cli/serve-cli.js'

const here = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))
const SUBSCRIPTIONS = here('subscriptions-seed.json')
const USAGE = here('usage-seed.json')

const running: { stop: () => Promise<unknown> }[] = []
afterAll(async () => {
  for (const r of running.reverse()) await r.stop()
})

const clientOf = (sim: ReturnType<typeof createSimulator>) =>
  new Stripe(sim.platform.secretKey.test, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })

describe('fixtures in the provider CLI format', () => {
  it('sim.admin.loadFixtures runs a subscription sample seed: products and prices with their lookup keys', async () => {
    const sim = createSimulator({ seed: 1, headerPrefix: 'Stripe' })
    const result = await sim.admin.loadFixtures(readFileSync(SUBSCRIPTIONS, 'utf8'))
    expect(result.ok).toBe(true)
    expect(result.steps.map((s) => [s.name, s.method, s.status])).toEqual([
      ['starter_product', 'POST', 200],
      ['starter_price', 'POST', 200],
      ['team_product', 'POST', 200],
      ['team_price', 'POST', 200],
    ])
    const stripe = clientOf(sim)
    const prices = await stripe.prices.list({ expand: ['data.product'] })
    expect(prices.data.map((p) => [p.lookup_key, p.unit_amount, (p.product as Stripe.Product).name]).sort()).toEqual([
      ['starter_monthly', 900, 'Starter'],
      ['team_monthly', 4900, 'Team'],
    ])
    expect(prices.data.find((p) => p.lookup_key === 'starter_monthly')?.metadata).toEqual({ tier: 'starter' })
  })

  it('runs a usage-based seed: references into earlier answers in params and paths, ${.env:NAME|default}, arrays of objects', async () => {
    const sim = createSimulator({ seed: 2, headerPrefix: 'Stripe' })
    const result = await sim.admin.loadFixtures(JSON.parse(readFileSync(USAGE, 'utf8')), { env: { METER_EVENT_NAME: 'calls' } })
    expect(result.failed).toBeUndefined()
    const byName = Object.fromEntries(result.steps.map((s) => [s.name, s]))
    expect(byName.subscription_again?.id).toBe(byName.subscription?.id)
    const stripe = clientOf(sim)
    const meter = await stripe.billing.meters.retrieve(byName.api_meter?.id as string)
    expect(meter.event_name).toBe('calls')
    const sub = await stripe.subscriptions.retrieve(byName.subscription?.id as string)
    expect(sub.items.data[0]?.price.recurring?.meter).toBe(meter.id)
    // Without the variable the default applies.
    const other = createSimulator({ seed: 2, headerPrefix: 'Stripe' })
    expect((await other.admin.loadFixtures(readFileSync(USAGE, 'utf8'))).ok).toBe(true)
  })

  it('says which request failed and why, and stops there', async () => {
    const sim = createSimulator({ seed: 3, headerPrefix: 'Stripe' })
    const file = {
      _meta: { template_version: 0 },
      fixtures: [
        { name: 'product', path: '/v1/products', method: 'post', params: { name: 'P' } },
        { name: 'price', path: '/v1/prices', method: 'post', params: { product: '${product:id}', currency: 'usd' } },
        { name: 'never', path: '/v1/customers', method: 'post', params: {} },
      ],
    }
    const result = await sim.admin.loadFixtures(file)
    expect(result.ok).toBe(false)
    expect(result.steps).toHaveLength(2)
    expect(result.failed).toMatchObject({ index: 1, name: 'price', method: 'POST', path: '/v1/prices', status: 400 })
    expect(result.failed?.reason).toMatch(/unit_amount|price/i)
    const badReference = await sim.admin.loadFixtures({
      fixtures: [{ name: 'c', path: '/v1/customers/${nobody:id}', method: 'get' }],
    })
    expect(badReference.failed).toMatchObject({
      index: 0,
      status: 0,
      reason: expect.stringMatching(/no earlier fixture is named 'nobody'/),
    })
    const missingPath = await sim.admin.loadFixtures({
      fixtures: [
        { name: 'p', path: '/v1/products', method: 'post', params: { name: 'P' } },
        { path: '/v1/prices', method: 'post', params: { product: '${p:data.0.id}' } },
      ],
    })
    expect(missingPath.failed?.reason).toMatch(/nothing at 'data.0.id'/)
    expect((await sim.admin.loadFixtures({ fixtures: [{ path: 'v1/x', method: 'post' }] })).failed?.reason).toMatch(/'path'/)
    expect((await sim.admin.loadFixtures({ fixtures: [{ path: '/v1/x', method: 'put' }] })).failed?.reason).toMatch(/'method'/)
    expect((await sim.admin.loadFixtures('not json')).failed?.reason).toMatch(/not JSON/)
    expect((await sim.admin.loadFixtures({ nope: 1 })).failed?.reason).toMatch(/fixtures/)
    // An error the file expects does not stop the run.
    const expected = await sim.admin.loadFixtures({
      fixtures: [
        { path: '/v1/customers/cus_missing', method: 'get', expected_error_type: 'invalid_request_error' },
        { name: 'c', path: '/v1/customers', method: 'post' },
      ],
    })
    expect(expected.ok).toBe(true)
  })

  it('serve --fixtures runs seeds at start over HTTP (prices with lookup keys, a meter) and POST /__sim/fixtures runs one later', async () => {
    const served = await startServeCli([
      '--header-prefix',
      'Stripe',
      '--admin-token',
      'none',
      '--fixtures',
      SUBSCRIPTIONS,
      '--fixtures',
      USAGE,
    ])
    running.push(served)
    expect(served.out()).toContain('subscriptions-seed.json: 4 requests run')
    expect(served.out()).toContain('usage-seed.json: 7 requests run')
    const stripe = new Stripe(served.key, { host: '127.0.0.1', port: served.port, protocol: 'http' })
    const prices = await stripe.prices.list({ limit: 100 })
    expect(prices.data.filter((p) => p.lookup_key === 'team_monthly').map((p) => p.unit_amount)).toEqual([4900])
    const meters = await stripe.billing.meters.list()
    expect(meters.data.map((m) => m.event_name)).toEqual(['api_requests'])
    const later = await fetch(`http://127.0.0.1:${served.port}/__sim/fixtures`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        fixtures: [{ name: 'c', path: '/v1/customers', method: 'post', params: { email: 'later@example.com' } }],
      }),
    })
    expect(later.status).toBe(200)
    const failing = await fetch(`http://127.0.0.1:${served.port}/__sim/fixtures`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ fixtures: [{ name: 'x', path: '/v1/prices', method: 'post', params: {} }] }),
    })
    expect(failing.status).toBe(400)
    expect(((await failing.json()) as { error: { message: string } }).error.message).toMatch(
      /^fixture #1 'x' \(POST \/v1\/prices\) failed: /,
    )
  })

  it('serve --fixtures with a failing request refuses to start, naming it (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-fixtures-'))
    const file = join(dir, 'seed.json')
    writeFileSync(
      file,
      JSON.stringify({
        _meta: { template_version: 0 },
        fixtures: [
          { name: 'product', path: '/v1/products', method: 'post', params: { name: 'P' } },
          { name: 'price', path: '/v1/prices', method: 'post', params: { product: '${produkt:id}' } },
        ],
      }),
    )
    const r = await run(['serve', '--port', '0', '--fixtures', file])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/fixture #2 'price' \(POST \/v1\/prices\) failed: .*no earlier fixture is named 'produkt'/)
    const recorded = await run(['serve', '--port', '0', '--fixtures', file, '--record', join(dir, 'session.jsonl')])
    expect(recorded.code).toBe(2)
    expect(recorded.stderr).toMatch(/--record cannot be combined with --fixtures/)
  })
})
