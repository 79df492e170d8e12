import { describe, expect, it } from 'vitest'
import { createSimulator } from '../src/index.js'

describe('smoke', () => {
  it('answers GET /v1/account for the platform key', async () => {
    const sim = createSimulator({ seed: 1 })
    const res = await sim.fetch('https://api.service.test/v1/account', {
      headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` },
    })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.id).toBe(sim.platform.id)
    expect(res.headers.get('request-id')).toMatch(/^req_/)
  })
})
