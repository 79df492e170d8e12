import { setupServer } from 'msw/node'
import Stripe from 'stripe'
import { afterEach, describe, expect, it } from 'vitest'
import { simulatorHandlers } from '../../src/adapters/msw.js'
import { createSimulator } from '../../src/index.js'

let close: (() => void) | undefined
afterEach(() => {
  close?.()
  close = undefined
})

function serve(...handlers: Parameters<typeof setupServer>) {
  const server = setupServer(...handlers)
  server.listen({ onUnhandledRequest: 'error' })
  close = () => server.close()
  return server
}

describe('simulatorHandlers (msw)', () => {
  it('answers global fetch to the API host through an msw server', async () => {
    const sim = createSimulator({ seed: 1 })
    serve(...simulatorHandlers(sim))
    const res = await fetch('https://api.service.test/v1/account', {
      headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` },
    })
    expect(res.status).toBe(200)
    expect((await res.json()).id).toBe(sim.platform.id)
  })

  it('serves the meter events host and keeps the error envelope', async () => {
    const sim = createSimulator({ seed: 2 })
    serve(...simulatorHandlers(sim))
    const res = await fetch('https://meter-events.service.test/v2/billing/meter_event_stream', {
      method: 'POST',
      headers: { Authorization: 'Bearer ek_test_nope', 'Content-Type': 'application/json' },
      body: '{"events":[]}',
    })
    expect(res.status).toBe(401)
    expect((await res.json()).error.type).toBeTypeOf('string')
  })

  it('serves the official client with its default node transport when the prefix is Stripe', async () => {
    const sim = createSimulator({ seed: 3, headerPrefix: 'Stripe' })
    serve(...simulatorHandlers(sim))
    const stripe = new Stripe(sim.platform.secretKey.test, { maxNetworkRetries: 0 })
    expect((await stripe.accounts.retrieveCurrent()).id).toBe(sim.platform.id)
  })

  it('leaves other hosts to msw, which refuses them with onUnhandledRequest: error', async () => {
    const sim = createSimulator({ seed: 4 })
    serve(...simulatorHandlers(sim, { hosts: ['only.this.test'] }))
    await expect(fetch('https://api.service.test/v1/account')).rejects.toThrow()
  })
})
