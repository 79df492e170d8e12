import { describe, expect, it } from 'vitest'
import { DEFAULT_API_VERSION } from '../../src/index.js'
import { errorOf, setup } from './helpers.js'

describe('Service-Version', () => {
  it('echoes the account default version when the request names none', async () => {
    const { get } = setup()
    const res = await get('/v1/account')
    expect(res.headers.get('service-version')).toBe(DEFAULT_API_VERSION)
  })

  it('lets a request override the account default, preview releases included', async () => {
    const { get } = setup()
    for (const v of ['2025-03-31.basil', '2026-01-28.preview', '2024-06-20']) {
      const res = await get('/v1/account', { 'Service-Version': v })
      expect(res.status).toBe(200)
      expect(res.headers.get('service-version')).toBe(v)
    }
  })

  it('refuses a malformed or impossible version with 400 invalid_api_version', async () => {
    const { get } = setup()
    for (const v of ['latest', '2026-13-01.basil', '2026-02-30', '2026-01-01.Bad Name']) {
      const res = await get('/v1/account', { 'Service-Version': v })
      expect(res.status).toBe(400)
      expect(await errorOf(res)).toMatchObject({ code: 'invalid_api_version', param: 'Service-Version' })
    }
  })

  it('follows an account default set through admin', async () => {
    const { sim, get } = setup()
    sim.admin.setApiVersion(sim.platform.id, '2025-09-30.clover')
    expect((await get('/v1/account')).headers.get('service-version')).toBe('2025-09-30.clover')
  })
})
