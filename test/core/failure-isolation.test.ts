import { describe, expect, it } from 'vitest'
import { API, errorOf, setup } from './helpers.js'

describe('a failed request never blocks the next', () => {
  it('serves the next request after one whose URL fetch refuses', async () => {
    const { sim, auth, get } = setup()
    await expect(sim.fetch('http://[bad-host/v1/balance', { headers: auth })).rejects.toThrow(TypeError)
    expect((await get('/v1/balance')).status).toBe(200)
  })

  it('serves the next request after one whose header value fetch refuses', async () => {
    const { sim, auth, get } = setup()
    await expect(sim.fetch(`${API}/v1/balance`, { headers: { ...auth, 'X-Note': 'a\nb' } })).rejects.toThrow(TypeError)
    expect((await get('/v1/balance')).status).toBe(200)
  })

  it('serves the next request after a GET with a body', async () => {
    const { sim, auth, get } = setup()
    await expect(sim.fetch(`${API}/v1/balance`, { headers: auth, body: new Uint8Array([1]) })).rejects.toThrow(TypeError)
    // A string body takes the fast path that builds no Request; fetch refuses it all the same.
    await expect(sim.fetch(`${API}/v1/balance`, { headers: auth, body: 'x' })).rejects.toThrow(TypeError)
    expect((await get('/v1/balance')).status).toBe(200)
    expect(sim.service.timeline.active.size).toBe(0)
  })

  it('answers a route that throws unexpectedly with a 500 api_error, traces it and frees its idempotency key', async () => {
    const { sim, form } = setup()
    const create = sim.service.customers.create
    sim.service.customers.create = () => {
      throw new RangeError('boom')
    }
    const res = await form('/v1/customers', 'email=a%40b.c', { 'Idempotency-Key': 'k-1' })
    expect(res.status).toBe(500)
    expect((await errorOf(res)).type).toBe('api_error')
    expect(sim.trace.filter('http.internal_error').map((e) => e.data.message)).toEqual(['RangeError: boom'])
    sim.service.customers.create = create
    // Not stuck in progress (409) nor replayed: the retry runs for real.
    const retry = await form('/v1/customers', 'email=a%40b.c', { 'Idempotency-Key': 'k-1' })
    expect(retry.status).toBe(200)
    expect(retry.headers.get('Idempotent-Replayed')).toBeNull()
  })
})

describe('requests that stay in flight', () => {
  it('answers a request in flight even when a client timer on the same clock throws', async () => {
    const { sim, get } = setup({ serviceTime: 100 })
    sim.clock.setTimeout(() => {
      throw new Error('client bug')
    }, 50)
    const start = sim.clock.now
    expect((await get('/v1/balance')).status).toBe(200)
    expect(sim.clock.now - start).toBe(100)
    expect((await get('/v1/balance')).status).toBe(200)
  })
})

describe('nothing throws after a change', () => {
  it('refuses an Idempotency-Key it could not echo, before creating anything', async () => {
    const { sim, form, get } = setup()
    const res = await form('/v1/customers', 'email=a%40b.c', { 'Idempotency-Key': 'k-☃' })
    expect(res.status).toBe(400)
    expect((await errorOf(res)).code).toBe('idempotency_key_invalid')
    expect(sim.trace.filter('customer.created')).toEqual([])
    expect(((await (await get('/v1/customers')).json()) as { data: unknown[] }).data).toEqual([])
  })

  it('accepts an Idempotency-Key of Latin-1 characters and echoes it', async () => {
    const { form } = setup()
    const res = await form('/v1/customers', 'email=a%40b.c', { 'Idempotency-Key': 'k-é' })
    expect(res.status).toBe(200)
    expect(res.headers.get('Idempotency-Key')).toBe('k-é')
  })

  it('keeps the clock and later tasks running when a scheduled task throws, and traces the failure', async () => {
    const { sim } = setup()
    const ran: string[] = []
    sim.service.kernel.scheduler.after(10, 'test.broken', () => {
      throw new Error('task bug')
    })
    sim.service.kernel.scheduler.after(10, 'test.async-broken', async () => {
      throw new Error('async task bug')
    })
    sim.service.kernel.scheduler.after(20, 'test.fine', () => {
      ran.push('fine')
    })
    await sim.clock.tickAsync(30)
    await sim.settle()
    expect(ran).toEqual(['fine'])
    expect(sim.trace.filter('scheduler.task_failed').map((e) => e.data)).toEqual([
      { label: 'test.broken', message: 'Error: task bug' },
      { label: 'test.async-broken', message: 'Error: async task bug' },
    ])
  })
})

describe('deep JSON bodies', () => {
  it('refuses a /v2 body nested deeper than the limit with a 400 naming the limit', async () => {
    const { json } = setup()
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`
    const res = await json('/v2/billing/meter_events', deep)
    expect(res.status).toBe(400)
    const error = await errorOf(res)
    expect(error.type).toBe('invalid_request_error')
    expect(error.message).toBe('Request body nesting exceeds the maximum depth of 32.')
  })

  it('refuses a short /v2 body nested one level past the limit, and not one at the limit', async () => {
    const { json } = setup()
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
    const over = await errorOf(await json('/v2/billing/meter_events', nested(33)))
    expect(over.message).toBe('Request body nesting exceeds the maximum depth of 32.')
    const at = await errorOf(await json('/v2/billing/meter_events', nested(32)))
    expect(at.message).not.toContain('nesting')
    const arrays = await errorOf(await json('/v2/billing/meter_events', `{"a":${'['.repeat(32)}1${']'.repeat(32)}}`))
    expect(arrays.message).toBe('Request body nesting exceeds the maximum depth of 32.')
  })

  it('refuses a NUL or a __proto__ key that a short /v2 body spells with escapes', async () => {
    const { json } = setup()
    const nul = await errorOf(await json('/v2/billing/meter_events', '{"event_name":"a\\u0000b"}'))
    expect(nul).toMatchObject({ code: 'parameter_invalid', param: 'event_name' })
    const proto = await errorOf(await json('/v2/billing/meter_events', '{"payload":{"\\u005f_proto__":"x"}}'))
    expect(proto).toMatchObject({ code: 'parameter_unknown', param: 'payload.__proto__' })
    const plain = await errorOf(await json('/v2/billing/meter_events', '{"payload":{"__proto__":"x"}}'))
    expect(plain).toMatchObject({ code: 'parameter_unknown', param: 'payload.__proto__' })
  })

  it('counts brackets inside strings as text, not nesting', async () => {
    const { json } = setup()
    const res = await json('/v2/billing/meter_events', { event_name: '{'.repeat(100), payload: { k: '[['.repeat(50) } })
    expect((await errorOf(res)).message).not.toContain('nesting')
  })
})
