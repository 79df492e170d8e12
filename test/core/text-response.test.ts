import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'

const balance = (sim: ReturnType<typeof createSimulator>) =>
  sim.fetch('/v1/balance', { headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` } })

describe('fetch answers (string-backed Response)', () => {
  it('reads the same JSON through text(), json(), arrayBuffer() and the body stream', async () => {
    const sim = createSimulator({ seed: 1 })
    const viaText = JSON.parse(await (await balance(sim)).text())
    expect(await (await balance(sim)).json()).toEqual(viaText)
    expect(JSON.parse(new TextDecoder().decode(await (await balance(sim)).arrayBuffer()))).toEqual(viaText)
    const streamed = await new Response((await balance(sim)).body).json()
    expect(streamed).toEqual(viaText)
    const res = await balance(sim)
    expect(res).toBeInstanceOf(Response)
    expect(res.headers.get('content-type')).toBe('application/json')
  })

  it('refuses a second read and a clone after the body was used, like fetch', async () => {
    const sim = createSimulator({ seed: 1 })
    const res = await balance(sim)
    expect(res.bodyUsed).toBe(false)
    const copy = res.clone()
    await res.text()
    expect(res.bodyUsed).toBe(true)
    await expect(res.text()).rejects.toThrow(TypeError)
    expect(() => res.clone()).toThrow(TypeError)
    expect(await copy.json()).toHaveProperty('object', 'balance')
    const streamed = await balance(sim)
    await new Response(streamed.body).text()
    expect(streamed.bodyUsed).toBe(true)
    await expect(streamed.text()).rejects.toThrow(TypeError)
  })

  it('answers the same headers object on every read, with the request id, version and content type', async () => {
    const sim = createSimulator({ seed: 1 })
    const res = await balance(sim)
    expect(res.status).toBe(200)
    expect(res.ok).toBe(true)
    expect(res.headers).toBe(res.headers)
    expect(res.headers.get('request-id')).toMatch(/^req_/)
    expect(res.headers.get('service-version')).toBe(sim.platform.account.apiVersion)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.clone().headers.get('request-id')).toBe(res.headers.get('request-id'))
  })
})
