import { describe, expect, it } from 'vitest'
import { API, errorOf, setup } from './helpers.js'

describe('sim.fetch', () => {
  it('accepts a string, a URL and a Request, like fetch', async () => {
    const { sim, auth } = setup()
    const a = await sim.fetch(`${API}/v1/account`, { headers: auth })
    const b = await sim.fetch(new URL(`${API}/v1/account`), { headers: auth })
    const c = await sim.fetch(new Request(`${API}/v1/account`, { headers: auth }))
    for (const res of [a, b, c]) expect(res.status).toBe(200)
    expect((await c.json()).id).toBe(sim.platform.id)
  })

  it('accepts headers as an object, a Headers instance or an array of pairs', async () => {
    const { sim, key } = setup()
    const value = `Bearer ${key}`
    for (const headers of [
      { Authorization: value },
      new Headers({ Authorization: value }),
      [['Authorization', value]] as [string, string][],
    ]) {
      const res = await sim.fetch(`${API}/v1/account`, { headers })
      expect(res.status).toBe(200)
    }
  })

  it('is bound, so it can be passed around without its simulator', async () => {
    const { sim, auth } = setup()
    const { fetch } = sim
    expect((await fetch(`${API}/v1/account`, { headers: auth })).status).toBe(200)
  })

  it('resolves a bare path against the API base', async () => {
    const { sim, auth } = setup()
    expect((await sim.fetch('/v1/account', { headers: auth })).status).toBe(200)
  })

  it('reads non-string bodies (URLSearchParams) as fetch would', async () => {
    const { sim, auth } = setup()
    const res = await sim.fetch(`${API}/v1/accounts`, {
      method: 'POST',
      headers: auth,
      body: new URLSearchParams({ email: 'shop@example.com', 'metadata[tier]': 'gold' }),
    })
    expect(res.status).toBe(200)
    const account = await res.json()
    expect(account.email).toBe('shop@example.com')
    expect(account.metadata).toEqual({ tier: 'gold' })
  })

  it('answers an unknown path with 404 in the JSON error envelope', async () => {
    const { get } = setup()
    const res = await get('/v1/nothing_here')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toBe('application/json')
    const error = await errorOf(res)
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'url_unrecognized' })
    expect(error.message).toContain('/v1/nothing_here')
  })

  it('answers a wrong method with 405, the envelope and an Allow header', async () => {
    const { sim, auth } = setup()
    const res = await sim.fetch(`${API}/v1/account`, { method: 'DELETE', headers: auth })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET')
    expect(await errorOf(res)).toMatchObject({ type: 'invalid_request_error', code: 'method_not_allowed' })
  })

  it('puts a req_ Request-Id on every response, errors included', async () => {
    const { get } = setup()
    const ok = await get('/v1/account')
    const missing = await get('/v1/nope')
    expect(ok.headers.get('request-id')).toMatch(/^req_[0-9A-Za-z]{14}$/)
    expect(missing.headers.get('request-id')).toMatch(/^req_/)
    expect(ok.headers.get('request-id')).not.toBe(missing.headers.get('request-id'))
  })
})

describe('sim.fetch header handling', () => {
  it('rejects a header value with a line break with a TypeError, as fetch does', async () => {
    const { sim, key } = setup()
    await expect(sim.fetch(`${API}/v1/account`, { headers: { Authorization: `Bearer ${key}\r\nX-Evil: 1` } })).rejects.toThrow(
      TypeError,
    )
  })

  it('reads header names case-insensitively from a plain object', async () => {
    const { sim, key } = setup()
    const res = await sim.fetch(`${API}/v1/account`, {
      headers: { authorization: `Bearer ${key}`, 'SERVICE-VERSION': '2025-03-31.basil' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('service-version')).toBe('2025-03-31.basil')
  })

  it('reads an array of pairs as Headers does: names case-insensitive, repeats joined, whitespace trimmed, bad values a TypeError', async () => {
    const { readIncoming } = await import('../../src/http/incoming.js')
    const cases: [string, string][][] = [
      [
        ['Authorization', 'Bearer x'],
        ['SERVICE-VERSION', '2025-03-31.basil'],
      ],
      [
        ['X-A', '1'],
        ['x-a', '2'],
        ['Cookie', 'a=1'],
        ['cookie', 'b=2'],
      ],
      [
        ['X-A', ' padded\t'],
        ['X-B', ''],
        ['X-C', 'caf\u00e9'],
      ],
    ]
    for (const pairs of cases) {
      const { headers } = await readIncoming('/v1/account', { headers: pairs })
      const reference = new Headers(pairs)
      for (const [name] of pairs) expect(headers.get(name)).toBe(reference.get(name))
      expect(headers.get('missing')).toBeNull()
    }
    for (const bad of [[['X-A', 'a\r\nb']], [['X-A', '\u20ac']], [['bad name', 'x']], [['X-A']]]) {
      await expect(readIncoming('/v1/account', { headers: bad as [string, string][] })).rejects.toThrow(TypeError)
    }
  })
})

describe('hostile input at the HTTP boundary', () => {
  it('answers a malformed percent escape in a path id with 404 in the envelope, not a throw', async () => {
    const { get } = setup()
    const res = await get('/v1/accounts/%')
    expect([403, 404]).toContain(res.status)
    expect(res.headers.get('request-id')).toMatch(/^req_/)
    expect((await errorOf(res)).type).toBe('invalid_request_error')
  })

  it('refuses prototype keys anywhere in a form body or query with parameter_unknown and creates nothing', async () => {
    const { sim, form, get } = setup()
    const before = sim.admin.accounts().length
    for (const body of ['constructor=1', '__proto__[x]=1', 'metadata[__proto__][x]=1', '__proto__=1']) {
      const res = await form('/v1/accounts', body)
      expect(res.status).toBe(400)
      expect((await errorOf(res)).code).toBe('parameter_unknown')
    }
    expect((await get('/v1/account?__proto__[polluted]=1')).status).toBe(400)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(sim.admin.accounts().length).toBe(before)
  })

  it('gives every error a code, authentication errors included', async () => {
    const { sim } = setup()
    const cases: [RequestInit, string][] = [
      [{}, 'api_key_missing'],
      [{ headers: { Authorization: 'Bearer sk_test_unknown' } }, 'api_key_invalid'],
      [{ headers: { Authorization: `Bearer ${sim.platform.publishableKey.test}` } }, 'secret_key_required'],
    ]
    for (const [init, code] of cases) {
      const res = await sim.fetch(`${API}/v1/account`, init)
      expect(res.status).toBe(401)
      expect((await errorOf(res)).code).toBe(code)
    }
  })
})
