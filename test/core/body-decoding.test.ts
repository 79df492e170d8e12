import { describe, expect, it } from 'vitest'
import { errorOf, setup } from './helpers.js'

describe('body decoding', () => {
  it('decodes /v1 form bodies with bracket nesting', async () => {
    const { form } = setup()
    const res = await form('/v1/accounts', 'email=a%40b.test&metadata[plan]=pro&metadata[seats]=3')
    expect(res.status).toBe(200)
    expect((await res.json()).metadata).toEqual({ plan: 'pro', seats: '3' })
  })

  it('decodes bracket arrays in query strings', async () => {
    const { get } = setup()
    const res = await get('/v1/customers?expand[]=data.default_source&expand[]=data.test_clock')
    expect(res.status).toBe(200)
  })

  it('refuses an unknown parameter with 400 parameter_unknown naming it', async () => {
    const { form } = setup()
    const res = await form('/v1/accounts', 'email=a%40b.test&colour=blue')
    expect(res.status).toBe(400)
    expect(await errorOf(res)).toMatchObject({ type: 'invalid_request_error', code: 'parameter_unknown', param: 'colour' })
  })

  it('names nested parameters in bracket form', async () => {
    const { form } = setup()
    const res = await form('/v1/accounts', `metadata[${'k'.repeat(41)}]=v`)
    expect(res.status).toBe(400)
    expect((await errorOf(res)).param).toBe(`metadata[${'k'.repeat(41)}]`)
  })

  it('refuses a wrongly typed value with 400 naming the field', async () => {
    const { form } = setup()
    const res = await form('/v1/accounts', 'type=galactic')
    expect(res.status).toBe(400)
    expect(await errorOf(res)).toMatchObject({ param: 'type' })
  })

  it('refuses malformed JSON on /v2 with 400 invalid_json', async () => {
    const { json } = setup()
    const res = await json('/v2/billing/meter_event_session', '{"oops":')
    expect(res.status).toBe(400)
    expect(await errorOf(res)).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' })
  })

  it('refuses a JSON array at the top level of a /v2 body', async () => {
    const { json } = setup()
    const res = await json('/v2/billing/meter_event_session', '[]')
    expect(res.status).toBe(400)
    expect((await errorOf(res)).code).toBe('invalid_json')
  })

  it('refuses a /v1 body sent as JSON and a /v2 body sent as a form with invalid_content_type', async () => {
    const { sim, auth, json } = setup()
    const v1 = await sim.fetch('https://api.service.test/v1/accounts', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{"email":"a@b.test"}',
    })
    expect(v1.status).toBe(400)
    expect((await errorOf(v1)).code).toBe('invalid_content_type')
    const v2 = await json('/v2/billing/meter_event_session', 'a=b', { 'Content-Type': 'application/x-www-form-urlencoded' })
    expect(v2.status).toBe(400)
    expect((await errorOf(v2)).code).toBe('invalid_content_type')
  })

  it('refuses a body over 1 MiB with 413 and creates nothing', async () => {
    const { sim, form } = setup()
    const before = sim.admin.accounts().length
    const res = await form('/v1/accounts', `email=${'x'.repeat(1024 * 1024 + 1)}`)
    expect(res.status).toBe(413)
    expect((await errorOf(res)).code).toBe('request_too_large')
    expect(sim.admin.accounts().length).toBe(before)
  })

  it('changes no state when a request is refused', async () => {
    const { sim, form } = setup()
    const before = sim.admin.accounts().length
    const events = sim.admin.events().length
    await form('/v1/accounts', 'email=a%40b.test&bogus=1')
    await form('/v1/accounts', 'type=nope')
    expect(sim.admin.accounts().length).toBe(before)
    expect(sim.admin.events().length).toBe(events)
  })
})

describe('string parameters', () => {
  it('refuses a string over 5000 characters and one holding NUL, naming the field', async () => {
    const { sim, form } = setup()
    const before = sim.admin.accounts().length
    const long = await form('/v1/accounts', `email=${'x'.repeat(5001)}`)
    expect(long.status).toBe(400)
    expect(await errorOf(long)).toMatchObject({ code: 'parameter_invalid_string_too_long', param: 'email' })
    const nul = await form('/v1/accounts', 'metadata[k]=a%00b')
    expect(nul.status).toBe(400)
    expect((await errorOf(nul)).param).toBe('metadata[k]')
    expect(sim.admin.accounts().length).toBe(before)
  })
})
