import { describe, expect, it } from 'vitest'
import { errorOf, setup } from './helpers.js'

describe('malformed /v1 bodies', () => {
  it('refuses a NUL in a parameter name as it does in a value, naming it, and creates nothing', async () => {
    const { sim, form } = setup()
    const before = sim.admin.accounts().length
    const res = await form('/v1/accounts', 'metadata[a%00b]=1')
    expect(res.status).toBe(400)
    expect(await errorOf(res)).toMatchObject({ code: 'parameter_invalid', param: 'metadata[a\u0000b]' })
    expect(sim.admin.accounts().length).toBe(before)
  })

  it('refuses a multipart body with no part under its boundary with 400 invalid_content_type, and creates nothing', async () => {
    const { sim, form } = setup()
    const before = sim.admin.accounts().length
    const res = await form('/v1/accounts', 'email=a%40b.test', { 'Content-Type': 'multipart/form-data; boundary=x' })
    expect(res.status).toBe(400)
    expect(await errorOf(res)).toMatchObject({ type: 'invalid_request_error', code: 'invalid_content_type' })
    expect(sim.admin.accounts().length).toBe(before)
    const next = await form('/v1/accounts', 'email=a%40b.test')
    expect(next.status).toBe(200)
  })

  it('still takes a well-formed multipart body of text fields', async () => {
    const { form } = setup()
    const body = '--xx\r\nContent-Disposition: form-data; name="email"\r\n\r\nmp@example.test\r\n--xx--\r\n'
    const res = await form('/v1/accounts', body, { 'Content-Type': 'multipart/form-data; boundary=xx' })
    expect(res.status).toBe(200)
    expect((await res.json()).email).toBe('mp@example.test')
  })
})
