import { execFile } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CopyContext, curlCommand, nodeClientCall } from '../../src/cli/dashboard/client/request-copy.js'
import { type RequestJson, type RequestRow, requestRow } from '../../src/cli/dashboard/client/request-row.js'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'

const run = promisify(execFile)
const TOKEN = 'request-copy-suite'
const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>

describe('a request copied from the Requests page', () => {
  const sim = createSimulator({ seed: 41, headerPrefix: 'Stripe', limits: false })
  let server: SimServer
  let origin = ''
  let stripe: Stripe
  let ctx: CopyContext

  beforeAll(async () => {
    server = await startHttpServer(sim, { adminToken: TOKEN })
    const port = (server.address() as AddressInfo).port
    origin = `http://127.0.0.1:${port}`
    stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
    ctx = { origin, platform: sim.platform.id, keys: sim.platform.secretKey, prefix: 'Stripe' }
  })
  afterAll(async () => {
    server?.closeAllConnections()
    await new Promise((done) => server?.close(done))
  })

  /** The rows the page lists, oldest first, read through the admin API as the page reads them. */
  const rows = async (): Promise<RequestRow[]> => {
    const answer = (await fetch(`${origin}/__sim/requests?limit=500`, { headers: { Authorization: `Bearer ${TOKEN}` } }).then(
      (r) => r.json(),
    )) as { data: RequestJson[] }
    return answer.data.map(requestRow).reverse()
  }
  const last = async () => (await rows()).at(-1) as RequestRow

  it('as curl, makes the same request again: the same path, parameters, idempotency key and account', async () => {
    const account = sim.admin.createAccount({ email: 'shop@example.com' })
    await stripe.customers.create(
      { email: "o'brien@example.com", metadata: { plan: 'pro' }, preferred_locales: ['en', 'fr'] },
      { idempotencyKey: 'signup-obrien', stripeAccount: account.id, apiVersion: '2025-06-30.basil' },
    )
    const original = await last()
    const command = curlCommand(original, ctx)
    expect(command).toContain(`-H 'Idempotency-Key: signup-obrien'`)
    expect(command).toContain(`-H 'Stripe-Account: ${account.id}'`)
    const { stdout } = await run('sh', ['-c', `${command} -sS`])
    const answered = JSON.parse(stdout) as { id: string; email: string }
    expect(answered.email).toBe("o'brien@example.com")
    const again = await last()
    expect(again.seq).toBeGreaterThan(original.seq)
    expect([again.operation, again.path, again.requestBody, again.account, again.idempotencyKey]).toEqual([
      original.operation,
      original.path,
      original.requestBody,
      original.account,
      original.idempotencyKey,
    ])
    // The same idempotency key and body: the service answers the first customer again.
    expect(answered.id).toBe(JSON.parse(original.responseBody).id)
  })

  it("as the node client's call, runs as written and makes the same request, ids in the path included", async () => {
    const customer = await stripe.customers.create({ email: 'jenny@example.com' })
    await stripe.customers.update(
      customer.id,
      { name: 'Jenny Rosen', metadata: { tier: 'gold' } },
      { idempotencyKey: 'rename-1' },
    )
    const original = await last()
    const call = nodeClientCall(original, ctx)
    expect(call).toContain(`await stripe.customers.update('${customer.id}', {`)
    await new AsyncFunction('Stripe', call)(Stripe)
    const again = await last()
    expect(again.seq).toBeGreaterThan(original.seq)
    expect([again.operation, again.path, again.requestBody, again.idempotencyKey]).toEqual([
      'customers.update',
      original.path,
      original.requestBody,
      'rename-1',
    ])
  })

  it('as curl, sends a list request as a GET with its query', async () => {
    await stripe.customers.list({ limit: 2, email: 'jenny@example.com' })
    const original = await last()
    expect(original.method).toBe('GET')
    const { stdout } = await run('sh', ['-c', `${curlCommand(original, ctx)} -sS`])
    expect((JSON.parse(stdout) as { data: unknown[] }).data).toHaveLength(1)
  })
})
