import { createSimulator } from 'service-sim'
import { describe, expect, it } from 'vitest'

const API = 'https://api.service.test'

/** A simulator without rate limits (many requests at one instant), its auth header and a probe of its state. */
function setup() {
  const sim = createSimulator({ seed: 1, limits: false })
  const auth = { Authorization: `Bearer ${sim.platform.secretKey.test}` }
  // Requests are traced whether refused or not; everything else in the trace is a change.
  const changes = () => sim.trace.entries().filter((e) => e.kind !== 'http').length
  const customers = () => sim.admin.objects('customer', { account: sim.platform.id, mode: 'test' }).length
  return { sim, auth, changes, customers }
}

async function envelope(res: Response): Promise<{ status: number; code: unknown; type: unknown }> {
  const body = (await res.json()) as { error?: { code?: unknown; type?: unknown } }
  return { status: res.status, code: body.error?.code, type: body.error?.type }
}

describe('hostile request bodies and parameters through sim.fetch', () => {
  it('rejects a body stream that fails midway with TypeError: fetch failed, as fetch does, changing nothing and blocking nothing', async () => {
    const { sim, auth, changes, customers } = setup()
    const before = changes()
    for (const [path, type] of [
      ['/v1/customers', 'application/x-www-form-urlencoded'],
      ['/v2/core/event_destinations', 'application/json'],
    ] as const) {
      const body = new ReadableStream<Uint8Array>({
        start: (c) => c.enqueue(new TextEncoder().encode('email=a%40b.c&name=')),
        pull: (c) => c.error(new Error('stream broke midway')),
      })
      const sent = sim.fetch(`${API}${path}`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': type },
        body,
        duplex: 'half',
      } as RequestInit)
      const error = await sent.then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(TypeError)
      expect((error as TypeError).message).toBe('fetch failed')
      expect(((error as TypeError).cause as Error).message).toBe('stream broke midway')
    }
    expect(changes()).toBe(before)
    expect(customers()).toBe(0)
    expect((await sim.fetch(`${API}/v1/balance`, { headers: auth })).status).toBe(200)
  })

  it('answers form parameters nested 1,000 deep and expand paths 100 levels deep with the error envelope, changing nothing', async () => {
    const { sim, auth, changes, customers } = setup()
    const form = { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' }
    const before = changes()
    const answers = [
      await sim.fetch(`${API}/v1/customers`, { method: 'POST', headers: form, body: `metadata${'[a]'.repeat(1000)}=1` }),
      await sim.fetch(`${API}/v1/customers`, { method: 'POST', headers: form, body: `name${'[b]'.repeat(1000)}=1` }),
      await sim.fetch(`${API}/v1/customers?email${'[c]'.repeat(1000)}=x`, { headers: auth }),
      await sim.fetch(`${API}/v1/customers?expand[]=${Array(100).fill('data').join('.')}`, { headers: auth }),
      await sim.fetch(`${API}/v1/payment_intents`, {
        method: 'POST',
        headers: form,
        body: `amount=100&currency=usd&expand[]=${Array(100).fill('customer').join('.')}`,
      }),
    ]
    for (const res of answers) expect(await envelope(res)).toMatchObject({ status: 400, type: 'invalid_request_error' })
    expect(changes()).toBe(before)
    expect(customers()).toBe(0)
    expect((await sim.fetch(`${API}/v1/balance`, { headers: auth })).status).toBe(200)
  })

  it('answers a /v2 JSON body that is an array, a number, a string or null with invalid_json, changing nothing', async () => {
    const { sim, auth, changes } = setup()
    const json = { ...auth, 'Content-Type': 'application/json' }
    const before = changes()
    for (const body of ['[1,2,3]', '42', '"x"', 'null', `${'['.repeat(10_000)}${']'.repeat(10_000)}`])
      for (const path of ['/v2/core/event_destinations', '/v2/billing/meter_event_session'])
        expect(await envelope(await sim.fetch(`${API}${path}`, { method: 'POST', headers: json, body }))).toEqual({
          status: 400,
          code: 'invalid_json',
          type: 'invalid_request_error',
        })
    expect(changes()).toBe(before)
    expect((await sim.fetch(`${API}/v2/core/event_destinations`, { headers: auth })).status).toBe(200)
  })

  it('answers requests with megabyte headers or thousands of headers without blocking the next request', async () => {
    const { sim, auth } = setup()
    const many: Record<string, string> = { ...auth }
    for (let i = 0; i < 5000; i++) many[`x-extra-${i}`] = 'v'
    expect((await sim.fetch(`${API}/v1/balance`, { headers: { ...auth, 'X-Big': 'x'.repeat(1_000_000) } })).status).toBe(200)
    expect((await sim.fetch(`${API}/v1/balance`, { headers: many })).status).toBe(200)
    expect(
      await envelope(await sim.fetch(`${API}/v1/balance`, { headers: { ...auth, 'Idempotency-Key': 'k'.repeat(100_000) } })),
    ).toMatchObject({ status: 400, code: 'idempotency_key_invalid' })
    expect(
      await envelope(await sim.fetch(`${API}/v1/balance`, { headers: { ...auth, 'Service-Version': 'v'.repeat(100_000) } })),
    ).toMatchObject({ status: 400, code: 'invalid_api_version' })
    expect((await sim.fetch(`${API}/v1/balance`, { headers: auth })).status).toBe(200)
  })
})
